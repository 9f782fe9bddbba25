/**
 * The issue date: every date printed on the document is a candidate; named features describe
 * its label (issue date, another date, a title's "of"), its block and its place on the page;
 * the fitted scorer picks one. Day and month are read in the document's convention.
 */
import { type Ref, segmentAbove, segmentsOf, segmentUnder } from '../layout.ts'
import { hasLabel, labelAt, labelRank, labelsIn, refersTo } from '../lexicon.ts'
import { type DateOrder, type FoundDate, findDates } from '../parse.ts'
import type { Line, PageText, Segment } from '../pdf-text.ts'
import {
  type Candidate,
  type Decision,
  decide,
  type Feature,
  flag,
  type Models,
  modelOf,
  type PageModel,
} from './model.ts'
import { placeOf } from './place.ts'

/** One printed date, with what is read around it. */
interface DateSite {
  ref: Ref
  date: FoundDate
  /** Its rank among the dates printed, from 0. */
  n: number
  /** The words printed before it: in its segment, the segment on its left, or just above it. */
  context: string
  /** Where that context was found. */
  from: 'own' | 'left' | 'above' | 'none'
  page: PageText
  /** A date wrapped onto the next line ("vom 12." / "Februar 2015"): the date as read across both. */
  wrapped?: string
}

interface DocDates {
  sites: DateSite[]
  customer: Set<Segment>
  isos: string[]
  median: number
}

/** The label printed before a date: in its segment, the segment left of it, or just above it. */
function contextOf(lines: Line[], ref: Ref, index: number): Pick<DateSite, 'context' | 'from'> {
  const own = ref.seg.text.slice(0, index)
  if (own.replace(/[\s:]/g, '').length > 0) return { context: own, from: 'own' }
  // A table cell is labelled by its column header; a label | value row by the label on its left.
  const prev = ref.line.segments[ref.si - 1]
  const dateLabel = (t: string) => hasLabel('issue_date', t) || hasLabel('other_date', t)
  if (prev && dateLabel(prev.text)) return { context: prev.text, from: 'left' }
  const over = segmentAbove(lines, ref)
  if (over && dateLabel(over.seg.text) && findDates(over.seg.text).length === 0)
    return { context: over.seg.text, from: 'above' }
  if (prev) return { context: prev.text, from: 'left' }
  return over ? { context: over.seg.text, from: 'above' } : { context: '', from: 'none' }
}

/** The end of a label phrase: "Invoice date:", "Rechnung Nr. 5 vom", "München, den". */
const lastWords = (context: string) =>
  context
    .replace(/[\s:]+$/, '')
    .split(/\s{2,}|[|·•]/)
    .pop() ?? ''

/** Whether `text` ends with one of the field's labels. */
function endsWithLabel(field: 'date_preposition' | 'range_to', text: string): boolean {
  const t = text.normalize('NFC').trimEnd()
  return labelsIn(field, t).some((h) => h.index + h.label.length >= t.length)
}

/** The issue-date label before the date, unless a longer label of another date covers it. */
function issueLabel(context: string): number {
  const issue = labelAt('issue_date', context)
  const other = labelAt('other_date', context)
  if (!issue || (other && other.label.length > issue.label.length)) return 0
  return 1
}

function otherLabel(context: string): number {
  const issue = labelAt('issue_date', context)
  const other = labelAt('other_date', context)
  return other && (!issue || other.label.length > issue.label.length) ? 1 : 0
}

const TIME = /(?<![\d.,])([01]?\d|2[0-3])[:h.][0-5]\d(?::[0-5]\d)?(?![\d.,])/

type DateFeature = Feature<[s: DateSite, d: DocDates]>

/** The date's features, each a small named measure; their weights are in weights.json. */
export const DATE_FEATURES: readonly DateFeature[] = [
  {
    name: 'issue_label',
    doc: 'an issue-date label ("Invoice date", "Date :", "Rechnungsdatum") is printed right before it',
    of: (s) => issueLabel(lastWords(s.context)),
  },
  {
    name: 'issue_label_rank',
    doc: 'how specific that label is (lexicon order: "Date de facture" above "Date")',
    of: (s) => (issueLabel(lastWords(s.context)) ? labelRank('issue_date', lastWords(s.context)) : 0),
  },
  {
    name: 'other_label',
    doc: 'a label of another date (due, delivery, period, order, related invoice) is printed right before it',
    of: (s) => otherLabel(lastWords(s.context)),
  },
  flag('issue_word_near', 'an issue-date label anywhere in the words before it', (s) =>
    hasLabel('issue_date', s.context),
  ),
  flag('other_word_near', 'a label of another date anywhere in the words before it', (s) =>
    hasLabel('other_date', s.context),
  ),
  flag(
    'dated_word',
    'the words before it end with "of", "vom", "du", "le", "den" (a title or a letter dates itself)',
    (s) => endsWithLabel('date_preposition', lastWords(s.context)),
  ),
  flag('range_end', 'it ends a range ("bis", "au", "to"): the end of a period', (s) =>
    endsWithLabel('range_to', s.context),
  ),
  flag(
    'title_before',
    'a document title ("Invoice", "Rechnung", "Facture") is printed before it on its row',
    (s) => hasLabel('title', s.context),
  ),
  flag('refers_to_other', 'the title before it is another document referred to ("zu Rechnung … vom")', (s) =>
    labelsIn('title', s.context).some((t) => refersTo(s.context.slice(0, t.index))),
  ),
  {
    name: 'place_comma',
    doc: 'a place and a comma before it ("Berlin, 12.03.2026", "Lyon, le 3 mars 2026")',
    of: (s) =>
      /^\p{Lu}[\p{L} .'-]{1,30},(\s*(le|den))?\s*$/u.test(s.ref.seg.text.slice(0, s.date.index).trim())
        ? 1
        : 0,
  },
  {
    name: 'alone_right_top',
    doc: 'alone at the end of a row in the upper right quarter of the first page (a letter sets its date there)',
    of: (s) => {
      const last = s.ref.si === s.ref.line.segments.length - 1
      const alone = s.ref.seg.text.slice(s.date.end).trim() === '' && s.context.trim() === ''
      const top = s.ref.line.page === 1 && s.ref.line.y <= s.page.height * 0.5
      return last && alone && top && s.ref.seg.x0 >= s.page.width * 0.5 ? 1 : 0
    },
  },
  flag('in_customer_block', "inside the customer's block (recipient, delivery address)", (s, d) =>
    d.customer.has(s.ref.seg),
  ),
  flag(
    'label_own_segment',
    'its label is printed in its own segment ("Date: 12/03/2026")',
    (s) => s.from === 'own',
  ),
  flag(
    'label_above',
    'its label is printed above it (a column header or a caption)',
    (s) => s.from === 'above',
  ),
  flag('no_label', 'nothing is printed before it on its row or above it', (s) => s.from === 'none'),
  flag('first_printed', 'the first date printed on the document', (s) => s.n === 0),
  {
    name: 'print_rank',
    doc: 'its rank among the dates printed, 0 (first) to 1 (last)',
    of: (s, d) => (d.sites.length > 1 ? s.n / (d.sites.length - 1) : 0),
  },
  {
    name: 'height_on_page',
    doc: 'how far down its page it is printed, 0 (top) to 1 (bottom)',
    of: (s) => Math.min(1, s.ref.line.y / (s.page.height || 1)),
  },
  flag('later_page', 'printed on a page after the first', (s) => s.ref.line.page > 1),
  flag('busy_row', 'its row has four or more segments (a table row)', (s) => s.ref.line.segments.length >= 4),
  flag(
    'printed_again',
    'the same date is printed elsewhere on the document',
    (s, d) => d.isos.filter((i) => i === s.date.iso).length > 1,
  ),
  flag('earliest', 'no other date printed is earlier', (s, d) => d.isos.every((i) => i >= s.date.iso)),
  flag('latest', 'no other date printed is later', (s, d) => d.isos.every((i) => i <= s.date.iso)),
  {
    name: 'time_beside',
    doc: 'a time of day is printed on its row (a till prints both)',
    of: (s) =>
      TIME.test(s.ref.line.text.replace(s.ref.seg.text.slice(s.date.index, s.date.end), ' ')) ? 1 : 0,
  },
  flag('number_label_row', 'an invoice-number label is printed on its row ("Facture N° 12  Date : …")', (s) =>
    s.ref.line.segments.some((g) => labelsIn('invoice_number', g.text).length > 0),
  ),
  {
    name: 'type_size',
    doc: "its type size against the document's median, capped at 3",
    of: (s, d) => Math.min(3, s.ref.seg.size / (d.median || 1)),
  },
]

function median(values: number[]): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/**
 * A date a narrow column wrapped onto the next line ("Rechnungsnummer: 2026-767028 vom 12." over
 * "Februar 2015"): read across the segment and the one under it, placed in the first (its part
 * there, from where it starts to the segment's end). Only a date neither segment holds alone.
 */
function wrappedDate(lines: Line[], ref: Ref, order: DateOrder): Pick<DateSite, 'date' | 'wrapped'> | null {
  const under = segmentUnder(lines, ref)
  if (!under) return null
  const first = ref.seg.text
  const joined = `${first} ${under.seg.text}`
  // Past the dates the first segment prints whole, and before those the one under it prints.
  const from = Math.max(0, ...findDates(first, order).map((d) => d.end))
  const upTo = Math.min(
    joined.length,
    ...findDates(under.seg.text, order).map((d) => first.length + 1 + d.index),
  )
  const date = findDates(joined, order).find(
    (d) => d.index >= from && d.index < first.length && d.end > first.length + 1 && d.end <= upTo,
  )
  if (!date) return null
  return { date: { ...date, end: first.length }, wrapped: joined.slice(date.index, date.end) }
}

/** Every date printed, with its features (the customer's block included: the scorer weighs it). */
export function dateCandidates(model: PageModel, order: DateOrder): Candidate<string>[] {
  const sites: DateSite[] = []
  for (const ref of segmentsOf(model.lines)) {
    const page = model.pages.find((p) => p.page === ref.line.page) ?? model.pages[0]!
    for (const date of findDates(ref.seg.text, order))
      sites.push({ ref, date, n: sites.length, page, ...contextOf(model.lines, ref, date.index) })
    const wrapped = wrappedDate(model.lines, ref, order)
    if (wrapped)
      sites.push({
        ref,
        ...wrapped,
        n: sites.length,
        page,
        ...contextOf(model.lines, ref, wrapped.date.index),
      })
  }
  const doc: DocDates = {
    sites,
    customer: model.customer,
    isos: sites.map((s) => s.date.iso),
    median: median(model.lines.flatMap((l) => l.segments.map((s) => s.size))),
  }
  return sites.map((s) => ({
    value: s.date.iso,
    text: s.wrapped ?? s.ref.seg.text.slice(s.date.index, s.date.end),
    ...placeOf(model.pages, s.ref.line, s.ref.seg, s.date.index, s.date.end),
    x: DATE_FEATURES.map((f) => f.of(s, doc)),
  }))
}

/** The issue date the fitted scorer prefers, with where it was read and how sure it is. */
export function decideIssueDate(
  model: PageModel,
  order: DateOrder,
  models?: Models,
): Decision<string> | null {
  return decide(modelOf('issue_date', DATE_FEATURES, models), dateCandidates(model, order))
}

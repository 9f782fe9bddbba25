/**
 * The invoice number: every label of the lexicon's `invoice_number` gives a candidate (its value
 * in the label's segment, right of it or under it); named features describe the label, the
 * value and the block; the fitted scorer picks one. Look-alikes (customer, order, delivery
 * numbers) are no label (the lexicon's `excl`).
 */
import { segmentsOf, valueAfter } from '../layout.ts'
import { hasLabel, isLabel, labelsIn, refersTo } from '../lexicon.ts'
import { findDates } from '../parse.ts'
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

/** Whether a token can be a document number on its own (figures, no date). */
function numberShaped(token: string): boolean {
  if (token.length < 3 || token.length > 30) return false
  if (!/\d/.test(token) || !/^[A-Z0-9][A-Z0-9/_.-]*$/i.test(token)) return false
  return !(findDates(token).length > 0 && /^\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}$/.test(token))
}

/** Words that label something else and so never start a number ("DATE 12/03", "TVA 20"). */
const OTHER_LABELS = ['issue_date', 'other_date', 'total_incl', 'total_excl', 'vat_total', 'vat_id'] as const

/**
 * A document series printed before the number ("FT 2026/311", "FR A/12"): a short capital code
 * that labels nothing, followed by a number.
 */
function seriesCode(token: string, next: string | undefined): boolean {
  if (!next || !/^[A-Z]{1,4}$/.test(token) || !numberShaped(next)) return false
  return !OTHER_LABELS.some((field) => hasLabel(field, token))
}

/** The number token of a printed value, or null when it is no document number. */
function numberToken(raw: string): string | null {
  // A value printed after its own colon (a label and ": RK21012345" in two segments).
  const [first, second] = raw
    .replace(/^[\s:=#]+/, '')
    .trim()
    .split(/\s+/)
    .map((t) => t.replace(/[.,;:)]+$/, ''))
  if (!first) return null
  if (seriesCode(first, second)) return `${first} ${second}`
  return numberShaped(first) ? first : null
}

interface NumberSite {
  line: Line
  seg: Segment
  page: PageText
  value: string
  /** The label as printed, where it starts in its segment, how specific it is (0..1). */
  label: string
  index: number
  rank: number
  /** Whether the value is printed in the label's own segment. */
  own: boolean
  /** The value's place: its own segment, the label's, or where valueAfter found it. */
  valueSeg: Segment
  valueLine: Line
}

type NumberFeature = Feature<[s: NumberSite, all: NumberSite[], model: PageModel]>

const before = (s: NumberSite) => s.seg.text.normalize('NFC').slice(0, s.index)
const lastWord = (text: string) => text.trim().split(/\s+/).pop() ?? ''
/** A bare "No", "Nr", "N°", "#", "Numéro": it numbers whatever is printed before it. */
const isBare = (label: string) =>
  label.replace(/[^\p{L}#]/gu, '').length <= 2 || isLabel('number_word', label)
/** The words before a label since the last separator of its segment (" · ", "|", ";", ","). */
const clauseBefore = (text: string, index: number) =>
  text
    .normalize('NFC')
    .slice(0, index)
    .split(/\s[·•|;]\s|[;,]\s/)
    .pop() ?? ''

/** The number's features, each a small named measure; their weights are in weights.json. */
export const NUMBER_FEATURES: readonly NumberFeature[] = [
  {
    name: 'label_rank',
    doc: 'how specific its label is (lexicon order: "Invoice number" above "No")',
    of: (s) => s.rank,
  },
  flag('label_first', 'its label starts its segment', (s) => s.index === 0),
  flag('bare_label', 'its label is a bare "No", "Nr", "#"', (s) => isBare(s.label)),
  flag(
    'label_in_compound',
    'a bare label hyphenated to another word ("Zähler-Nr.", "WEE-Reg-Nr."): that thing\'s number',
    (s) => isBare(s.label) && /\p{L}[-‐]$/u.test(before(s)),
  ),
  flag('refers_to_other', 'the words before its label refer to another document ("zu Rechnung Nr.")', (s) =>
    refersTo(before(s)),
  ),
  flag(
    'in_running_text',
    'its label sits inside a sentence (a segment of more than 40 characters)',
    (s) => s.index > 0 && s.seg.text.length > 40,
  ),
  flag(
    'value_in_label_segment',
    'the value is printed in its label\'s segment ("Invoice No: 123")',
    (s) => s.own,
  ),
  flag(
    'value_under',
    'the value is printed under its label (a header and its cell)',
    (s) => s.valueLine !== s.line,
  ),
  flag('in_customer_block', "inside the customer's block", (s, _all, m) => m.customer.has(s.seg)),
  flag('title_on_row', 'a document title ("Invoice", "Facture", "Rechnung") is printed on its row', (s) =>
    s.line.segments.some((g) => hasLabel('title', g.text)),
  ),
  flag('reference_on_row', 'an order or customer reference label is printed on its row', (s) =>
    s.line.segments.some((g) => hasLabel('buyer_reference', g.text)),
  ),
  flag('title_before_label', 'a document title right before its label ("Rechnung Nr.", "Facture N°")', (s) =>
    hasLabel('title', lastWord(before(s))),
  ),
  flag(
    'word_before_label',
    'another word right before its label ("Versicherungsschein Nr.", "Kunden Nr.")',
    (s) => {
      const word = lastWord(before(s))
      return /\p{L}{3}/u.test(word) && !hasLabel('title', word)
    },
  ),
  flag('vat_shaped', 'the value has the shape of a VAT id (country letters and eight or more figures)', (s) =>
    /^[A-Z]{2}\d{8,12}$/.test(s.value),
  ),
  flag('has_letters', 'the value holds letters ("FA-2026-0621")', (s) => /\p{L}/u.test(s.value)),
  flag('has_separator', 'the value holds a - / . or _', (s) => /[-/._]/.test(s.value)),
  {
    name: 'length',
    doc: 'its length, in 20 characters (capped at 1)',
    of: (s) => Math.min(1, s.value.length / 20),
  },
  flag(
    'few_figures',
    'fewer than four figures ("10a", "144": a house or an item number as often as an invoice\'s)',
    (s) => s.value.replace(/\D/g, '').length < 4,
  ),
  flag('long_digits', 'twelve or more digits and nothing else (a bank or registration number)', (s) =>
    /^\d{12,}$/.test(s.value),
  ),
  flag('printed_again', 'the same value is given by another label', (s, all) =>
    all.some((o) => o !== s && o.value === s.value),
  ),
  {
    name: 'height_on_page',
    doc: 'how far down its page it is printed, 0 (top) to 1 (bottom)',
    of: (s) => Math.min(1, s.line.y / (s.page.height || 1)),
  },
  flag('later_page', 'printed on a page after the first', (s) => s.line.page > 1),
  {
    name: 'print_rank',
    doc: 'its rank among the candidates, 0 (first printed) to 1 (last)',
    of: (s, all) => (all.length > 1 ? all.indexOf(s) / (all.length - 1) : 0),
  },
]

/** Every labelled number of the document. */
function sites(model: PageModel): NumberSite[] {
  const out: NumberSite[] = []
  for (const ref of segmentsOf(model.lines)) {
    const page = model.pages.find((p) => p.page === ref.line.page) ?? model.pages[0]!
    for (const hit of labelsIn('invoice_number', ref.seg.text)) {
      // A bare "No." after a legal mention ("Registered in England and Wales No. 01234567",
      // "RCS Paris N° 123 456 789") numbers the company's registration, not the document: a
      // look-alike, as the lexicon's `excl` labels are.
      if (isBare(hit.label) && hasLabel('legal', clauseBefore(ref.seg.text, hit.index))) continue
      // A label inside running text ("… die Rechnungsnummer an.") needs its value on the spot.
      const values = hit.rest ? [hit.rest] : hit.index === 0 ? valueAfter(model.lines, ref, '') : []
      for (const printed of values) {
        const value = numberToken(printed)
        if (value) {
          const own = printed === hit.rest
          const where = own ? { seg: ref.seg, line: ref.line } : locate(model.lines, ref.li, printed)
          out.push({
            line: ref.line,
            seg: ref.seg,
            page,
            value,
            label: hit.label,
            index: hit.index,
            rank: hit.rank,
            own,
            valueSeg: where.seg,
            valueLine: where.line,
          })
          break
        }
        // A header beside the label (no figure) is passed over for the cell under it.
        if (/\d/.test(printed)) break
      }
    }
  }
  return out
}

/** The segment (near line `li`) whose text is `text`: where valueAfter read a value. */
function locate(lines: Line[], li: number, text: string): { seg: Segment; line: Line } {
  for (let i = li; i < Math.min(lines.length, li + 4); i++) {
    const seg = lines[i]!.segments.find((s) => s.text === text)
    if (seg) return { seg, line: lines[i]! }
  }
  return { seg: lines[li]!.segments[0]!, line: lines[li]! }
}

export function numberCandidates(model: PageModel): Candidate<string>[] {
  const all = sites(model)
  return all.map((s) => {
    const at = Math.max(0, s.valueSeg.text.indexOf(s.value))
    return {
      value: s.value,
      text: s.value,
      ...placeOf(model.pages, s.valueLine, s.valueSeg, at, at + s.value.length),
      x: NUMBER_FEATURES.map((f) => f.of(s, all, model)),
    }
  })
}

/**
 * The invoice number the fitted scorer prefers. The same number printed elsewhere with its
 * letter prefix ("Belegnummer 2018092011804" in a note, "Nr. E2018092011804" in the title): the
 * prefix is part of it.
 */
export function decideInvoiceNumber(model: PageModel, models?: Models): Decision<string> | null {
  const candidates = numberCandidates(model)
  const decision = decide(modelOf('invoice_number', NUMBER_FEATURES, models), candidates)
  if (!decision) return null
  const whole = candidates.find(
    (c) =>
      c.value.length > decision.value.length &&
      c.value.endsWith(decision.value) &&
      /^[A-Z]{1,3}[-/]?$/i.test(c.value.slice(0, -decision.value.length)),
  )
  return whole
    ? { value: whole.value, evidence: { ...decision.evidence, page: whole.page, box: whole.box } }
    : decision
}

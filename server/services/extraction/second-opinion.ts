/**
 * Second opinions on an OCR'd page: what tesseract read of the merchant's or supplier's name, of
 * the total rows and of the date is read again by a second recogniser (ocr-letters.ts), and kept
 * or corrected by rules that do not trust either reading alone: a name's letters only where
 * tesseract was unsure and no known word becomes unknown; a total only when the till's own figures
 * confirm it; a date only when the second reading is sure of it and it stays in the same era.
 */
import { type ExtractedFields, extractFields } from './fields.ts'
import { hasLabel, type LabelField } from './lexicon.ts'
import { EM_PER_WORD_HEIGHT, type OcrRegion } from './ocr.ts'
import { type LineReading, mergeLetters } from './ocr-letters.ts'
import { dateLines } from './ocr-lines.ts'
import { type DateOrder, dateOrder, findAmounts, findDates } from './parse.ts'
import type { Line, PageText } from './pdf-text.ts'
import type { Models } from './scoring/model.ts'

/** A scanned page's second recogniser: one row of it, by its strip in points. */
export interface RowReader {
  n: number
  line: (region: OcrRegion) => Promise<LineReading | null>
}

/** The fields with the total, the name and the date as a second reading corrects them. */
export async function secondOpinions(
  fields: ExtractedFields,
  pages: PageText[],
  readers: RowReader[],
  models?: Models,
): Promise<ExtractedFields> {
  let out = fields
  // Total rows whose amount OCR missed or was unsure of, and the totals decided again with them.
  const again = await totalRowsRead(pages, readers)
  const totals = again ? extractFields(again, models) : null
  // The second reading's total counts when the till's own figures confirm it and the first's
  // were not confirmed by them.
  const total = totals?.total_invoice_including_vat ?? null
  if (
    again &&
    totals &&
    total !== null &&
    total !== out.total_invoice_including_vat &&
    confirmedTotal(total, again) &&
    (out.total_invoice_including_vat === null || !confirmedTotal(out.total_invoice_including_vat, pages))
  )
    out = {
      ...out,
      total_invoice_including_vat: total,
      total_charge_excluding_vat: totals.total_charge_excluding_vat,
      total_vat_amount: totals.total_vat_amount,
    }
  // The name's line: tesseract's few misread glyphs ("MEL LET" for "MEI LET").
  if (out.business_name) {
    const name = await nameOpinion(out.business_name, pages, readers)
    if (name) out = { ...out, business_name: name }
  }
  // The date's row: figures tesseract confuses on a till's print (5 and 6, 6 and 8); or, with no
  // date read at all, the lines where one should be.
  const date = out.document_date
    ? await dateOpinion(out.document_date, pages, readers)
    : await missingDate(pages, readers)
  if (date) out = { ...out, document_date: date }
  return out
}

/** The strip of a row across its page, with room above and below for the line to be cut from. */
function rowStrip(page: PageText, line: Line): OcrRegion {
  const h = Math.max(...line.segments.map((s) => s.size)) / EM_PER_WORD_HEIGHT
  return { x0: 0, x1: page.width, y0: Math.max(0, line.y - h * 0.5), y1: line.y + h * 1.5 }
}

/** The second reading of a region, null when it failed (the first reading stands). */
async function readRow(reader: RowReader, region: OcrRegion): Promise<LineReading | null> {
  try {
    return await reader.line(region)
  } catch {
    return null
  }
}

/** The second reading's date is taken when each of its characters is at least this sure. */
const SURE_DATE = 0.6

/**
 * The date as a second recogniser reads the row OCR took it from, when that row and that reading
 * hold one date, another one, every character of it fairly sure, in the same year or the next or
 * the one before (a year it could not have misread as); null otherwise.
 */
async function dateOpinion(iso: string, pages: PageText[], readers: RowReader[]): Promise<string | null> {
  const order = dateOrder(pages.flatMap((p) => p.lines.map((l) => l.text)).join('\n'))
  for (const reader of readers) {
    const page = pages[reader.n - 1]!
    const line = page.lines.find(
      (l) => l.segments.some((s) => s.confidence) && findDates(l.text, order).some((d) => d.iso === iso),
    )
    if (!line) continue
    // A row of several dates (an issue date beside its due date in a details table): the
    // second reading of the whole row cannot say which of them it read.
    if (findDates(line.text, order).length > 1) return null
    const reading = await readRow(reader, rowStrip(page, line))
    if (!reading) return null
    const date = sureDate(reading, order)
    if (!date || date === iso) return null
    return Math.abs(Number(date.slice(0, 4)) - Number(iso.slice(0, 4))) <= 1 ? date : null
  }
  return null
}

/**
 * A reading with spaces put back where the recogniser ran a date into what is printed beside
 * it: the time after it ("25/01/20181:22:56PM") or before it ("181524/05/18": a day of two
 * figures is taken). Probabilities stay aligned (an added space is sure).
 */
export function datesApart(reading: LineReading): LineReading {
  const breaks = new Set<number>()
  for (const m of reading.text.matchAll(/\d[/.-]\d{4}(?=\d{1,2}:\d{2})/g)) breaks.add(m.index! + m[0].length)
  for (const m of reading.text.matchAll(/(?<=\d)\d{2}[/.-]\d{2}[/.-](?:\d{4}|\d{2})(?!\d)/g))
    breaks.add(m.index!)
  let text = ''
  const probs: number[] = []
  ;[...reading.text].forEach((c, i) => {
    if (breaks.has(i)) {
      text += ' '
      probs.push(1)
    }
    text += c
    probs.push(reading.probs[i] ?? 0)
  })
  return { text, probs }
}

/**
 * The one date of a reading, each of its characters (or, with `figuresOnly`, each of its
 * figures: the recogniser is often unsure of a slash it rightly read) fairly sure; else null.
 */
function sureDate(reading: LineReading, order: DateOrder, figuresOnly = false): string | null {
  const { text, probs } = datesApart(reading)
  const dates = findDates(text, order)
  if (dates.length !== 1) return null
  const found = dates[0]!
  const counted = probs
    .slice(found.index, found.end)
    .filter((_, i) => !figuresOnly || /\d/.test(text[found.index + i]!))
  return counted.length > 0 && Math.min(...counted) >= SURE_DATE ? found.iso : null
}

/**
 * A date for a page OCR found none on: each line where one should be (a date label, a till's
 * time, digits and slashes) read by the second recogniser in up to five strips a little apart,
 * the date taken when two of them read it alike (one reading of a faded line can drop a figure).
 */
async function missingDate(pages: PageText[], readers: RowReader[]): Promise<string | null> {
  const order = dateOrder(pages.flatMap((p) => p.lines.map((l) => l.text)).join('\n'))
  for (const reader of readers) {
    const page = pages[reader.n - 1]!
    for (const line of dateLines(page)) {
      const strip = rowStrip(page, line)
      const shift = (strip.y1 - strip.y0) * 0.1
      const seen = new Map<string, number>()
      for (const d of [0, -shift, shift, 2 * shift, -2 * shift]) {
        const reading = await readRow(reader, { ...strip, y0: Math.max(0, strip.y0 + d), y1: strip.y1 + d })
        const date = reading ? sureDate(reading, order, true) : null
        if (!date) continue
        seen.set(date, (seen.get(date) ?? 0) + 1)
        if (seen.get(date)! >= 2) return date
      }
    }
  }
  return null
}

/** Labels of a total row: totals, subtotal, rounding, amount paid and change (which confirm the total). */
const TOTAL_ROW_LABELS: LabelField[] = ['total_incl', 'total_excl', 'rounding', 'tendered', 'change']
/** At most this many total rows of a page are read again. */
const MAX_TOTAL_ROWS = 6
/** An amount tesseract read with less confidence than this is checked. */
const SURE_AMOUNT = 90
/** The second reading's amount is taken when each of its characters is at least this sure (the till's sums decide). */
const SURE_DIGITS = 0.3

/**
 * The OCR'd pages with their total rows' amounts as a second recogniser reads them, where
 * tesseract read none or was unsure of it ("RM41.43" at 29 %, "$3.14" for "53.14"); null when no
 * row changed. The row's amount is the last one the second reading holds, every character sure.
 */
async function totalRowsRead(pages: PageText[], readers: RowReader[]): Promise<PageText[] | null> {
  const again = [...pages]
  let changed = false
  for (const reader of readers) {
    const page = pages[reader.n - 1]!
    const rows = page.lines
      .filter((l) => l.segments.some((s) => TOTAL_ROW_LABELS.some((f) => hasLabel(f, s.text))))
      .filter((l) => {
        const amounts = l.segments.filter((s) => s.confidence && findAmounts(s.text).length > 0)
        if (amounts.length === 0) return l.segments.some((s) => s.confidence)
        return amounts.some((s) => Math.min(...s.confidence!) < SURE_AMOUNT)
      })
      .slice(0, MAX_TOTAL_ROWS)
    const replaced = new Map<Line, Line>()
    for (const line of rows) {
      const h = Math.max(...line.segments.map((s) => s.size)) / EM_PER_WORD_HEIGHT
      const reading = await readRow(reader, rowStrip(page, line))
      const amount = reading ? sureLastAmount(reading) : null
      if (!amount) continue
      const last = [...line.segments].reverse().find((s) => findAmounts(s.text).length > 0)
      const at = last ? findAmounts(last.text).at(-1)! : null
      if (at?.value === amount.value) continue
      // The amount replaced in its segment (a label may share it: "Total Payable: $3.14").
      const segment = {
        text:
          last && at
            ? `${last.text.slice(0, at.index)}${amount.text}${last.text.slice(at.index + at.text.length)}`
            : amount.text,
        x0: last ? last.x0 : Math.max(line.x1 + h, page.width * 0.6),
        x1: last ? last.x1 : Math.max(line.x1 + h * 4, page.width * 0.8),
        size: line.segments[0]!.size,
        confidence: last?.confidence ?? [Math.round(amount.sure * 100)],
      }
      const segments = last
        ? line.segments.map((s) => (s === last ? segment : s))
        : [...line.segments, segment]
      replaced.set(line, {
        ...line,
        segments,
        x1: Math.max(line.x1, segment.x1),
        text: segments.map((s) => s.text).join('  '),
      })
    }
    if (replaced.size === 0) continue
    changed = true
    again[reader.n - 1] = { ...page, lines: page.lines.map((l) => replaced.get(l) ?? l) }
  }
  return changed ? again : null
}

/** The last decimal amount of a line reading, its characters read with some assurance. */
function sureLastAmount(reading: LineReading): { value: number; text: string; sure: number } | null {
  const found = findAmounts(reading.text).at(-1)
  if (!found) return null
  const probs = reading.probs.slice(found.index, found.index + found.text.length)
  const sure = Math.min(...probs)
  return probs.length > 0 && sure >= SURE_DIGITS
    ? { value: found.value, text: found.text.trim(), sure }
    : null
}

/**
 * Whether a till's own figures confirm a total: it is printed on two rows (the total and the
 * amount paid, a total before and after a rounding of zero), one row's amount less another's is
 * it (cash paid less change given), or two rows' amounts add up to it (a sub-total and its
 * rounding or tax, the tax summary's parts).
 */
function confirmedTotal(total: number, pages: PageText[]): boolean {
  const rows = pages.flatMap((p) => p.lines).map((l) => findAmounts(l.text).map((a) => a.value))
  const near = (a: number, b: number) => Math.abs(a - b) < 0.005
  if (rows.filter((r) => r.some((v) => near(v, total))).length >= 2) return true
  const all = rows.flatMap((r, i) => r.map((v) => ({ v, i })))
  return all.some(
    (a) =>
      a.v > 0 &&
      all.some(
        (b) => b.i !== a.i && b.v > 0 && (near(a.v - b.v, total) || (a.v < total && near(a.v + b.v, total))),
      ),
  )
}

const squeeze = (s: string) => s.normalize('NFKC').toUpperCase().replace(/\s+/g, '')

/**
 * The name with the letters a second recogniser reads on the OCR'd segment it was taken from
 * (mergeLetters), or null. The segment alone on its row is read across the page, else on its
 * own span.
 */
async function nameOpinion(name: string, pages: PageText[], readers: RowReader[]): Promise<string | null> {
  for (const reader of readers) {
    const page = pages[reader.n - 1]!
    for (const line of page.lines) {
      const seg = line.segments.find((s) => s.confidence && squeeze(s.text).includes(squeeze(name)))
      if (!seg) continue
      const at = seg.text.toUpperCase().indexOf(name.toUpperCase())
      if (at < 0) return null
      const h = seg.size / EM_PER_WORD_HEIGHT
      const alone = line.segments.filter((s) => /[\p{L}\d]/u.test(s.text)).length === 1
      const region = {
        x0: alone ? 0 : Math.max(0, seg.x0 - h),
        x1: alone ? page.width : seg.x1 + h,
        y0: Math.max(0, line.y - h * 0.5),
        y1: line.y + h * 1.5,
      }
      const reading = await readRow(reader, region)
      const merged = reading ? mergeLetters(seg.text, reading, seg.confidence) : null
      if (!merged) return null
      // The name's part of the merged segment (letters change in place).
      return merged.slice(at, at + name.length)
    }
  }
  return null
}

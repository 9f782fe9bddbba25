/**
 * Doubtful lines read again: the lines at the top of an OCR'd page (where the merchant or
 * supplier is printed) that the recogniser was unsure of are read again on their own, as
 * strips enlarged, and each kept in whichever reading the recogniser is surer of.
 */
import { hasLabel } from './lexicon.ts'
import { EM_PER_WORD_HEIGHT, type OcrRegion } from './ocr.ts'
import { findDates } from './parse.ts'
import type { Line, PageText } from './pdf-text.ts'

/** Lines of letters at the top of the page looked at, and how many of them are read again. */
const TOP_LINES = 4
const MAX_REREAD = 2
/** A line is doubtful when one of its words of 3+ characters has less confidence than this. */
const DOUBTFUL_BELOW = 65
/** A strip's reading replaces the line when its mean confidence is higher by this much. */
const MARGIN = 5

const lettersOf = (s: string) => (s.match(/\p{L}/gu) ?? []).length

/** The words of a line of an OCR reading with their confidences (none for a text layer). */
function words(line: Line): { text: string; confidence: number }[] {
  return line.segments.flatMap((s) => {
    const ws = s.text.split(' ')
    return s.confidence && s.confidence.length === ws.length
      ? ws.map((text, i) => ({ text, confidence: s.confidence![i]! }))
      : []
  })
}

/** Mean word confidence of a line, each word weighted by its length; null without confidences. */
export function lineConfidence(line: Line): number | null {
  const ws = words(line)
  const weight = ws.reduce((n, w) => n + w.text.length, 0)
  return weight === 0 ? null : ws.reduce((n, w) => n + w.confidence * w.text.length, 0) / weight
}

/** Height of a line's words in points (segment sizes are font sizes, EM_PER_WORD_HEIGHT × the word height). */
const heightOf = (line: Line) => Math.max(...line.segments.map((s) => s.size)) / EM_PER_WORD_HEIGHT

/** The strip across the page around a line, a little taller than it. */
function stripOf(line: Line, page: PageText): OcrRegion {
  const h = heightOf(line)
  return { x0: 0, y0: Math.max(0, line.y - h * 0.35), x1: page.width, y1: line.y + h * 1.35 }
}

/** The top lines of letters the reading was unsure of, each with the strip to read it again in. */
export function doubtfulLines(page: PageText): { line: Line; region: OcrRegion }[] {
  return page.lines
    .filter((l) => lettersOf(l.text) >= 3)
    .slice(0, TOP_LINES)
    .filter((l) => words(l).some((w) => w.text.length >= 3 && w.confidence < DOUBTFUL_BELOW))
    .slice(0, MAX_REREAD)
    .map((line) => ({ line, region: stripOf(line, page) }))
}

/**
 * The line as read again in its strip, when that reading is surer: of the strip's lines at the
 * first one's position holding at least half its characters, and half of each of its columns (a
 * strip may hold the line read twice, "TKANO HANDEL" and "IKANO HANDEL"), the surest, with a
 * higher confidence than the first.
 */
export function surerLine(first: Line, strip: PageText): Line | null {
  const h = heightOf(first)
  const chars = (t: string) => t.replace(/\s/g, '').length
  // Each column of the line still read, with half its characters ("Hauptstraße 156" beside
  // "Am Markt 14" is not the first column alone and a speck where the second was).
  const keepsColumns = (l: Line) =>
    first.segments.every(
      (s) =>
        chars(
          l.segments
            .filter((t) => t.x0 < s.x1 && s.x0 < t.x1)
            .map((t) => t.text)
            .join(''),
        ) >=
        chars(s.text) * 0.5,
    )
  const near = strip.lines
    .filter(
      (l) => Math.abs(l.y - first.y) < h * 0.6 && chars(l.text) >= chars(first.text) * 0.5 && keepsColumns(l),
    )
    .sort((a, b) => (lineConfidence(b) ?? 0) - (lineConfidence(a) ?? 0))[0]
  if (!near) return null
  const before = lineConfidence(first)
  const after = lineConfidence(near)
  if (before === null || after === null || after < before + MARGIN) return null
  return { ...near, page: first.page }
}

/** The page with its doubtful top lines replaced by surer readings of their strips. */
export async function rereadDoubtful(
  page: PageText,
  strip: (region: OcrRegion) => Promise<PageText>,
): Promise<PageText> {
  const doubtful = doubtfulLines(page)
  if (doubtful.length === 0) return page
  const replaced = new Map<Line, Line>()
  for (const { line, region } of doubtful) {
    try {
      const better = surerLine(line, await strip(region))
      if (better) replaced.set(line, better)
    } catch {
      // The first reading stands.
    }
  }
  if (replaced.size === 0) return page
  return { ...page, lines: page.lines.map((l) => replaced.get(l) ?? l) }
}

/** At most this many lines of a page are read again for a date. */
const MAX_DATE_STRIPS = 4

/**
 * The lines of an OCR'd page where a date should be but none was read: a date label ("Date:",
 * "Tarikh") with no date after it, a till's time ("19:15") with no date beside it, a short row of
 * digits and slashes ("2/0]").
 */
export function dateLines(page: PageText): Line[] {
  const out: Line[] = []
  for (const line of page.lines) {
    if (out.length >= MAX_DATE_STRIPS) break
    if (findDates(line.text).length > 0) continue
    const labelled = line.segments.some((s) => hasLabel('issue_date', s.text))
    const time = /(?<![\d:])\d{1,2}:\d{2}(?::\d{2})?(?![\d:])/.test(line.text)
    const digits = /^[\d\s/\\|\][.:-]{4,12}$/.test(line.text.trim()) && /\d[/\\|\]]/.test(line.text)
    if (labelled || time || digits) out.push(line)
  }
  return out
}

/** The lines of dateLines, each as a strip across the page, a little taller than the line. */
export function dateStrips(page: PageText): OcrRegion[] {
  return dateLines(page).map((line) => {
    const size = Math.max(...line.segments.map((s) => s.size))
    return { x0: 0, y0: Math.max(0, line.y - size * 1.2), x1: page.width, y1: line.y + size * 1.6 }
  })
}

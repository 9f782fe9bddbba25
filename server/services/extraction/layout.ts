/**
 * Neighbourhood on the page model both the text layer and OCR give (lines of positioned
 * segments): what sits right of, left of, above and under a segment. A printed row may come as
 * two lines a few points apart (a 7 pt caption beside a 10 pt value, OCR cutting one row): lines
 * whose centres are within half a line of each other count as one row. A column header's cell is
 * the segment under it that overlaps it horizontally.
 */
import type { Line, Segment } from './pdf-text.ts'

export interface Ref {
  line: Line
  li: number
  si: number
  seg: Segment
}

export function* segmentsOf(lines: Line[]): Generator<Ref> {
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li]!
    for (let si = 0; si < line.segments.length; si++) yield { line, li, si, seg: line.segments[si]! }
  }
}

export const overlaps = (a: { x0: number; x1: number }, b: { x0: number; x1: number }, slack = 4) =>
  a.x0 <= b.x1 + slack && b.x0 <= a.x1 + slack

const centre = (line: Line, seg: Segment) => line.y + seg.size / 2

/** Segments of nearby lines on the same visual row as `ref` (not its own line). */
function sameRow(lines: Line[], ref: Ref): Segment[] {
  const c = centre(ref.line, ref.seg)
  const out: Segment[] = []
  for (let li = Math.max(0, ref.li - 2); li <= Math.min(lines.length - 1, ref.li + 2); li++) {
    const line = lines[li]!
    if (li === ref.li || line.page !== ref.line.page) continue
    for (const s of line.segments)
      if (Math.abs(centre(line, s) - c) <= Math.min(s.size, ref.seg.size) * 0.6) out.push(s)
  }
  return out
}

/** The segment right of `ref` on its row (within 300 pt). */
export function rightNeighbour(lines: Line[], ref: Ref): Segment | undefined {
  const own = ref.line.segments[ref.si + 1]
  if (own) return own
  let best: Segment | undefined
  for (const s of sameRow(lines, ref)) {
    if (s.x0 < ref.seg.x1 - 1 || s.x0 - ref.seg.x1 > 300) continue
    if (!best || s.x0 < best.x0) best = s
  }
  return best
}

/** The nearest segment left of `ref` on its row (within 200 pt): its label, in a label | value row. */
export function leftNeighbour(lines: Line[], ref: Ref): Segment | undefined {
  let best = ref.line.segments[ref.si - 1]
  for (const s of sameRow(lines, ref)) {
    if (s.x1 > ref.seg.x0 + 1 || ref.seg.x0 - s.x1 > 200) continue
    if (!best || s.x1 > best.x1) best = s
  }
  return best
}

/**
 * The segment printed right above `ref` and overlapping it (a label over its value, a column
 * header over its cell), within `gap` line heights; the closest line first.
 */
export function segmentAbove(lines: Line[], ref: Ref, gap = 2.5): { seg: Segment; li: number } | undefined {
  for (let li = ref.li - 1; li >= 0 && li >= ref.li - 3; li--) {
    const line = lines[li]!
    if (line.page !== ref.line.page || ref.line.y - line.y > ref.seg.size * gap) break
    const seg = line.segments.find((s) => overlaps(s, ref.seg, 2))
    if (seg) return { seg, li }
  }
  return undefined
}

/** The segment right under `ref`, overlapping it (a header's cell, a value wrapped to the next row). */
export function segmentUnder(lines: Line[], ref: Ref, gap = 2.5): { seg: Segment; li: number } | undefined {
  for (let li = ref.li + 1; li < lines.length && li <= ref.li + 3; li++) {
    const line = lines[li]!
    if (line.page !== ref.line.page || line.y - ref.line.y > Math.max(ref.seg.size, 6) * gap) break
    const seg = line.segments.find((s) => overlaps(s, ref.seg, 2))
    if (seg) return { seg, li }
  }
  return undefined
}

/** The value printed after a label: rest of the segment, next segment, or the line below. */
export function valueAfter(lines: Line[], ref: Ref, rest: string, opts: { below?: boolean } = {}): string[] {
  const out: string[] = []
  const r = rest.replace(/^[\s:.#°-]+/, '').trim()
  if (r) out.push(r)
  const next = rightNeighbour(lines, ref)
  let under: Segment | undefined
  if (opts.below !== false) {
    const below = lines[ref.li + 1]
    if (below && below.page === ref.line.page && below.y - ref.line.y < ref.seg.size * 2.5)
      under = below.segments.find((s) => overlaps(s, ref.seg))
    // A header row's cell may sit under a line of another column (a letterhead's address line
    // printed between the header and its values).
    under ??= segmentUnder(lines, ref)?.seg
  }
  // In a header row (several labels, no figures) a label's value is the cell under it, not the
  // next header.
  const headerRow = ref.line.segments.length >= 3 && !/\d/.test(ref.line.text)
  for (const s of headerRow ? [under, next] : [next, under]) if (s) out.push(s.text)
  return out
}

/** Where a printed value sits on its page, as the review screens draw it. */
import type { Line, PageText, Segment } from '../pdf-text.ts'
import type { Place } from './model.ts'

const clamp = (n: number) => Math.min(1, Math.max(0, Math.round(n * 10000) / 10000))

/**
 * The box of `seg`'s characters `start`..`end` (the whole segment by default), in fractions of
 * the page: the segment's width shared out by characters, its height the line's.
 */
export function placeOf(
  pages: PageText[],
  line: Line,
  seg: Segment,
  start = 0,
  end = seg.text.length,
): Place {
  const page = pages.find((p) => p.page === line.page) ?? pages[0]!
  const perChar = (seg.x1 - seg.x0) / Math.max(1, seg.text.length)
  const x0 = seg.x0 + perChar * start
  const x1 = seg.x0 + perChar * Math.max(start + 1, end)
  const w = page.width || 1
  const h = page.height || 1
  return {
    page: line.page,
    box: [clamp(x0 / w), clamp(line.y / h), clamp(x1 / w), clamp((line.y + Math.max(seg.size, 1)) / h)],
  }
}

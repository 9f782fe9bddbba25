/** Small page models for the extraction tests: rows of cells placed at explicit heights. */
import type { Line, PageText, Segment } from '../../server/services/extraction/pdf-text.ts'

/** A cell: where it starts (points from the left), its text, its type size (points). */
export type Cell = [x: number, text: string, size?: number]

/** A row: its height on the page (points from the top) and its cells. */
export type Row = [y: number, cells: Cell[]]

/**
 * A page from rows (A4 unless a size is given); a cell is 0.5 em wide per character, in the
 * given default type size unless it names its own.
 */
export function pageOf(
  rows: Row[],
  {
    width = 595,
    height = 842,
    size: defaultSize = 9.5,
  }: { width?: number; height?: number; size?: number } = {},
): PageText {
  const lines: Line[] = rows
    .map(([y, cells]) => {
      const segments: Segment[] = cells.map(([x, text, size = defaultSize]) => ({
        text,
        x0: x,
        x1: x + text.length * size * 0.5,
        size,
      }))
      return {
        page: 1,
        y,
        x0: segments[0]!.x0,
        x1: segments[segments.length - 1]!.x1,
        segments,
        text: segments.map((s) => s.text).join('  '),
      }
    })
    .sort((a, b) => a.y - b.y)
  return { page: 1, width, height, lines }
}

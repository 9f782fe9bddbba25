/** Event samples of the export machine's tests (machine and view). */
import type { ExportContext } from '../../src/machines/dashboard/export.machine'

export const exportEvents = {
  'export.open': [
    { type: 'export.open', language: 'en' },
    { type: 'export.open', language: 'fr' },
  ],
  'kind.select': [{ type: 'kind.select', kind: 'expense' }],
  'status.select': [{ type: 'status.select', status: 'failed' }],
  'separator.select': [{ type: 'separator.select', separator: ';' }],
  'range.change': [
    { type: 'range.change', startDate: '2026-01-01', endDate: '2026-06-30' },
    { type: 'range.change', startDate: '2026-06-30', endDate: '2026-01-01' },
  ],
}

/** What makes two export states different for the graph. */
export const exportKey = (c: unknown) => {
  const ctx = c as ExportContext
  return {
    kind: ctx.kind,
    status: ctx.status,
    separator: ctx.separator,
    range: ctx.startDate,
    error: ctx.rangeError,
  }
}

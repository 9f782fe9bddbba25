/** Event samples of the export machine's tests (machine and view). */
import type { ExportContext } from '../../src/machines/dashboard/export.machine'
import { type Filters, NO_FILTERS } from '../../src/machines/dashboard/filters.machine'

export const TODAY = '2026-07-18'
/** A worklist filtered to failed expenses of the first quarter. */
export const FILTERED: Filters = {
  status: 'failed',
  type: 'expense',
  date: 'custom',
  from: '2026-01-01',
  to: '2026-03-31',
  review: 'all',
}

export const exportEvents = {
  'export.open': [
    { type: 'export.open', language: 'en', filters: NO_FILTERS, today: TODAY },
    // From a filtered worklist: its kind, status and custom range pre-fill the dialog.
    { type: 'export.open', language: 'fr', filters: FILTERED, today: TODAY },
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

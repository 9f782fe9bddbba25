/**
 * The dashboard's CSV export: `closed` → `open` (the kind, a date range, a status and the
 * separator — `;` by default in French, `,` in English) → the download starts and the dialog
 * closes. It opens with the worklist's filters in force (kind, status, date range), which the user
 * can still change. The range is checked as it is typed; the file itself streams from the server.
 */
import { assign, setup } from 'xstate'
import type { FinancialKind } from '../../../contract'
import type { Filters } from './filters.machine'

export type Separator = ',' | ';'
export const EXPORT_STATUSES = ['completed', 'failed', 'processing'] as const
export type ExportStatus = '' | (typeof EXPORT_STATUSES)[number]

export type ExportRequest = {
  kind: FinancialKind
  companyId: number
  separator: Separator
  status: ExportStatus
  /** ISO days, inclusive; '' leaves that end open. */
  startDate: string
  endDate: string
}

export type ExportContext = ExportRequest & {
  /** The range ends before it starts. */
  rangeError: 'endBeforeStart' | null
}

export type ExportEvent =
  /** `filters`: the worklist's in force; `today`: the user's day (yyyy-mm-dd) its date presets count from. */
  | { type: 'export.open'; language: 'en' | 'fr'; filters: Filters; today: string }
  | { type: 'kind.select'; kind: FinancialKind }
  | { type: 'status.select'; status: ExportStatus }
  | { type: 'range.change'; startDate: string; endDate: string }
  | { type: 'separator.select'; separator: Separator }
  | { type: 'export.submit' }
  | { type: 'export.cancel' }

/** The separator a spreadsheet in the user's language expects. */
const defaultSeparator = (language: 'en' | 'fr'): Separator => (language === 'fr' ? ';' : ',')

/** `day` (yyyy-mm-dd) moved by `days`, in calendar days. */
function shiftDay(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`)
  if (Number.isNaN(d.getTime())) return ''
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

const rangeErrorOf = (startDate: string, endDate: string) =>
  startDate && endDate && endDate < startDate ? ('endBeforeStart' as const) : null

/**
 * What the worklist's filters mean for the export: its kind (Invoices or Expenses), its status
 * (those the export call takes; pending and all export every status) and its dates as an inclusive
 * range of days (the last week and month as the worklist counts them, 7 and 30 days back).
 */
export function exportPreset(
  filters: Filters,
  today: string,
): Pick<ExportContext, 'status' | 'startDate' | 'endDate' | 'rangeError'> & { kind?: FinancialKind } {
  const status: ExportStatus = (EXPORT_STATUSES as readonly string[]).includes(filters.status)
    ? (filters.status as ExportStatus)
    : ''
  const range: Record<Filters['date'], [string, string]> = {
    all: ['', ''],
    today: [today, today],
    yesterday: [shiftDay(today, -1), shiftDay(today, -1)],
    lastWeek: [shiftDay(today, -7), today],
    lastMonth: [shiftDay(today, -30), today],
    custom: [filters.from ?? '', filters.to ?? ''],
  }
  const [startDate, endDate] = range[filters.date]
  const kind = filters.type === 'invoice' || filters.type === 'expense' ? filters.type : undefined
  return {
    ...(kind ? { kind } : {}),
    status,
    startDate,
    endDate,
    rangeError: rangeErrorOf(startDate, endDate),
  }
}

const request = (c: ExportContext): ExportRequest => ({
  kind: c.kind,
  companyId: c.companyId,
  separator: c.separator,
  status: c.status,
  startDate: c.startDate,
  endDate: c.endDate,
})

export const exportMachine = setup({
  types: {} as { context: ExportContext; events: ExportEvent; input: { companyId: number } },
  actions: {
    /** Starts the browser's download of the export (the composition opens its address). */
    download: (_, _params: ExportRequest) => {},
    notify: (_, _params: { notice: 'exportStarted'; kind: FinancialKind }) => {},
  },
  guards: {
    isRangeValid: ({ context }) => context.rangeError === null,
  },
}).createMachine({
  id: 'export',
  context: ({ input }) => ({
    companyId: input.companyId,
    kind: 'invoice',
    separator: ',',
    status: '',
    startDate: '',
    endDate: '',
    rangeError: null,
  }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        'export.open': {
          target: 'open',
          description:
            "Opens with the worklist's filters (kind, status, dates) and the separator of the user's language.",
          actions: assign(({ event }) => ({
            ...exportPreset(event.filters, event.today),
            separator: defaultSeparator(event.language),
          })),
        },
      },
    },
    open: {
      on: {
        'kind.select': { actions: assign({ kind: ({ event }) => event.kind }) },
        'status.select': { actions: assign({ status: ({ event }) => event.status }) },
        'separator.select': { actions: assign({ separator: ({ event }) => event.separator }) },
        'range.change': {
          actions: assign(({ event }) => ({
            startDate: event.startDate,
            endDate: event.endDate,
            rangeError: rangeErrorOf(event.startDate, event.endDate),
          })),
        },
        'export.submit': {
          guard: 'isRangeValid',
          target: 'closed',
          actions: [
            { type: 'download', params: ({ context }) => request(context) },
            {
              type: 'notify',
              params: ({ context }) => ({ notice: 'exportStarted' as const, kind: context.kind }),
            },
          ],
        },
        'export.cancel': 'closed',
      },
    },
  },
})

export type ExportMachine = typeof exportMachine

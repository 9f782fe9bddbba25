/**
 * The dashboard's CSV export: `closed` → `open` (the kind, a date range, a status and the
 * separator — `;` by default in French, `,` in English) → the download starts and the dialog
 * closes. The range is checked as it is typed; the file itself streams from the server.
 */
import { assign, setup } from 'xstate'
import type { FinancialKind } from '../../contract'

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
  | { type: 'export.open'; language: 'en' | 'fr' }
  | { type: 'kind.select'; kind: FinancialKind }
  | { type: 'status.select'; status: ExportStatus }
  | { type: 'range.change'; startDate: string; endDate: string }
  | { type: 'separator.select'; separator: Separator }
  | { type: 'export.submit' }
  | { type: 'export.cancel' }

/** The separator a spreadsheet in the user's language expects. */
const defaultSeparator = (language: 'en' | 'fr'): Separator => (language === 'fr' ? ';' : ',')

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
          description: "Opens with the separator of the user's language.",
          actions: assign({ separator: ({ event }) => defaultSeparator(event.language) }),
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
            rangeError:
              event.startDate && event.endDate && event.endDate < event.startDate
                ? ('endBeforeStart' as const)
                : null,
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

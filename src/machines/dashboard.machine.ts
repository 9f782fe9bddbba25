/**
 * The dashboard of the selected company, two regions at once, and the row actions as an actor of
 * their own. `data`: loading → ready | failed, with `debouncing` (500 ms) after each keystroke in the
 * search box. `filters`: the filter popover, closed ⇄ open with a draft that Apply takes only when it
 * changed and its date range is valid. Summary cards, sorting, Reset and the upload queue's refresh
 * all reload the list. Rows come in pages of PAGE_SIZE: `ready` → `loadingMore` appends the next
 * page while the server says one follows; a new query starts again at one page, a refresh reloads as
 * many rows as are shown. The invoked `rowActions` actor (`rowActionsMachine`) opens a row's details
 * and deletes a row after its confirmation; it sends `dashboard.refresh` back to this actor when the
 * details close or a row is deleted.
 */
import { assign, fromPromise, raise, setup } from 'xstate'
import type { LogEntry, LogQuery } from '../api/logs'
import { rowActionsMachine } from './dashboard/row-actions.machine'

export const STATUS_FILTERS = ['all', 'pending', 'processing', 'completed', 'failed'] as const
export const TYPE_FILTERS = ['all', 'invoice', 'document'] as const
export const DATE_PRESETS = ['all', 'today', 'yesterday', 'lastWeek', 'lastMonth', 'custom'] as const
export const SORT_COLUMNS = ['name', 'type', 'date', 'status'] as const
/** Rows per page of the table. A refresh reloads the rows shown, at most MAX_ROWS (the server's cap). */
export const PAGE_SIZE = 50
const MAX_ROWS = 1000

export type Filters = {
  status: (typeof STATUS_FILTERS)[number]
  type: (typeof TYPE_FILTERS)[number]
  date: (typeof DATE_PRESETS)[number]
  /** Custom range, as yyyy-mm-dd. */
  from: string | null
  to: string | null
}
export type SortColumn = (typeof SORT_COLUMNS)[number]
export type Summary = { total: number; pending: number; failed: number }

export const NO_FILTERS: Filters = { status: 'all', type: 'all', date: 'all', from: null, to: null }

export type DashboardContext = {
  companyId: number
  filters: Filters
  draft: Filters
  sortBy: SortColumn
  sortOrder: 'asc' | 'desc'
  searchTerm: string
  logs: LogEntry[]
  /** The server has rows after the last one shown. */
  hasMore: boolean
  /** How many rows the next (re)load asks for: one page after a new query, what is shown after a refresh. */
  limit: number
  summary: Summary
}

export type DashboardEvent =
  | { type: 'search.input'; term: string }
  | { type: 'summary.toggle'; status: 'pending' | 'failed' }
  | { type: 'summary.reset' }
  | { type: 'sort.toggle'; column: SortColumn }
  | { type: 'filters.open' }
  | { type: 'filters.edit'; patch: Partial<Filters> }
  | { type: 'filters.apply' }
  | { type: 'filters.reset' }
  | { type: 'filters.close' }
  | { type: 'dashboard.refresh' }
  | { type: 'dashboard.retry' }
  | { type: 'rows.more' }

export type DashboardInput = Pick<
  DashboardContext,
  'companyId' | 'filters' | 'sortBy' | 'sortOrder' | 'searchTerm'
> & { offset: number; limit: number }

export type LogPage = { logs: LogEntry[]; hasMore: boolean }

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate(), 0, 0, 0, 0)
const endOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate(), 23, 59, 59, 999)
const day = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number)
  return new Date(y!, m! - 1, d!)
}

/** The request for the current filters and page, `now` in the user's time zone. */
export function toQuery(input: DashboardInput, now: Date): LogQuery {
  const { filters } = input
  const query: LogQuery = {
    sortBy: input.sortBy,
    sortOrder: input.sortOrder,
    offset: input.offset,
    limit: input.limit,
  }
  if (filters.status !== 'all') query.status = filters.status
  if (filters.type !== 'all') query.elementType = filters.type === 'invoice' ? 'Invoice' : 'Document'
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1)
  if (filters.date === 'today') Object.assign(query, { startDate: startOfDay(now), endDate: endOfDay(now) })
  if (filters.date === 'yesterday')
    Object.assign(query, { startDate: startOfDay(yesterday), endDate: endOfDay(yesterday) })
  if (filters.date === 'lastWeek') query.lastDays = 7
  if (filters.date === 'lastMonth') query.lastDays = 30
  if (filters.date === 'custom') {
    if (filters.from) query.startDate = startOfDay(day(filters.from))
    if (filters.to) query.endDate = endOfDay(day(filters.to))
  }
  const term = input.searchTerm.trim()
  if (term) query.searchTerm = term
  return query
}

/** The number shown on the Filter button. */
export function activeFilterCount(filters: Filters): number {
  return [filters.status !== 'all', filters.type !== 'all', filters.date !== 'all'].filter(Boolean).length
}

export function isValidRange(filters: Filters): boolean {
  if (filters.date !== 'custom') return true
  if (!filters.from && !filters.to) return false
  return !filters.from || !filters.to || filters.from <= filters.to
}

const queryOf = (context: DashboardContext, offset: number, limit: number): DashboardInput => ({
  companyId: context.companyId,
  filters: context.filters,
  sortBy: context.sortBy,
  sortOrder: context.sortOrder,
  searchTerm: context.searchTerm,
  offset,
  limit,
})

const sameFilters = (a: Filters, b: Filters) =>
  a.status === b.status && a.type === b.type && a.date === b.date && a.from === b.from && a.to === b.to

export const dashboardMachine = setup({
  types: {
    context: {} as DashboardContext,
    events: {} as DashboardEvent,
    input: {} as { companyId: number },
    children: {} as { rowActions: 'rowActions' },
  },
  actors: {
    fetchLogs: fromPromise<LogPage & { summary: Summary }, DashboardInput>(async () => {
      throw new Error('fetchLogs not provided')
    }),
    fetchMore: fromPromise<LogPage, DashboardInput>(async () => {
      throw new Error('fetchMore not provided')
    }),
    rowActions: rowActionsMachine,
  },
  actions: {
    notifyFailed: (_, _params: { searching: boolean; message: string }) => {},
  },
  guards: {
    canApply: ({ context }) => !sameFilters(context.draft, context.filters) && isValidRange(context.draft),
    hasMore: ({ context }) => context.hasMore,
  },
  delays: { searchDebounce: 500 },
}).createMachine({
  id: 'dashboard',
  type: 'parallel',
  context: ({ input }) => ({
    companyId: input.companyId,
    filters: NO_FILTERS,
    draft: NO_FILTERS,
    sortBy: 'date',
    sortOrder: 'desc',
    searchTerm: '',
    logs: [],
    hasMore: false,
    limit: PAGE_SIZE,
    summary: { total: 0, pending: 0, failed: 0 },
  }),
  invoke: {
    id: 'rowActions',
    src: 'rowActions',
    input: ({ context, self }) => ({ companyId: context.companyId, dashboard: self }),
  },
  on: {
    'summary.toggle': {
      actions: [
        assign({
          filters: ({ context, event }) => ({
            ...context.filters,
            status: context.filters.status === event.status ? 'all' : event.status,
          }),
          limit: PAGE_SIZE,
        }),
        raise({ type: 'dashboard.refresh' }),
      ],
      description: 'A summary card filters by its status; clicking the active one clears it.',
    },
    'summary.reset': {
      actions: [
        assign({ filters: NO_FILTERS, searchTerm: '', limit: PAGE_SIZE }),
        raise({ type: 'dashboard.refresh' }),
      ],
      description: 'The total card resets every filter.',
    },
    'sort.toggle': {
      actions: [
        assign({
          sortOrder: ({ context, event }) =>
            context.sortBy === event.column ? (context.sortOrder === 'asc' ? 'desc' : 'asc') : 'asc',
          sortBy: ({ event }) => event.column,
          limit: PAGE_SIZE,
        }),
        raise({ type: 'dashboard.refresh' }),
      ],
      description: 'The same column toggles the order; a new column starts ascending.',
    },
  },
  states: {
    data: {
      initial: 'loading',
      on: {
        'dashboard.refresh': '.loading',
        'search.input': {
          target: '.debouncing',
          actions: assign({ searchTerm: ({ event }) => event.term, limit: PAGE_SIZE }),
        },
      },
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'fetchLogs',
            src: 'fetchLogs',
            input: ({ context }) => queryOf(context, 0, context.limit),
            onDone: {
              target: 'ready',
              actions: assign({
                logs: ({ event }) => event.output.logs,
                hasMore: ({ event }) => event.output.hasMore,
                summary: ({ event }) => event.output.summary,
              }),
            },
            onError: {
              target: 'failed',
              actions: {
                type: 'notifyFailed',
                params: ({ context, event }) => ({
                  searching: context.searchTerm.trim() !== '',
                  message: (event.error as { message?: string } | null)?.message ?? '',
                }),
              },
            },
          },
        },
        debouncing: {
          after: { searchDebounce: 'loading' },
          description: 'Spec 02 §4: the search box is debounced 500 ms; a blank term reloads the plain list.',
        },
        ready: {
          on: { 'rows.more': { guard: 'hasMore', target: 'loadingMore' } },
        },
        loadingMore: {
          tags: ['loadingMore'],
          description: 'The next page is appended; a failure keeps the rows shown and says so.',
          invoke: {
            id: 'fetchMore',
            src: 'fetchMore',
            input: ({ context }) => queryOf(context, context.logs.length, PAGE_SIZE),
            onDone: {
              target: 'ready',
              actions: assign(({ context, event }) => {
                // A row that moved down a page between the two requests is shown once.
                const shown = new Set(context.logs.map((l) => l.id))
                const logs = [...context.logs, ...event.output.logs.filter((l) => !shown.has(l.id))]
                return { logs, hasMore: event.output.hasMore, limit: Math.min(MAX_ROWS, logs.length) }
              }),
            },
            onError: {
              target: 'ready',
              actions: {
                type: 'notifyFailed',
                params: ({ event }) => ({
                  searching: false,
                  message: (event.error as { message?: string } | null)?.message ?? '',
                }),
              },
            },
          },
        },
        failed: { on: { 'dashboard.retry': 'loading' } },
      },
    },
    filters: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'filters.open': { target: 'open', actions: assign({ draft: ({ context }) => context.filters }) },
          },
        },
        open: {
          on: {
            'filters.edit': {
              actions: assign({ draft: ({ context, event }) => ({ ...context.draft, ...event.patch }) }),
            },
            'filters.apply': {
              guard: 'canApply',
              target: 'closed',
              actions: [
                assign({ filters: ({ context }) => context.draft, limit: PAGE_SIZE }),
                raise({ type: 'dashboard.refresh' }),
              ],
            },
            'filters.reset': {
              target: 'closed',
              actions: [
                assign({
                  filters: NO_FILTERS,
                  draft: NO_FILTERS,
                  sortBy: 'date',
                  sortOrder: 'desc',
                  searchTerm: '',
                  limit: PAGE_SIZE,
                }),
                raise({ type: 'dashboard.refresh' }),
              ],
              description: 'Reset restores sortBy date, sortOrder desc and clears the search term.',
            },
            'filters.close': 'closed',
          },
        },
      },
    },
  },
})

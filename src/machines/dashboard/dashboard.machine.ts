/**
 * The dashboard of the selected company: one region, `data`, and two actors of its own that it
 * invokes, so their states do not multiply with the list's. `data`: loading → ready | failed, with
 * `debouncing` (500 ms) after each keystroke in the search box. Summary cards, sorting, the filter
 * popover's Apply and Reset, and an upload that settles all reload the list. Rows come in pages
 * of PAGE_SIZE: `ready` → `loadingMore` appends the next page while the server says one follows; a
 * new query starts again at one page, a refresh reloads as many rows as are shown.
 * - `filters` (`filtersMachine`): the filter popover; the dashboard opens it with the filters in
 *   force, and it answers `filters.applied` (a new set) or `filters.cleared` (Reset).
 * - `rowActions` (`rowActionsMachine`): opens a row's details and deletes a row after its
 *   confirmation; it sends `dashboard.refresh` when the details close or a row is deleted.
 * - `uploads` (`uploadEvents`): passes on the upload queue's `uploads.accepted` (the server took an
 *   upload of this company: its row and the Pending count show at once) and `uploads.settled` (an
 *   upload completed or failed), so the inspector shows which upload reloaded the list.
 * - `live` (`liveUpdates`): runs the company's live updates (`liveUpdatesMachine`, a chunk of its
 *   own), which send `live.changed` when a document changed; the rows reload after `refreshing`
 *   (300 ms, so a burst reloads once).
 */
import { assign, type EventObject, fromCallback, fromPromise, raise, sendTo, setup } from 'xstate'
import type { LogEntry } from '../../../contract'
import type { LogQuery } from '../../api/logs'
import { type CallFailure, toFailure } from '../shared/failure'
import { type Filters, type FiltersOutcome, filtersMachine, NO_FILTERS } from './filters.machine'
import type { LiveChanged, LiveUpdatesInput } from './live-updates.machine'
import {
  type DetailTarget,
  isListed,
  type NeighbourRequest,
  neighbourTarget,
  rowActionsMachine,
} from './row-actions.machine'

const SORT_COLUMNS = ['name', 'type', 'supplier', 'doc_date', 'total', 'date', 'status'] as const
/** Rows per page of the table. A refresh reloads the rows shown, at most MAX_ROWS (the server's cap). */
export const PAGE_SIZE = 50
const MAX_ROWS = 1000

export type SortColumn = (typeof SORT_COLUMNS)[number]
/** The summary cards' counts: every row, pending, failed, and the documents to review. */
export type Summary = { total: number; pending: number; failed: number; review: number }

export type DashboardContext = {
  companyId: number
  filters: Filters
  sortBy: SortColumn
  sortOrder: 'asc' | 'desc'
  searchTerm: string
  logs: LogEntry[]
  /** The server has rows after the last one shown. */
  hasMore: boolean
  /** How many rows the next (re)load asks for: one page after a new query, what is shown after a refresh. */
  limit: number
  summary: Summary
  /** J past the last row shown while the server has more: the neighbour is named once the next page is in. */
  neighbourAfterMore: Omit<NeighbourRequest, 'type'> | null
}

export type DashboardEvent =
  | { type: 'search.input'; term: string }
  | { type: 'summary.toggle'; status: 'pending' | 'failed' }
  | { type: 'summary.reset' }
  /** The "To review" card: only the documents in the review queue; pressed again, every row. */
  | { type: 'review.toggle' }
  | { type: 'sort.toggle'; column: SortColumn }
  /** The Filter button: the popover opens with the filters in force. */
  | { type: 'filters.open' }
  | FiltersOutcome
  | { type: 'dashboard.refresh' }
  /** The server took an upload of this company, passed on by the `uploads` actor. */
  | { type: 'uploads.accepted' }
  /** The upload queue settled an upload (completed or failed), passed on by the `uploads` actor. */
  | { type: 'uploads.settled' }
  /** A finished upload's "View" in the upload panel, passed on by the `uploads` actor. */
  | ({ type: 'document.open' } & DetailTarget)
  | { type: 'dashboard.retry' }
  | { type: 'rows.more' }
  /** The open details move on: the neighbour of their row in the list (from `rowActions`). */
  | NeighbourRequest
  | LiveChanged

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

/** The type filter's value as the server names the row type. */
const TYPE_NAMES = { invoice: 'Invoice', expense: 'Expense', document: 'Document' } as const

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
  if (filters.review === 'needed') query.review = 'needed'
  if (filters.type !== 'all') query.elementType = TYPE_NAMES[filters.type]
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

const queryOf = (context: DashboardContext, offset: number, limit: number): DashboardInput => ({
  companyId: context.companyId,
  filters: context.filters,
  sortBy: context.sortBy,
  sortOrder: context.sortOrder,
  searchTerm: context.searchTerm,
  offset,
  limit,
})

/** In `ready` and `failed`: the neighbour asked for before the next page loaded, named from the rows now shown. */
const answerPendingNeighbour = {
  guard: 'neighbourPending',
  actions: [
    {
      type: 'moveDetails',
      params: ({ context }: { context: DashboardContext }) => ({
        target: neighbourTarget(
          context.logs,
          context.neighbourAfterMore!.from,
          context.neighbourAfterMore!.direction,
        ),
      }),
    },
    'clearPendingNeighbour',
  ],
  description: 'The neighbour asked for before the next page loaded, named from the rows now shown.',
} as const

export const dashboardMachine = setup({
  types: {
    context: {} as DashboardContext,
    events: {} as DashboardEvent,
    input: {} as { companyId: number },
    children: {} as {
      rowActions: 'rowActions'
      filters: 'filters'
      uploads: 'uploadEvents'
      live: 'liveUpdates'
    },
  },
  actors: {
    fetchLogs: fromPromise<LogPage & { summary: Summary }, DashboardInput>(async () => {
      throw new Error('fetchLogs not provided')
    }),
    fetchMore: fromPromise<LogPage, DashboardInput>(async () => {
      throw new Error('fetchMore not provided')
    }),
    rowActions: rowActionsMachine,
    filters: filtersMachine,
    /** Runs the live updates (`liveUpdatesMachine`, loaded with its chunk); none where nothing streams. */
    liveUpdates: fromCallback<EventObject, LiveUpdatesInput>(() => undefined),
    /** Sends the dashboard the upload queue's `uploads.accepted` (of its company) and `uploads.settled` (none where nothing uploads). */
    uploadEvents: fromCallback<EventObject, { companyId: number }>(() => undefined),
  },
  actions: {
    notifyFailed: (_, _params: { searching: boolean; failure: CallFailure }) => {},
    /** Tells the row actions which row follows (or precedes) the one whose details move on; null past the end. */
    moveDetails: sendTo('rowActions', (_, params: { target: DetailTarget | null }) => ({
      type: 'details.move' as const,
      target: params.target,
    })),
    clearPendingNeighbour: assign({ neighbourAfterMore: null }),
  },
  guards: {
    hasMore: ({ context }) => context.hasMore,
    neighbourPending: ({ context }) => context.neighbourAfterMore !== null,
    /** The open row is the last one shown, going down, and the server has rows after it. */
    pastLoadedRows: ({ context }, request: Omit<NeighbourRequest, 'type'>) =>
      request.direction === 1 &&
      context.hasMore &&
      isListed(context.logs, request.from) &&
      neighbourTarget(context.logs, request.from, 1) === null,
  },
  delays: { searchDebounce: 500, liveSettle: 300 },
}).createMachine({
  id: 'dashboard',
  type: 'parallel',
  context: ({ input }) => ({
    companyId: input.companyId,
    filters: NO_FILTERS,
    sortBy: 'date',
    sortOrder: 'desc',
    searchTerm: '',
    logs: [],
    hasMore: false,
    limit: PAGE_SIZE,
    summary: { total: 0, pending: 0, failed: 0, review: 0 },
    neighbourAfterMore: null,
  }),
  invoke: [
    {
      id: 'rowActions',
      src: 'rowActions',
      input: ({ context, self }) => ({ companyId: context.companyId, dashboard: self }),
    },
    { id: 'filters', src: 'filters', input: ({ self }) => ({ dashboard: self }) },
    { id: 'uploads', src: 'uploadEvents', input: ({ context }) => ({ companyId: context.companyId }) },
    {
      id: 'live',
      src: 'liveUpdates',
      input: ({ context, self }) => ({ companyId: context.companyId, dashboard: self }),
    },
  ],
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
    'review.toggle': {
      actions: [
        assign({
          filters: ({ context }) => ({
            ...context.filters,
            review: context.filters.review === 'needed' ? 'all' : 'needed',
          }),
          limit: PAGE_SIZE,
        }),
        raise({ type: 'dashboard.refresh' }),
      ],
      description: 'The "To review" card shows only the review queue; clicking it again clears that.',
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
        'uploads.accepted': {
          target: '.loading',
          description:
            'The server took an upload of this company: its row and the Pending count show at once.',
        },
        'uploads.settled': {
          target: '.loading',
          description: 'An upload completed or failed: the list and the counts reload.',
        },
        'document.open': {
          actions: sendTo('rowActions', ({ event }) => event),
          description: 'A finished upload viewed from the upload panel opens in the row dialogs.',
        },
        'details.neighbour': {
          description:
            'The rows as shown (a reload under way keeps them until it answers) name the neighbour.',
          actions: {
            type: 'moveDetails',
            params: ({ context, event }) => ({
              target: neighbourTarget(context.logs, event.from, event.direction),
            }),
          },
        },
        'filters.open': {
          actions: sendTo('filters', ({ context }) => ({ type: 'filters.open', filters: context.filters })),
        },
        'filters.applied': {
          actions: [
            assign({ filters: ({ event }) => event.filters, limit: PAGE_SIZE }),
            raise({ type: 'dashboard.refresh' }),
          ],
        },
        'filters.cleared': {
          actions: [
            assign({
              filters: NO_FILTERS,
              sortBy: 'date',
              sortOrder: 'desc',
              searchTerm: '',
              limit: PAGE_SIZE,
            }),
            raise({ type: 'dashboard.refresh' }),
          ],
          description: 'Reset restores sortBy date, sortOrder desc and clears the search term.',
        },
        'search.input': {
          target: '.debouncing',
          actions: assign({ searchTerm: ({ event }) => event.term, limit: PAGE_SIZE }),
        },
      },
      states: {
        loading: {
          tags: ['loading'],
          // A change during the request may not be in its answer: asked again.
          on: { 'live.changed': 'refreshing' },
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
                  failure: toFailure(event.error),
                }),
              },
            },
          },
        },
        // A document changed: the rows shown reload once the burst of events settles.
        refreshing: { after: { liveSettle: 'loading' } },
        debouncing: {
          after: { searchDebounce: 'loading' },
          description: 'The search box is debounced 500 ms; a blank term reloads the plain list.',
        },
        ready: {
          always: answerPendingNeighbour,
          on: {
            'rows.more': { guard: 'hasMore', target: 'loadingMore' },
            'live.changed': 'refreshing',
            'details.neighbour': {
              guard: { type: 'pastLoadedRows', params: ({ event }) => event },
              target: 'loadingMore',
              actions: assign({
                neighbourAfterMore: ({ event }) => ({ from: event.from, direction: event.direction }),
              }),
              description:
                'J past the last row shown while the server has more: the next page loads, then names the neighbour.',
            },
          },
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
                  failure: toFailure(event.error),
                }),
              },
            },
          },
        },
        failed: {
          always: answerPendingNeighbour,
          on: { 'dashboard.retry': 'loading', 'live.changed': 'refreshing' },
        },
      },
    },
  },
})

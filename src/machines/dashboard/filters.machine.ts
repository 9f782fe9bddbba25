/**
 * The dashboard's filter popover, an actor of its own that the dashboard invokes (so the dashboard's
 * list does not multiply with the popover). `closed` ⇄ `open`: opening copies the filters in force
 * into a draft; Apply takes the draft only when it changed and its date range is valid, and hands it
 * to the dashboard; Reset asks the dashboard to clear every filter, the sort and the search.
 */
import { type ActorRef, assign, type Snapshot, sendTo, setup } from 'xstate'

export const STATUS_FILTERS = ['all', 'pending', 'processing', 'completed', 'failed'] as const
export const TYPE_FILTERS = ['all', 'invoice', 'expense', 'document'] as const
export const DATE_PRESETS = ['all', 'today', 'yesterday', 'lastWeek', 'lastMonth', 'custom'] as const

export type Filters = {
  status: (typeof STATUS_FILTERS)[number]
  type: (typeof TYPE_FILTERS)[number]
  date: (typeof DATE_PRESETS)[number]
  /** Custom range, as yyyy-mm-dd. */
  from: string | null
  to: string | null
  /** `needed`: only the documents in the review queue (the "To review" card). */
  review: 'all' | 'needed'
}

export const NO_FILTERS: Filters = {
  status: 'all',
  type: 'all',
  date: 'all',
  from: null,
  to: null,
  review: 'all',
}

/** The number shown on the Filter button. */
export function activeFilterCount(filters: Filters): number {
  return [
    filters.status !== 'all',
    filters.type !== 'all',
    filters.date !== 'all',
    filters.review !== 'all',
  ].filter(Boolean).length
}

export function isValidRange(filters: Filters): boolean {
  if (filters.date !== 'custom') return true
  if (!filters.from && !filters.to) return false
  return !filters.from || !filters.to || filters.from <= filters.to
}

const sameFilters = (a: Filters, b: Filters) =>
  a.status === b.status &&
  a.type === b.type &&
  a.date === b.date &&
  a.from === b.from &&
  a.to === b.to &&
  a.review === b.review

/** What the popover tells the dashboard. */
export type FiltersOutcome = { type: 'filters.applied'; filters: Filters } | { type: 'filters.cleared' }

type FiltersInput = { dashboard: ActorRef<Snapshot<unknown>, FiltersOutcome> }

export type FiltersContext = FiltersInput & {
  /** The filters in force when the popover opened. */
  filters: Filters
  draft: Filters
}

type FiltersEvent =
  /** Sent by the dashboard with the filters in force. */
  | { type: 'filters.open'; filters: Filters }
  | { type: 'filters.edit'; patch: Partial<Filters> }
  | { type: 'filters.apply' }
  | { type: 'filters.reset' }
  | { type: 'filters.close' }

export const filtersMachine = setup({
  types: {
    context: {} as FiltersContext,
    events: {} as FiltersEvent,
    input: {} as FiltersInput,
  },
  guards: {
    canApply: ({ context }) => !sameFilters(context.draft, context.filters) && isValidRange(context.draft),
  },
}).createMachine({
  id: 'dashboardFilters',
  initial: 'closed',
  context: ({ input }) => ({ ...input, filters: NO_FILTERS, draft: NO_FILTERS }),
  states: {
    closed: {
      on: {
        'filters.open': {
          target: 'open',
          actions: assign({ filters: ({ event }) => event.filters, draft: ({ event }) => event.filters }),
        },
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
          actions: sendTo(
            ({ context }) => context.dashboard,
            ({ context }) => ({ type: 'filters.applied', filters: context.draft }),
          ),
        },
        'filters.reset': {
          target: 'closed',
          actions: [
            assign({ draft: NO_FILTERS }),
            sendTo(({ context }) => context.dashboard, { type: 'filters.cleared' }),
          ],
          description: 'Reset restores sortBy date, sortOrder desc and clears the search term.',
        },
        'filters.close': 'closed',
      },
    },
  },
})

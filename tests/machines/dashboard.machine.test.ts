import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, waitFor } from 'xstate'
import type { LogEntry } from '../../contract'
import { dashboardMachine, PAGE_SIZE, toQuery } from '../../src/machines/dashboard/dashboard.machine'
import {
  activeFilterCount,
  type Filters,
  isValidRange,
  NO_FILTERS,
} from '../../src/machines/dashboard/filters.machine'
import type { ControlledActors } from '../support/graph'
import { describeModel } from '../support/model'

const entry = (id: number, status: string): LogEntry => ({
  id,
  document_id: id,
  type: 'Invoice',
  name: `invoice-${id}.pdf`,
  date: '2026-11-20T10:00:00.000Z',
  status,
  category: 'Invoices',
})
const logs = [entry(1, 'completed'), entry(2, 'processing'), entry(3, 'rejected'), entry(4, 'pending')]
const summary = { total: 6, pending: 2, failed: 1, review: 1 }
// The next page repeats row 4 (it moved down a page between the two requests): it is shown once.
const nextPage = [entry(4, 'pending'), entry(5, 'completed'), entry(6, 'completed')]
type Ctx = {
  filters: Filters
  searchTerm: string
  summary: unknown
  logs: LogEntry[]
  hasMore: boolean
  limit: number
  neighbourAfterMore: { from: { id: number }; direction: number } | null
}
let controls: ControlledActors
const lastCall = (src: string) =>
  controls.calls.filter((c) => c.src === src).at(-1)?.input as { offset: number; limit: number } | undefined

describeModel('dashboard machine', {
  machine: dashboardMachine,
  input: { companyId: 7 },
  actors: ['fetchLogs', 'fetchMore'],
  provide: (machine, c, record) => {
    controls = c
    return machine.provide({
      actions: {
        notifyFailed: (_, p) => record(`notify:${p.searching ? 'search' : 'list'}Failed`),
        moveDetails: (_, p) => record(`move:${p.target ? p.target.id : 'end'}`),
      },
    })
  },
  events: {
    'search.input': [
      { type: 'search.input', term: 'acme' },
      { type: 'search.input', term: '   ' },
    ],
    'summary.toggle': [{ type: 'summary.toggle', status: 'failed' }],
    'review.toggle': [{ type: 'review.toggle' }],
    // The open details move on: answered to the row actions (their own tests follow the answer).
    // From the last row shown while more follow, the next page loads first (J past the rows shown).
    'details.neighbour': [
      { type: 'details.neighbour', from: { kind: 'invoice', id: 1 }, direction: 1 },
      { type: 'details.neighbour', from: { kind: 'invoice', id: 4 }, direction: 1 },
    ],
    'sort.toggle': [{ type: 'sort.toggle', column: 'name' }],
    // What the filter popover's Apply hands over (its own graph tests when it can).
    'filters.applied': [{ type: 'filters.applied', filters: { ...NO_FILTERS, status: 'failed' } }],
    'xstate.done.actor.fetchLogs': [
      // More rows follow the first page; after the next page none do (the guard's false side).
      { type: 'xstate.done.actor.fetchLogs', output: { logs, hasMore: true, summary } },
    ],
    'xstate.done.actor.fetchMore': [
      { type: 'xstate.done.actor.fetchMore', output: { logs: nextPage, hasMore: false } },
    ],
    'xstate.error.actor.fetchMore': [{ type: 'xstate.error.actor.fetchMore', error: new Error('offline') }],
    'xstate.error.actor.fetchLogs': [{ type: 'xstate.error.actor.fetchLogs', error: new Error('offline') }],
  },
  contextKey: (c) => {
    const ctx = c as Ctx
    return {
      searching: ctx.searchTerm.trim() !== '',
      filtered: activeFilterCount(ctx.filters) > 0,
      more: ctx.logs.length > logs.length,
      awaiting: ctx.neighbourAfterMore !== null,
    }
  },
  limit: 12000,
  states: {
    'data.loading': (s) => {
      expect(s.hasTag('loading')).toBe(true)
      // A new query asks for one page; a refresh after "Show more" reloads the rows shown.
      expect(lastCall('fetchLogs')).toMatchObject({ offset: 0, limit: s.context.limit })
      expect([PAGE_SIZE, 6]).toContain(s.context.limit)
    },
    'data.loadingMore': (s) => {
      expect(s.hasTag('loadingMore')).toBe(true)
      expect(lastCall('fetchMore')).toEqual(expect.objectContaining({ offset: 4, limit: PAGE_SIZE }))
      expect(s.context.logs).toHaveLength(4)
      // Only the last row shown, going down, waits for the next page.
      if (s.context.neighbourAfterMore)
        expect(s.context.neighbourAfterMore).toMatchObject({ from: { id: 4 }, direction: 1 })
    },
    'data.debouncing': (s) => expect(s.hasTag('loading')).toBe(false),
    // A live event: the rows shown stay (no busy table) until the settled burst reloads them.
    'data.refreshing': (s) => {
      expect(s.hasTag('loading')).toBe(false)
      expect(s.can({ type: 'live.changed' })).toBe(false)
    },
    'data.ready': (s, log) => {
      const ids = s.context.logs.map((l: LogEntry) => l.id)
      // The first page, or the first and the next without the repeated row.
      expect([
        [1, 2, 3, 4],
        [1, 2, 3, 4, 5, 6],
      ]).toContainEqual(ids)
      expect(s.context.summary).toEqual(summary)
      expect(s.can({ type: 'rows.more' })).toBe(s.context.hasMore)
      expect(s.context.hasMore).toBe(ids.length === 4)
      if (
        log.filter((l) => l.startsWith('notify:')).at(-1) === 'notify:listFailed' &&
        log.at(-1) !== 'move:5'
      )
        expect(ids).toHaveLength(4)
      // A neighbour asked for while the next page loaded is named once it is in (or the list's end).
      expect(s.context.neighbourAfterMore).toBeNull()
      // The answer is the row after the open one in the rows then shown: 2 after 1, 5 after 4 (next page), or the end.
      expect(
        log.filter((l) => l.startsWith('move:')).every((m) => ['move:2', 'move:5', 'move:end'].includes(m)),
      ).toBe(true)
    },
    'data.failed': (s, log) => {
      // (An open row stepping on meanwhile is answered at once: `move:…` may follow the notice.)
      const notice = log.filter((l) => l.startsWith('notify:')).at(-1)
      expect(notice).toBe(s.context.searchTerm.trim() ? 'notify:searchFailed' : 'notify:listFailed')
      expect(s.context.neighbourAfterMore).toBeNull()
      expect(s.can({ type: 'dashboard.retry' })).toBe(true)
    },
  },
})

describe('J past the rows shown', () => {
  it('loads the next page, then names the row after the last one', async () => {
    const moves: (number | null)[] = []
    const actor = createActor(
      dashboardMachine.provide({
        actors: {
          fetchLogs: fromPromise(async () => ({ logs, hasMore: true as boolean, summary })),
          fetchMore: fromPromise(async () => ({ logs: nextPage, hasMore: false as boolean })),
        },
        actions: { moveDetails: (_, p) => moves.push(p.target?.id ?? null) },
      }),
      { input: { companyId: 7 } },
    ).start()
    await waitFor(actor, (s) => s.matches({ data: 'ready' }))
    actor.send({ type: 'details.neighbour', from: { kind: 'invoice', id: 4 }, direction: 1 })
    expect(actor.getSnapshot().matches({ data: 'loadingMore' })).toBe(true)
    await waitFor(actor, (s) => s.matches({ data: 'ready' }))
    expect(moves).toEqual([5])
    // At the true end, the answer is the list's end.
    actor.send({ type: 'details.neighbour', from: { kind: 'invoice', id: 6 }, direction: 1 })
    expect(moves).toEqual([5, null])
    actor.stop()
  })
})

describe('dashboard queries', () => {
  const now = new Date(2026, 10, 25, 15, 30)
  const base = {
    companyId: 1,
    sortBy: 'date' as const,
    sortOrder: 'desc' as const,
    searchTerm: '',
    offset: 0,
    limit: PAGE_SIZE,
  }

  it('sends the status upper-cased by the API, the type as the log type, and the trimmed search term', () => {
    const query = toQuery(
      { ...base, searchTerm: '  acme ', filters: { ...NO_FILTERS, status: 'failed', type: 'invoice' } },
      now,
    )
    expect(query).toEqual({
      sortBy: 'date',
      sortOrder: 'desc',
      offset: 0,
      limit: PAGE_SIZE,
      status: 'failed',
      elementType: 'Invoice',
      searchTerm: 'acme',
    })
  })

  it('turns presets into day bounds or day counts', () => {
    const today = toQuery({ ...base, filters: { ...NO_FILTERS, date: 'today' } }, now)
    expect([today.startDate?.getHours(), today.endDate?.getHours(), today.endDate?.getMinutes()]).toEqual([
      0, 23, 59,
    ])
    const yesterday = toQuery({ ...base, filters: { ...NO_FILTERS, date: 'yesterday' } }, now)
    expect(yesterday.startDate?.getDate()).toBe(24)
    expect(toQuery({ ...base, filters: { ...NO_FILTERS, date: 'lastWeek' } }, now).lastDays).toBe(7)
    expect(toQuery({ ...base, filters: { ...NO_FILTERS, date: 'lastMonth' } }, now).lastDays).toBe(30)
    // The "To review" card asks for the review queue only.
    expect(toQuery({ ...base, filters: { ...NO_FILTERS, review: 'needed' } }, now).review).toBe('needed')
    expect(toQuery({ ...base, filters: NO_FILTERS }, now).review).toBeUndefined()
    const custom = toQuery(
      { ...base, filters: { ...NO_FILTERS, date: 'custom', from: '2026-11-01', to: '2026-11-03' } },
      now,
    )
    expect([custom.startDate?.getDate(), custom.endDate?.getDate(), custom.endDate?.getSeconds()]).toEqual([
      1, 3, 59,
    ])
  })

  it('refuses a custom range whose From is after its To', () => {
    expect(isValidRange({ ...NO_FILTERS, date: 'custom', from: '2026-11-05', to: '2026-11-01' })).toBe(false)
    expect(isValidRange({ ...NO_FILTERS, date: 'custom', from: '2026-11-01', to: '2026-11-01' })).toBe(true)
  })
})

import { expect, it } from 'vitest'
import { type AnyEventObject, createActor, createMachine, SimulatedClock, waitFor } from 'xstate'
import { dashboardMachine, PAGE_SIZE } from '../../../src/machines/dashboard/dashboard.machine'
import {
  type Filters,
  filtersMachine,
  isValidRange,
  NO_FILTERS,
} from '../../../src/machines/dashboard/filters.machine'
import { createControlledActors } from '../../support/graph'
import { describeModel } from '../../support/model'

type Ctx = { filters: Filters; draft: Filters }
const same = (a: Filters, b: Filters) => JSON.stringify(a) === JSON.stringify(b)

/** The dashboard's stand-in: records what the popover hands over. */
let recordOutcome: (entry: string) => void = () => {}
const dashboard = createActor(
  createMachine({
    on: {
      '*': {
        actions: ({ event }: { event: AnyEventObject }) =>
          recordOutcome(
            event.type === 'filters.applied' ? `applied:${JSON.stringify(event.filters)}` : event.type,
          ),
      },
    },
  }),
).start()

describeModel('dashboard filters machine', {
  machine: filtersMachine,
  input: { dashboard },
  actors: [],
  provide: (machine, _controls, record) => {
    recordOutcome = record
    return machine
  },
  events: {
    'filters.open': [{ type: 'filters.open', filters: NO_FILTERS }],
    'filters.edit': [
      { type: 'filters.edit', patch: { status: 'failed' } },
      { type: 'filters.edit', patch: { date: 'custom', from: '2026-11-20', to: '2026-11-01' } },
    ],
  },
  contextKey: (c) => {
    const ctx = c as Ctx
    return { changed: !same(ctx.draft, ctx.filters), valid: isValidRange(ctx.draft) }
  },
  states: {
    closed: (s, log) => {
      expect(s.can({ type: 'filters.apply' })).toBe(false)
      // Only a changed, valid draft reaches the dashboard.
      for (const entry of log.filter((l) => l.startsWith('applied:'))) {
        const applied = JSON.parse(entry.slice('applied:'.length)) as Filters
        expect(isValidRange(applied)).toBe(true)
        expect(applied).not.toEqual(NO_FILTERS)
      }
    },
    open: (s) => {
      const ctx = s.context as Ctx
      expect(s.can({ type: 'filters.apply' })).toBe(!same(ctx.draft, ctx.filters) && isValidRange(ctx.draft))
    },
  },
})

it('runs as the dashboard’s child: opens with the filters in force, and Apply and Reset reload the list', async () => {
  const controls = createControlledActors(['fetchLogs'] as const)
  const parent = createActor(
    dashboardMachine.provide({ actors: { fetchLogs: controls.actors.fetchLogs as never } }),
    {
      input: { companyId: 7 },
      clock: new SimulatedClock(),
    },
  ).start()
  const answer = async () => {
    controls.resolve('fetchLogs', { logs: [], hasMore: false, summary: { total: 0, pending: 0, failed: 0 } })
    await waitFor(parent, (s) => s.matches({ data: 'ready' }))
  }
  const lastQuery = () => controls.calls.at(-1)?.input
  await answer()
  const popover = parent.getSnapshot().children.filters!

  parent.send({ type: 'summary.toggle', status: 'pending' })
  await answer()
  parent.send({ type: 'filters.open' })
  expect(popover.getSnapshot().context.draft).toEqual({ ...NO_FILTERS, status: 'pending' })
  popover.send({ type: 'filters.edit', patch: { type: 'invoice' } })
  popover.send({ type: 'filters.apply' })
  expect(popover.getSnapshot().value).toBe('closed')
  expect(parent.getSnapshot().context.filters).toEqual({ ...NO_FILTERS, status: 'pending', type: 'invoice' })
  expect(lastQuery()).toMatchObject({
    filters: { status: 'pending', type: 'invoice' },
    offset: 0,
    limit: PAGE_SIZE,
  })
  await answer()

  parent.send({ type: 'sort.toggle', column: 'name' })
  await answer()
  parent.send({ type: 'search.input', term: 'acme' })
  parent.send({ type: 'filters.open' })
  expect(popover.getSnapshot().context.draft.type).toBe('invoice')
  popover.send({ type: 'filters.reset' })
  expect(parent.getSnapshot().context).toMatchObject({
    filters: NO_FILTERS,
    sortBy: 'date',
    sortOrder: 'desc',
    searchTerm: '',
  })
  expect(parent.getSnapshot().matches({ data: 'loading' })).toBe(true)
  parent.stop()
})

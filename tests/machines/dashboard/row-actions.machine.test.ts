import { expect, it } from 'vitest'
import { createActor, createMachine, SimulatedClock, waitFor } from 'xstate'
import type { LogEntry } from '../../../contract'
import { dashboardMachine } from '../../../src/machines/dashboard/dashboard.machine'
import { neighbourTarget, rowActionsMachine } from '../../../src/machines/dashboard/row-actions.machine'
import { createControlledActors } from '../../support/graph'
import { describeModel } from '../../support/model'

const entry = (id: number, status: string): LogEntry => ({
  id,
  document_id: id,
  type: 'Invoice',
  name: `invoice-${id}.pdf`,
  date: '2026-11-20T10:00:00.000Z',
  status,
  category: 'Invoices',
})

/** The dashboard's stand-in: records each refresh the row actions ask for. */
let recordRefresh: (entry: string) => void = () => {}
const dashboard = createActor(
  createMachine({
    on: {
      'dashboard.refresh': { actions: () => recordRefresh('refresh') },
      'details.neighbour': {
        actions: ({ event }) =>
          recordRefresh(`neighbour:${event.from.kind}-${event.from.id}:${event.direction}`),
      },
    },
  }),
).start()

describeModel('dashboard row actions machine', {
  machine: rowActionsMachine,
  input: { companyId: 7, dashboard },
  actors: ['deleteRow'],
  provide: (machine, _controls, record) => {
    recordRefresh = record
    return machine.provide({
      actions: {
        notify: (_, p) => record(`notify:${p.notice}${p.value === undefined ? '' : `:${p.value}`}`),
      },
    })
  },
  events: {
    'row.open': [
      { type: 'row.open', log: entry(1, 'completed') },
      { type: 'row.open', log: { ...entry(9, 'completed'), document_id: null } },
      { type: 'row.open', log: { ...entry(8, 'completed'), document_id: 1.5 } },
    ],
    'document.open': [{ type: 'document.open', kind: 'expense', id: 4 }],
    'details.step': [
      { type: 'details.step', direction: 1 },
      { type: 'details.step', direction: -1 },
    ],
    // The dashboard's answer: the neighbour, or none past the end of its list.
    'details.move': [
      { type: 'details.move', target: { kind: 'invoice', id: 2 } },
      { type: 'details.move', target: null },
    ],
    'row.delete': [
      { type: 'row.delete', log: entry(3, 'rejected') },
      { type: 'row.delete', log: entry(2, 'processing') },
    ],
    'xstate.done.actor.deleteRow': [{ type: 'xstate.done.actor.deleteRow', output: undefined }],
    'xstate.error.actor.deleteRow': [{ type: 'xstate.error.actor.deleteRow', error: new Error('forbidden') }],
  },
  states: {
    idle: (s, log) => {
      expect(s.context.toDelete).toBeNull()
      expect(s.context.detail).toBeNull()
      const last = log.filter((l) => /^notify:(invalid|document|delete|review)/.test(l)).at(-1)
      // Past the end of the list, the details stay closed and the list reloads.
      if (last === 'notify:reviewEnd') expect(log.at(-1)).toBe('refresh')
      if (last?.startsWith('notify:invalidDocumentIdFormat'))
        expect(last).toBe('notify:invalidDocumentIdFormat:1.5')
      // A deletion that went through reloads the dashboard's list; one the server refused does not.
      log.forEach((l, i) => {
        if (l === 'notify:documentDeleted') expect(log[i + 1]).toBe('refresh')
        if (l === 'notify:deleteFailed') expect(log[i + 1]).not.toBe('refresh')
      })
      // A row still processing never reaches the confirmation.
      expect(s.can({ type: 'row.delete', log: entry(2, 'processing') })).toBe(false)
    },
    // A row's own details, a document named elsewhere (a duplicate's earlier one, an upload), or the
    // neighbour the dashboard named (the list then reloads: the row moved on from may have changed).
    viewing: (s, log) => {
      expect([
        { kind: 'invoice', id: 1 },
        { kind: 'expense', id: 4 },
        { kind: 'invoice', id: 2 },
      ]).toContainEqual(s.context.detail)
      if (s.context.detail.id === 2) expect(log.at(-1)).toBe('refresh')
    },
    // The dashboard is asked for the neighbour of the open row, in the direction pressed.
    stepping: (s, log) =>
      expect(log.at(-1)).toMatch(
        new RegExp(`^neighbour:${s.context.detail.kind}-${s.context.detail.id}:(1|-1)$`),
      ),
    confirmingDelete: (s) => expect(s.context.toDelete?.id).toBe(3),
    deleting: (s) => expect(s.hasTag('deleting')).toBe(true),
  },
})

it('runs as the dashboard’s child: deletes in the dashboard’s company, and closing the details or a deletion reloads the list', async () => {
  const controls = createControlledActors(['fetchLogs', 'deleteRow'] as const)
  const page = { logs: [entry(1, 'completed'), entry(3, 'rejected')], hasMore: false }
  const parent = createActor(
    dashboardMachine.provide({
      actors: {
        fetchLogs: controls.actors.fetchLogs as never,
        rowActions: rowActionsMachine.provide({ actors: { deleteRow: controls.actors.deleteRow as never } }),
      },
    }),
    { input: { companyId: 7 }, clock: new SimulatedClock() },
  ).start()
  const loads = () => controls.calls.filter((c) => c.src === 'fetchLogs').length
  const answer = async () => {
    controls.resolve('fetchLogs', { ...page, summary: { total: 2, pending: 0, failed: 0 } })
    await waitFor(parent, (s) => s.matches({ data: 'ready' }))
  }
  await answer()
  const rowActions = parent.getSnapshot().children.rowActions!
  expect(rowActions.getSnapshot().context.companyId).toBe(7)

  rowActions.send({ type: 'row.open', log: entry(1, 'completed') })
  expect(parent.getSnapshot().matches({ data: 'ready' })).toBe(true)
  rowActions.send({ type: 'details.close' })
  expect(parent.getSnapshot().matches({ data: 'loading' })).toBe(true)
  expect(loads()).toBe(2)
  await answer()

  rowActions.send({ type: 'row.delete', log: entry(3, 'rejected') })
  rowActions.send({ type: 'delete.confirm' })
  expect(controls.calls.at(-1)).toMatchObject({ src: 'deleteRow', input: { companyId: 7, log: { id: 3 } } })
  controls.resolve('deleteRow', undefined)
  await waitFor(parent, (s) => s.matches({ data: 'loading' }))
  expect(loads()).toBe(3)
  await answer()

  // A refused deletion leaves the list as it is.
  rowActions.send({ type: 'row.delete', log: entry(3, 'rejected') })
  rowActions.send({ type: 'delete.confirm' })
  controls.reject('deleteRow', new Error('forbidden'))
  await waitFor(rowActions, (s) => s.matches('idle'))
  expect(parent.getSnapshot().matches({ data: 'ready' })).toBe(true)
  expect(loads()).toBe(3)
  parent.stop()
})

it('names the neighbour of a row in the list order, skipping rows without details, none past either end', () => {
  const rows: LogEntry[] = [
    entry(1, 'completed'),
    { ...entry(5, 'completed'), type: 'Document' },
    entry(3, 'rejected'),
  ]
  expect(neighbourTarget(rows, { kind: 'invoice', id: 1 }, 1)).toEqual({ kind: 'invoice', id: 3 })
  expect(neighbourTarget(rows, { kind: 'invoice', id: 3 }, -1)).toEqual({ kind: 'invoice', id: 1 })
  expect(neighbourTarget(rows, { kind: 'invoice', id: 3 }, 1)).toBeNull()
  expect(neighbourTarget(rows, { kind: 'invoice', id: 1 }, -1)).toBeNull()
  // A row no longer in the list (a reload took it out) has no neighbour.
  expect(neighbourTarget(rows, { kind: 'expense', id: 1 }, 1)).toBeNull()
})

it('moves the open details along the dashboard’s rows, and closes them past the end', async () => {
  const controls = createControlledActors(['fetchLogs'] as const)
  const parent = createActor(
    dashboardMachine.provide({ actors: { fetchLogs: controls.actors.fetchLogs as never } }),
    { input: { companyId: 7 }, clock: new SimulatedClock() },
  ).start()
  controls.resolve('fetchLogs', {
    logs: [entry(1, 'completed'), entry(3, 'rejected')],
    hasMore: false,
    summary: { total: 2, pending: 0, failed: 1, review: 1 },
  })
  await waitFor(parent, (s) => s.matches({ data: 'ready' }))
  const rowActions = parent.getSnapshot().children.rowActions!
  rowActions.send({ type: 'row.open', log: entry(1, 'completed') })
  rowActions.send({ type: 'details.step', direction: 1 })
  expect(rowActions.getSnapshot().context.detail).toEqual({ kind: 'invoice', id: 3 })
  expect(rowActions.getSnapshot().value).toBe('viewing')
  // The list reloads while the next details are open: a step meanwhile still uses the rows shown.
  expect(parent.getSnapshot().matches({ data: 'loading' })).toBe(true)
  rowActions.send({ type: 'details.step', direction: -1 })
  expect(rowActions.getSnapshot().context.detail).toEqual({ kind: 'invoice', id: 1 })
  rowActions.send({ type: 'details.step', direction: -1 })
  expect(rowActions.getSnapshot().value).toBe('idle')
  expect(rowActions.getSnapshot().context.detail).toBeNull()
  parent.stop()
})

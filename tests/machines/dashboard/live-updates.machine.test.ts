import { expect, it } from 'vitest'
import { type AnyEventObject, createActor, createMachine, SimulatedClock, waitFor } from 'xstate'
import { createEventsApi, type EventSourceLike } from '../../../src/api/events'
import { createDashboardImplementations } from '../../../src/machines/dashboard/dashboard.implementations'
import { liveUpdatesMachine } from '../../../src/machines/dashboard/live-updates.machine'
import { describeModel } from '../../support/model'

/** The dashboard's stand-in: records what the live updates tell it. */
let recordDashboard: (entry: string) => void = () => {}
const dashboard = createActor(
  createMachine({
    on: { '*': { actions: ({ event }: { event: AnyEventObject }) => recordDashboard(event.type) } },
  }),
).start()

const added = { type: 'document.added', document_id: 5, status: 'PROCESSING' } as const

describeModel('dashboard live updates machine', {
  machine: liveUpdatesMachine,
  input: { companyId: 7, dashboard },
  // The stream and the presence are callback actors; here silent stand-ins, their events sent by the paths.
  actors: ['eventStream', 'liveStatus'],
  provide: (machine, _controls, record) => {
    recordDashboard = record
    return machine.provide({
      actions: { tellUploads: (_, p) => record(`uploads:${p.companyId}:${p.documentId}`) },
    })
  },
  events: { 'stream.event': [{ type: 'stream.event', event: added }] },
  contextKey: (c) => ({ hasBeenDown: (c as { attempts: number }).attempts > 0 }),
  states: {
    'open.connecting': (s) => {
      expect(s.hasTag('live')).toBe(false)
      expect(s.children.stream).toBeDefined()
      expect(s.children.presence).toBeUndefined()
    },
    'open.live': (s, log) => {
      expect(s.hasTag('live')).toBe(true)
      expect(s.children.presence).toBeDefined()
      expect(s.context.attempts).toBe(0)
      // An event reloads the rows and tells the queue which document; it comes only while live.
      const last = log.at(-1)
      if (last?.startsWith('uploads:')) expect(log.at(-2)).toBe('live.changed')
      if (last?.startsWith('uploads:')) expect(last).toBe('uploads:7:5')
    },
    down: (s) => {
      expect(s.hasTag('live')).toBe(false)
      expect(s.children.stream).toBeUndefined()
      expect(s.children.presence).toBeUndefined()
      expect(s.context.attempts).toBeGreaterThan(0)
    },
  },
})

/** A controllable EventSource: the test opens, fails and feeds it. */
function fakeEventSources() {
  const opened: (EventSourceLike & { url: string; closed: boolean })[] = []
  return {
    opened,
    open: (url: string) => {
      const source = { url, closed: false, onopen: null, onmessage: null, onerror: null, close: () => {} }
      source.close = () => {
        source.closed = true
      }
      opened.push(source)
      return source
    },
    last: () => opened.at(-1)!,
  }
}

it('reloads the dashboard on an event, tells the upload queue, and reconnects with a back-off', async () => {
  const sources = fakeEventSources()
  const toQueue: AnyEventObject[] = []
  let fetches = 0
  const { dashboard: machine } = createDashboardImplementations({
    api: {
      logs: {
        list: async () => {
          fetches++
          return { logs: [], hasMore: false }
        },
        summary: async () => ({ total: 0, pending: 0, failed: 0 }),
        remove: async () => undefined,
      },
    } as never,
    notify: () => {},
    uploads: {
      on: () => ({ unsubscribe: () => {} }),
      send: (e: AnyEventObject) => void toQueue.push(e),
    } as never,
    events: createEventsApi({ url: (path) => `/api/${path}` }, sources.open),
  })
  const clock = new SimulatedClock()
  const board = createActor(machine, { input: { companyId: 7 }, clock }).start()
  await waitFor(board, (s) => s.matches({ data: 'ready' }))
  const live = () => board.getSnapshot().children.live!
  expect(sources.last().url).toBe('/api/events?company_id=7')
  expect(live().getSnapshot().value).toEqual({ open: 'connecting' })
  expect(toQueue).toEqual([])

  sources.last().onopen?.(new Event('open'))
  expect(live().getSnapshot().hasTag('live')).toBe(true)
  expect(toQueue).toEqual([{ type: 'live.up', companyId: 7 }])

  // An event: the queue hears which document; the rows reload once the burst settles (300 ms).
  const message = (data: unknown) => new MessageEvent('message', { data: JSON.stringify(data) })
  const before = fetches
  sources.last().onmessage?.(message(added))
  sources.last().onmessage?.(message({ ...added, type: 'document.status', status: 'COMPLETED' }))
  sources.last().onmessage?.(message({ nonsense: true }))
  expect(toQueue.slice(1)).toEqual([
    { type: 'document.changed', companyId: 7, documentId: 5 },
    { type: 'document.changed', companyId: 7, documentId: 5 },
  ])
  expect(board.getSnapshot().matches({ data: 'refreshing' })).toBe(true)
  clock.increment(300)
  await waitFor(board, (s) => s.matches({ data: 'ready' }))
  expect(fetches).toBe(before + 1)

  // The stream fails: closed, the queue polls again, and it opens again after 1 s, then 2 s.
  sources.last().onerror?.(new Event('error'))
  expect(sources.last().closed).toBe(true)
  expect(toQueue.at(-1)).toEqual({ type: 'live.down', companyId: 7 })
  expect(live().getSnapshot().value).toBe('down')
  clock.increment(999)
  expect(sources.opened).toHaveLength(1)
  clock.increment(1)
  expect(sources.opened).toHaveLength(2)
  sources.last().onerror?.(new Event('error'))
  clock.increment(1999)
  expect(sources.opened).toHaveLength(2)
  clock.increment(1)
  expect(sources.opened).toHaveLength(3)
  // Back: the rows reload (events may have been missed), the queue stops polling this company.
  const beforeReturn = fetches
  sources.last().onopen?.(new Event('open'))
  expect(toQueue.at(-1)).toEqual({ type: 'live.up', companyId: 7 })
  clock.increment(300)
  await waitFor(board, (s) => s.matches({ data: 'ready' }))
  expect(fetches).toBe(beforeReturn + 1)

  // The dashboard goes away: the stream closes and the queue polls again.
  board.stop()
  expect(sources.last().closed).toBe(true)
  expect(toQueue.at(-1)).toEqual({ type: 'live.down', companyId: 7 })
})

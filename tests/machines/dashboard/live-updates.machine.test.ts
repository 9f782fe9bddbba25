import { expect, it, vi } from 'vitest'
import { type AnyEventObject, createActor, createMachine, SimulatedClock, waitFor } from 'xstate'
import { createEventsApi, type EventSourceLike } from '../../../src/api/events'
import { createDashboardImplementations } from '../../../src/machines/dashboard/dashboard.implementations'
import { createLiveUpdatesMachine } from '../../../src/machines/dashboard/live-updates.implementations'
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

const message = (data: unknown) => new MessageEvent('message', { data: JSON.stringify(data) })

it('runs beside the dashboard once loaded: reloads its rows on an event and tells the upload queue', async () => {
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
    events: async () => createEventsApi({ url: (path) => `/api/${path}` }, sources.open),
  })
  const board = createActor(machine, { input: { companyId: 7 } }).start()
  await waitFor(board, (s) => s.matches({ data: 'ready' }))
  await vi.waitFor(() => expect(sources.opened).toHaveLength(1))
  expect(sources.last().url).toBe('/api/events?company_id=7')
  expect(toQueue).toEqual([])

  sources.last().onopen?.(new Event('open'))
  expect(toQueue).toEqual([{ type: 'live.up', companyId: 7 }])
  // Two events and a stray message: the queue hears the document twice; the rows reload once.
  const before = fetches
  sources.last().onmessage?.(message(added))
  sources.last().onmessage?.(message({ ...added, type: 'document.status', status: 'COMPLETED' }))
  sources.last().onmessage?.(message({ nonsense: true }))
  expect(toQueue.slice(1)).toEqual([
    { type: 'document.changed', companyId: 7, documentId: 5 },
    { type: 'document.changed', companyId: 7, documentId: 5 },
  ])
  expect(board.getSnapshot().matches({ data: 'refreshing' })).toBe(true)
  await waitFor(board, (s) => s.matches({ data: 'ready' }))
  expect(fetches).toBe(before + 1)

  // The dashboard goes away: the stream closes and the queue polls again.
  board.stop()
  await vi.waitFor(() => expect(sources.last().closed).toBe(true))
  expect(toQueue.at(-1)).toEqual({ type: 'live.down', companyId: 7 })
})

it('reconnects after 1 s, then 2 s…, and reloads the rows once back', () => {
  const sources = fakeEventSources()
  const toQueue: AnyEventObject[] = []
  const told: string[] = []
  recordDashboard = (entry) => told.push(entry)
  const clock = new SimulatedClock()
  const live = createActor(
    createLiveUpdatesMachine({
      events: createEventsApi({ url: (path) => `/api/${path}` }, sources.open),
      uploads: { send: (e: AnyEventObject) => void toQueue.push(e) } as never,
    }),
    { input: { companyId: 7, dashboard }, clock },
  ).start()
  sources.last().onopen?.(new Event('open'))
  expect(told).toEqual([])
  sources.last().onerror?.(new Event('error'))
  expect(sources.last().closed).toBe(true)
  expect(toQueue.at(-1)).toEqual({ type: 'live.down', companyId: 7 })
  expect(live.getSnapshot().value).toBe('down')
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
  sources.last().onopen?.(new Event('open'))
  expect(told).toEqual(['live.changed'])
  expect(toQueue.at(-1)).toEqual({ type: 'live.up', companyId: 7 })
  live.stop()
})

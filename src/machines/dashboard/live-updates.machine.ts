/**
 * The dashboard's live updates: `open.connecting` (the company's event stream opens) → `open.live`
 * (each event reloads the dashboard's rows and tells the upload queue which document changed; the
 * queue stops polling this company's uploads while `live` lasts) → on an error `down` → after a
 * back-off (1 s, doubling up to 30 s) `open` again. A return to `live` after `down` reloads the rows:
 * events may have been missed meanwhile.
 * - `stream` (`eventStream`): the EventSource, sending `stream.open`, `stream.event`, `stream.error`.
 * - `presence` (`liveStatus`): tells the upload queue the stream is up as it starts, and down as it
 *   stops (state left, or the dashboard gone).
 */
import { type ActorRef, assign, fromCallback, type Snapshot, sendTo, setup } from 'xstate'
import type { LiveEvent } from '../../../contract/live-events'

export type LiveUpdatesEvent =
  | { type: 'stream.open' }
  | { type: 'stream.event'; event: LiveEvent }
  | { type: 'stream.error' }

/** What the dashboard hears: a document of its company changed (or events may have been missed). */
export type LiveChanged = { type: 'live.changed' }

export type LiveUpdatesInput = {
  companyId: number
  dashboard: ActorRef<Snapshot<unknown>, LiveChanged>
}

type Context = LiveUpdatesInput & { attempts: number }

const FIRST_RETRY_MS = 1000
const LAST_RETRY_MS = 30_000

export const liveUpdatesMachine = setup({
  types: {
    context: {} as Context,
    events: {} as LiveUpdatesEvent,
    input: {} as LiveUpdatesInput,
    children: {} as { stream: 'eventStream'; presence: 'liveStatus' },
  },
  actors: {
    eventStream: fromCallback<LiveUpdatesEvent, { companyId: number }>(() => undefined),
    liveStatus: fromCallback<LiveUpdatesEvent, { companyId: number }>(() => undefined),
  },
  actions: {
    refreshDashboard: sendTo(({ context }) => context.dashboard, { type: 'live.changed' } as LiveChanged),
    /** Tells the upload queue that a document of the company changed (its upload may have ended). */
    tellUploads: (_, _params: { companyId: number; documentId: number }) => {},
  },
  guards: {
    hasBeenDown: ({ context }) => context.attempts > 0,
  },
  delays: {
    backoff: ({ context }) => Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** (context.attempts - 1)),
  },
}).createMachine({
  id: 'liveUpdates',
  context: ({ input }) => ({ ...input, attempts: 0 }),
  initial: 'open',
  states: {
    open: {
      invoke: {
        id: 'stream',
        src: 'eventStream',
        input: ({ context }) => ({ companyId: context.companyId }),
      },
      on: { 'stream.error': 'down' },
      initial: 'connecting',
      states: {
        connecting: {
          on: {
            'stream.open': [
              {
                guard: 'hasBeenDown',
                target: 'live',
                actions: 'refreshDashboard',
                description: 'Back after a failure: events may have been missed, the rows reload.',
              },
              { target: 'live' },
            ],
          },
        },
        live: {
          tags: ['live'],
          entry: assign({ attempts: 0 }),
          invoke: {
            id: 'presence',
            src: 'liveStatus',
            input: ({ context }) => ({ companyId: context.companyId }),
          },
          on: {
            'stream.event': {
              actions: [
                'refreshDashboard',
                {
                  type: 'tellUploads',
                  params: ({ context, event }) => ({
                    companyId: context.companyId,
                    documentId: event.event.document_id,
                  }),
                },
              ],
            },
          },
        },
      },
    },
    down: {
      entry: assign({ attempts: ({ context }) => context.attempts + 1 }),
      after: { backoff: 'open' },
      description: 'The stream failed: it opens again after 1 s, then 2, 4… up to 30 s between tries.',
    },
  },
})

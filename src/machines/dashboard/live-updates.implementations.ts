/**
 * The live updates' machine filled from the events API and the upload queue, in the chunk the
 * dashboard loads once it runs: the stream is the API's EventSource, the presence tells the queue
 * the company's stream is up (and down as it ends), and each event names its document to the queue.
 */
import { createActor, fromCallback, type InspectionEvent } from 'xstate'
import type { EventsApi } from '../../api/events'
import type { UploadQueueActor } from '../uploads/upload-queue.machine'
import { type LiveUpdatesEvent, type LiveUpdatesInput, liveUpdatesMachine } from './live-updates.machine'

export type LiveUpdatesDeps = { events: EventsApi; uploads?: Pick<UploadQueueActor, 'send'> | undefined }

export function createLiveUpdatesMachine({ events, uploads }: LiveUpdatesDeps) {
  return liveUpdatesMachine.provide({
    actors: {
      eventStream: fromCallback<LiveUpdatesEvent, { companyId: number }>(({ sendBack, input }) => {
        try {
          return events.listen(input.companyId, {
            open: () => sendBack({ type: 'stream.open' }),
            event: (event) => sendBack({ type: 'stream.event', event }),
            error: () => sendBack({ type: 'stream.error' }),
          })
        } catch {
          // No EventSource in this browser: as if the stream failed (the queue keeps polling).
          sendBack({ type: 'stream.error' })
          return undefined
        }
      }),
      liveStatus: fromCallback<LiveUpdatesEvent, { companyId: number }>(({ input }) => {
        uploads?.send({ type: 'live.up', companyId: input.companyId })
        return () => uploads?.send({ type: 'live.down', companyId: input.companyId })
      }),
    },
    actions: {
      tellUploads: (_, { companyId, documentId }) =>
        uploads?.send({ type: 'document.changed', companyId, documentId }),
    },
  })
}

/**
 * Starts the live updates of `input.companyId` beside the dashboard (the dashboard's `live` actor
 * loads this chunk and calls it); the answer stops them. No events API: nothing runs, the queue polls.
 */
export async function runLiveUpdates(
  input: LiveUpdatesInput,
  deps: {
    events: () => Promise<EventsApi>
    uploads?: Pick<UploadQueueActor, 'send'> | undefined
    inspect?: ((event: InspectionEvent) => void) | undefined
  },
): Promise<() => void> {
  const events = await deps.events()
  const actor = createActor(createLiveUpdatesMachine({ events, uploads: deps.uploads }), {
    input,
    ...(deps.inspect ? { inspect: deps.inspect } : {}),
  }).start()
  return () => actor.stop()
}

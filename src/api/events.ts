/**
 * The live events of a company's documents: GET /events?company_id=… as Server-Sent Events, read
 * with the browser's EventSource (or a stand-in given to `createApi`, as tests do). An event that
 * is not a `LiveEvent` is dropped.
 */
import * as v from 'valibot'
import { LiveEvent } from '../../contract/live-events'
import type { Http } from './http'

/** The part of an EventSource the app uses. */
export type EventSourceLike = {
  onopen: ((event: Event) => void) | null
  onmessage: ((event: MessageEvent<string>) => void) | null
  onerror: ((event: Event) => void) | null
  close(): void
}
export type OpenEventSource = (url: string) => EventSourceLike

export type LiveListener = {
  open(): void
  event(event: LiveEvent): void
  /** The stream failed or closed: nothing more comes from it. */
  error(): void
}

const browserEventSource: OpenEventSource = (url) => new EventSource(url)

function parse(data: string): LiveEvent | null {
  try {
    const result = v.safeParse(LiveEvent, JSON.parse(data))
    return result.success ? result.output : null
  } catch {
    return null
  }
}

export function createEventsApi(http: Pick<Http, 'url'>, open: OpenEventSource = browserEventSource) {
  return {
    /** Opens the company's stream; the answer closes it. */
    listen(companyId: number, listener: LiveListener): () => void {
      const source = open(`${http.url('events')}?company_id=${companyId}`)
      source.onopen = () => listener.open()
      source.onmessage = (message) => {
        const event = parse(message.data)
        if (event) listener.event(event)
      }
      source.onerror = () => listener.error()
      return () => source.close()
    },
  }
}
export type EventsApi = ReturnType<typeof createEventsApi>

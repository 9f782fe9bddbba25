/**
 * The live events of this process: one LISTEN on the document events' channel, whatever the number
 * of open streams, fanned out in memory to the subscribers of the event's company only. The
 * connection opens with the first subscriber and closes with the last. On PostgreSQL it is a client
 * of its own beside the pool (a LISTEN holds its connection); the embedded database listens in
 * process. Notifications come from any process on the database (separate workers included).
 */

import pg from 'pg'
import type { Logger } from 'pino'
import { type AppDatabase, embeddedClient } from '../../db/client.ts'
import { type CompanyEvent, DOCUMENT_EVENTS_CHANNEL, parseDocumentEvent } from './document-events.ts'

type Subscriber = {
  event(event: CompanyEvent): void
  /** The listening connection was lost: the subscriber may have missed events. */
  lost(): void
}

export interface EventHub {
  /** Resolves once the subscriber receives every later event of `companyId`; returns the unsubscribe. */
  subscribe(companyId: number, subscriber: Subscriber): Promise<() => void>
}

type Stop = () => Promise<void>

/** LISTEN on `channel` until the returned stop; `lost` when the connection drops. */
async function listen(
  db: AppDatabase,
  channel: string,
  onPayload: (payload: string) => void,
  lost: (error: Error) => void,
): Promise<Stop> {
  const embedded = embeddedClient(db)
  if (embedded) {
    const unlisten = await embedded.listen(channel, onPayload)
    return () => unlisten().catch(() => {})
  }
  const pool = (db as unknown as { $client: pg.Pool }).$client
  const client = new pg.Client(pool.options)
  client.on('notification', (message) => {
    if (message.channel === channel && message.payload !== undefined) onPayload(message.payload)
  })
  client.on('error', lost)
  client.on('end', () => lost(new Error('connection ended')))
  await client.connect()
  await client.query(`LISTEN ${channel}`)
  return async () => {
    client.removeAllListeners('end')
    client.removeAllListeners('error')
    client.on('error', () => {})
    await client.end().catch(() => {})
  }
}

export function createEventHub({ db, logger }: { db: AppDatabase; logger: Logger }): EventHub {
  const subscribers = new Map<number, Set<Subscriber>>()
  let connection: Promise<Stop> | null = null
  const count = () => [...subscribers.values()].reduce((n, set) => n + set.size, 0)

  const deliver = (payload: string) => {
    const event = parseDocumentEvent(payload)
    if (!event) return
    for (const subscriber of subscribers.get(event.company_id) ?? []) subscriber.event(event)
  }

  const close = () => {
    const stopping = connection
    connection = null
    void stopping?.then((stop) => stop()).catch(() => {})
  }

  const onLost = (error: Error) => {
    logger.warn({ err: error }, 'live events: the listening connection was lost')
    close()
    const all = [...subscribers.values()].flatMap((set) => [...set])
    subscribers.clear()
    for (const subscriber of all) subscriber.lost()
  }

  return {
    async subscribe(companyId, subscriber) {
      let set = subscribers.get(companyId)
      if (!set) {
        set = new Set()
        subscribers.set(companyId, set)
      }
      set.add(subscriber)
      const unsubscribe = () => {
        const current = subscribers.get(companyId)
        if (!current?.delete(subscriber)) return
        if (current.size === 0) subscribers.delete(companyId)
        if (count() === 0) close()
      }
      connection ??= listen(db, DOCUMENT_EVENTS_CHANNEL, deliver, onLost)
      const opening = connection
      try {
        await opening
      } catch (error) {
        if (connection === opening) connection = null
        unsubscribe()
        throw error
      }
      return unsubscribe
    },
  }
}

/**
 * A company's document events across processes: the document service announces each change with
 * `pg_notify` in the transaction that writes it (so it is delivered on commit, and never for a
 * change rolled back), on one channel that every web process listens to (see event-hub.ts).
 */
import { sql } from 'drizzle-orm'
import * as v from 'valibot'
import { Id } from '../../../contract/index.ts'
import { LiveEvent } from '../../../contract/live-events.ts'
import type { AppDatabase } from '../../db/client.ts'

export const DOCUMENT_EVENTS_CHANNEL = 'document_events'

/** A live event with the company it belongs to (the payload of one notification). */
export type CompanyEvent = LiveEvent & { company_id: number }

const CompanyEvent = v.object({ ...LiveEvent.entries, company_id: Id })

type Executor = Pick<AppDatabase, 'execute'>

/** Notifies the listeners when `tx` commits. */
export async function announceDocumentEvent(tx: Executor, event: CompanyEvent): Promise<void> {
  await tx.execute(sql`select pg_notify(${DOCUMENT_EVENTS_CHANNEL}, ${JSON.stringify(event)})`)
}

/** A notification's payload read back; null when it is not one of ours. */
export function parseDocumentEvent(payload: string): CompanyEvent | null {
  try {
    const result = v.safeParse(CompanyEvent, JSON.parse(payload))
    return result.success ? result.output : null
  } catch {
    return null
  }
}

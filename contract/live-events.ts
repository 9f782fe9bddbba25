/**
 * The live updates of a company's documents (`GET /api/events?company_id=…`, Server-Sent Events):
 * each event's `data` is one `LiveEvent` as JSON. `status` is the document's status after the
 * change (null once it is deleted). `document.confirmed`: a user confirmed the document as it is
 * (its status stays; it leaves the review queue).
 */
import * as v from 'valibot'
import { Id } from './common.ts'
import { DOCUMENT_STATUSES } from './documents.ts'

const LIVE_EVENT_TYPES = [
  'document.added',
  'document.status',
  'document.corrected',
  'document.confirmed',
  'document.deleted',
] as const

export const LiveEvent = v.object({
  type: v.picklist(LIVE_EVENT_TYPES),
  document_id: Id,
  status: v.nullable(v.picklist(DOCUMENT_STATUSES)),
})
export type LiveEvent = v.InferOutput<typeof LiveEvent>

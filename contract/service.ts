/** What the service itself answers: its health. Only the server imports this module. */
import * as v from 'valibot'

/** `GET /health`: 200 `{status: 'ok'}` once ready; 503 with a message when the database does not answer. */
export const HealthAnswer = v.object({
  status: v.picklist(['ok', 'unavailable']),
  message: v.optional(v.string()),
})

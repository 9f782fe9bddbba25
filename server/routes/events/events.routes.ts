/**
 * `GET /events?company_id=…`: the live updates of one company's documents as Server-Sent Events,
 * for its members only (cookie or bearer token; 404 for a company the user does not belong to).
 * Each event's `data` is `{type, document_id, status}` (contract/live-events.ts); a comment every
 * EVENTS_HEARTBEAT_SECONDS keeps proxies from closing an idle stream. At each one the user's
 * membership is read again: a user removed from the company, or disabled, hears nothing more.
 * The stream ends when the process's listening connection is lost (the client reconnects and
 * reloads what it shows, having perhaps missed events), and when the process stops (`close`, so
 * that the HTTP server's graceful close is not held up by streams that never end).
 */
import { and, eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import * as v from 'valibot'
import { IdParam } from '../../../contract/index.ts'
import type { LiveEvent } from '../../../contract/live-events.ts'
import { users } from '../../db/schema.ts'
import { requireUser } from '../../http/auth.ts'
import { type CompanyEnv, findCompanyAccess, requireCompanyMember } from '../../http/company-access.ts'
import type { RouteDeps } from '../../http/context.ts'
import { HttpError } from '../../http/errors.ts'
import { describe, documentedInput } from '../../http/openapi.ts'
import { createEventHub } from '../../services/events/event-hub.ts'

export function eventRoutes({ db, sessions, config, logger }: RouteDeps) {
  const hub = createEventHub({ db, logger })
  const heartbeatMs = config.eventsHeartbeatSeconds * 1000
  const open = new Set<() => void>()
  let closing = false

  const stillMember = async (user: CompanyEnv['Variables']['user'], companyId: number) => {
    const [current] = await db
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(and(eq(users.id, user.id), eq(users.enabled, true)))
    return current !== undefined && (await findCompanyAccess(db, current, companyId)) !== null
  }

  const routes = new Hono<CompanyEnv>().use('/events', requireUser(sessions)).get(
    '/events',
    describe({
      tags: ['Documents'],
      summary: "The company's document events as Server-Sent Events",
      responses: {
        200: {
          description:
            "text/event-stream: each event's data is JSON `{type, document_id, status}`, type one of document.added, document.status, document.corrected, document.confirmed, document.deleted; a comment line at least every 30 s",
          content: { 'text/event-stream': { schema: { type: 'string' as const } } },
        },
      },
    }),
    documentedInput('query', v.object({ company_id: IdParam })),
    requireCompanyMember(db, { fromBody: false }),
    async (c) => {
      const { companyId } = c.var.company
      const user = c.var.user
      // Subscribed before the answer starts: nothing committed after the client sees it open is missed.
      const pending: LiveEvent[] = []
      let deliver = (event: LiveEvent) => void pending.push(event)
      let end = () => {}
      const ended = new Promise<void>((resolve) => {
        end = resolve
      })
      if (closing) throw new HttpError(503, 'The server is stopping')
      open.add(end)
      const unsubscribe = await hub.subscribe(companyId, {
        event: ({ type, document_id, status }) => deliver({ type, document_id, status }),
        lost: () => end(),
      })
      return streamSSE(c, async (stream) => {
        stream.onAbort(() => end())
        let writing = Promise.resolve()
        deliver = (event) => {
          writing = writing.then(() => stream.writeSSE({ data: JSON.stringify(event) })).catch(() => end())
        }
        try {
          await stream.write(': live\n\n')
          for (const event of pending.splice(0)) deliver(event)
          while (!stream.aborted) {
            let timer: NodeJS.Timeout | undefined
            const beat = new Promise<'beat'>((resolve) => {
              timer = setTimeout(() => resolve('beat'), heartbeatMs)
            })
            const outcome = await Promise.race([beat, ended.then(() => 'ended' as const)])
            clearTimeout(timer)
            if (outcome === 'ended' || !(await stillMember(user, companyId))) break
            await writing
            await stream.write(': keep-alive\n\n')
          }
        } finally {
          open.delete(end)
          unsubscribe()
          await writing
        }
      })
    },
  )
  /** Ends every open stream and refuses new ones (the process is stopping). */
  const close = () => {
    closing = true
    for (const end of open) end()
  }
  return Object.assign(routes, { close })
}

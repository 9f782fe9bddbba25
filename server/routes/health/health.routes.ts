import { sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { HealthAnswer } from '../../../contract/service.ts'
import type { AppDatabase } from '../../db/client.ts'
import type { AppEnv } from '../../http/context.ts'
import { describe, json } from '../../http/openapi.ts'

/** A database check younger than this is reused: health never waits behind queued queries. */
const HEALTH_CHECK_EVERY_MS = 2000
/** A check still unanswered after this long makes the server unhealthy. */
const HEALTH_CHECK_STALLED_MS = 30_000

/**
 * Whether the database answers, from a recent check (`select 1`) rather than one per request:
 * under load a query waits its turn (PGlite runs one statement at a time), and health must answer
 * at once. A request finding the last check older than HEALTH_CHECK_EVERY_MS starts a new one in
 * the background; only the very first request waits for its check.
 */
function createDatabaseCheck(db: AppDatabase, now: () => number = () => performance.now()) {
  let last: { ok: boolean; at: number } | null = null
  let running: { since: number; done: Promise<void> } | null = null
  const start = () => {
    const since = now()
    const done = db
      .execute(sql`select 1`)
      .then(
        () => true,
        () => false,
      )
      .then((ok) => {
        last = { ok, at: now() }
        running = null
      })
    running = { since, done }
    return done
  }
  return async (): Promise<boolean> => {
    if (!last) await (running?.done ?? start())
    else if (!running && now() - last.at >= HEALTH_CHECK_EVERY_MS) void start()
    if (running && now() - running.since > HEALTH_CHECK_STALLED_MS) return false
    return last?.ok ?? false
  }
}

/**
 * Mounted only once migrations have run: 200 means "ready, and the database answered within the
 * last few seconds"; 503 when its last check failed or has been waiting for 30 s.
 */
export function healthRoutes(db: AppDatabase) {
  const databaseAnswers = createDatabaseCheck(db)
  const answer = json(HealthAnswer)
  const described = describe({
    tags: ['Service'],
    summary: 'Ready, and the database answered within the last few seconds',
    responses: { 200: answer, 503: { ...answer, description: 'The database does not answer' } },
  })
  return new Hono<AppEnv>().get('/health', described, async (c) =>
    (await databaseAnswers())
      ? c.json({ status: 'ok' as const })
      : c.json({ status: 'unavailable' as const, message: 'The database does not answer' }, 503),
  )
}

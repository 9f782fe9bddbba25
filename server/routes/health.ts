import { Hono } from 'hono'
import type { AppEnv } from '../http/context.ts'

/** Mounted only once migrations have run, so 200 means "ready". */
export function healthRoutes() {
  return new Hono<AppEnv>().get('/health', (c) => c.json({ status: 'ok' as const }))
}

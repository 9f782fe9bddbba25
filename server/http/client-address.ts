import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'

/**
 * The client's address for throttling. X-Forwarded-For is spoofable, so it is read only when
 * TRUST_PROXY says one reverse proxy stands in front, and then only its last hop (the one that
 * proxy appended). `app.request()` in tests has no socket: 'unknown'.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = c.req.header('x-forwarded-for')?.split(',')
    const last = hops?.[hops.length - 1]?.trim()
    if (last) return last
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return 'unknown'
  }
}

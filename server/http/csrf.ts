/**
 * Cross-site request forgery defence for the API, on top of the `SameSite=Lax` session cookie.
 *
 * SameSite only separates *sites*: a page on another port of the same host (or a sibling
 * subdomain) is the same site, so the browser attaches the cookie to its POSTs. Two checks close
 * that, on every state-changing request (POST, PUT, PATCH, DELETE):
 *
 * - `requireTrustedOrigin`: the `Origin` header must be one of the allowed origins (PUBLIC_URL's,
 *   the server's own as the request addressed it, TRUSTED_ORIGINS); without `Origin`,
 *   `Sec-Fetch-Site` must say `same-origin` (or `none`: typed by the user). `Origin: null`
 *   (sandboxed frames, some redirects) is refused. A request with neither header was not sent by
 *   a browser page (curl, server-to-server, tests) and cannot carry a victim's cookie by
 *   accident, so it passes.
 * - `requireContentType`: a body must be `application/json` (uploads: `multipart/form-data`).
 *   A page can send `text/plain`, form or typeless bodies cross-origin without a preflight; only
 *   JSON needs one, so refusing the others (415) keeps working as a second wall.
 *
 * `hono/csrf` was not used: it checks only form-like content types, refuses requests that carry
 * neither header (it would break curl uploads) and answers a bare-text 403 instead of the
 * contract's `{message}`.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { HttpError } from './errors.ts'

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

const CROSS_ORIGIN_MESSAGE = 'Cross-origin request refused'

export interface OriginPolicy {
  /** PUBLIC_URL. */
  publicUrl: string
  /** TRUSTED_ORIGINS, already normalised to origins. */
  trustedOrigins: readonly string[]
}

/** `scheme://host[:port]` as browsers serialise it, or null for `null` and anything unparsable. */
function normaliseOrigin(value: string): string | null {
  try {
    const origin = new URL(value).origin
    return origin === 'null' ? null : origin
  } catch {
    return null
  }
}

export function requireTrustedOrigin(policy: OriginPolicy): MiddlewareHandler {
  const fixed = new Set([new URL(policy.publicUrl).origin, ...policy.trustedOrigins])
  const allowed = (c: Context, origin: string) =>
    // The server's own origin as this request addressed it (Host): the built app served by this
    // server under another name, and the Vite dev proxy, which forwards Host unchanged.
    fixed.has(origin) || origin === new URL(c.req.url).origin

  return async (c, next) => {
    if (STATE_CHANGING.has(c.req.method)) {
      const originHeader = c.req.header('origin')
      if (originHeader !== undefined) {
        const origin = normaliseOrigin(originHeader)
        if (origin === null || !allowed(c, origin)) throw new HttpError(403, CROSS_ORIGIN_MESSAGE)
      } else {
        const site = c.req.header('sec-fetch-site')
        if (site !== undefined && site !== 'same-origin' && site !== 'none') {
          throw new HttpError(403, CROSS_ORIGIN_MESSAGE)
        }
      }
    }
    await next()
  }
}

/** The media type of a Content-Type header, lower-case, without parameters. */
function mediaType(header: string): string {
  return (header.split(';')[0] ?? '').trim().toLowerCase()
}

/**
 * Whether the request says it carries a body. HTTP/1.1 has none without Content-Length or
 * Transfer-Encoding; a Content-Type alone is taken at its word (it is what browsers send with one).
 */
function declaresBody(c: Context): boolean {
  const length = c.req.header('content-length')
  if (length !== undefined) return length.trim() !== '0'
  return c.req.header('transfer-encoding') !== undefined || c.req.header('content-type') !== undefined
}

/**
 * 415 unless a state-changing request's body is JSON, or multipart on an upload route
 * (`isUpload`, which then requires multipart even without a declared body). Bodiless requests
 * (DELETE, logout) pass.
 */
export function requireContentType(isUpload: (c: Context) => boolean): MiddlewareHandler {
  return async (c, next) => {
    if (STATE_CHANGING.has(c.req.method)) {
      const type = mediaType(c.req.header('content-type') ?? '')
      if (isUpload(c)) {
        if (type !== 'multipart/form-data') {
          throw new HttpError(415, 'Unsupported content type: expected multipart/form-data')
        }
      } else if (declaresBody(c) && type !== 'application/json') {
        throw new HttpError(415, 'Unsupported content type: expected application/json')
      }
    }
    await next()
  }
}

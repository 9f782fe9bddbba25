/**
 * Authentication by personal API token: `Authorization: Bearer <token>` makes the request act as
 * the token's owner (`c.var.user`, and `c.var.apiToken`), whatever cookie it carries: a bearer
 * request is authenticated by its token alone, so the session cookie, and with it the origin check
 * that guards the cookie (see `app.ts`), do not apply. An invalid or revoked token answers 401
 * `Invalid API token`, an expired one `API token expired`; neither falls back to the cookie.
 *
 * Bearer requests have their own rate limits, apart from the sign-in throttle: each token may make
 * `API_TOKEN_RATE` requests a minute, and a client address that sends 20 unknown tokens in 15
 * minutes gets 429 instead of 401 for its unknown tokens for the rest of the window (Retry-After
 * both); like the sign-in throttle, it never locks out a valid token. A token is 256 random bits, so
 * guessing is hopeless anyway; the lookup is one indexed equality, and a malformed token none.
 */
import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { contractMessages } from '../../contract/index.ts'
import type { ApiTokenService } from '../services/api-tokens.ts'
import { createWindowLimiter, type RateDecision } from '../services/request-rate.ts'
import { throttleKey } from './attempt-guard.ts'
import { clientAddress } from './client-address.ts'
import type { AppEnv } from './context.ts'
import { HttpError } from './errors.ts'

// For scripts, never shown by the browser app (which signs in with its cookie): English only.
const INVALID_TOKEN = 'Invalid API token'
const EXPIRED_TOKEN = 'API token expired'
const NOT_WITH_A_TOKEN = 'Not allowed with an API token'

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i
const FAILURE_WINDOW_MS = 15 * 60 * 1000
const MAX_FAILURES_PER_CLIENT = 20

export interface BearerDeps {
  apiTokens: ApiTokenService
  ratePerMinute: number
  trustProxy: boolean
  clock: () => Date
}

const throttled = (limit: RateDecision) => {
  if (!limit.limited) return
  throw new HttpError(429, contractMessages.tooManyAttempts, undefined, {
    'Retry-After': String(limit.retryAfterSeconds),
  })
}

/** Whether the request presents a bearer token (well formed or not). */
const hasBearer = (c: Context): boolean => /^bearer\b/i.test(c.req.header('authorization') ?? '')

export function authenticateBearer({ apiTokens, ratePerMinute, trustProxy, clock }: BearerDeps) {
  const perToken = createWindowLimiter({ limit: ratePerMinute, windowMs: 60 * 1000, clock })
  const failures = createWindowLimiter({
    limit: MAX_FAILURES_PER_CLIENT,
    windowMs: FAILURE_WINDOW_MS,
    clock,
  })
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!hasBearer(c)) return next()
    const token = BEARER.exec(c.req.header('authorization') ?? '')?.[1] ?? ''
    const resolved = await apiTokens.resolve(token)
    if (resolved.outcome === 'expired') throw new HttpError(401, EXPIRED_TOKEN)
    if (resolved.outcome === 'invalid') {
      // Counted after the lookup, so an address sending junk never locks out a valid token sent
      // from the same address (a shared NAT): only its unknown tokens get 429.
      throttled(failures.hit(throttleKey(clientAddress(c, trustProxy))))
      throw new HttpError(401, INVALID_TOKEN)
    }
    throttled(perToken.hit(String(resolved.token.id)))
    c.set('user', resolved.user)
    c.set('apiToken', { id: resolved.token.id })
    await next()
  })
}

/** 403 for a request authenticated by an API token: token management, password, 2FA, administration. */
export const refuseApiToken = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.apiToken) throw new HttpError(403, NOT_WITH_A_TOKEN)
  await next()
})

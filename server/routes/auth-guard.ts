/**
 * The brute-force guard shared by every route that checks a password or a 2FA code: one
 * limiter, counting failures per account (e-mail) and per client, so that guessing on the
 * 2FA step, on setup or on disable spends the same budget as guessing passwords.
 */
import type { Context } from 'hono'
import { clientAddress } from '../http/client-address.ts'
import type { AppEnv, RouteDeps } from '../http/context.ts'
import { HttpError } from '../http/errors.ts'

export interface AttemptGuard {
  /** Throws 429 with Retry-After when this account or this client is locked. */
  check(): void
  failed(): void
  succeeded(): void
}

export function attemptGuard(
  c: Context<AppEnv>,
  { config, logger, rateLimiter }: Pick<RouteDeps, 'config' | 'logger' | 'rateLimiter'>,
  email: string,
): AttemptGuard {
  const client = clientAddress(c, config.trustProxy)
  return {
    check() {
      const limit = rateLimiter.check(email, client)
      if (!limit.limited) return
      logger.warn({ reqId: c.var.requestId, client, path: c.req.path }, 'attempts throttled')
      throw new HttpError(429, 'Too many attempts. Try again later.', undefined, {
        'Retry-After': String(limit.retryAfterSeconds),
      })
    },
    failed: () => rateLimiter.recordFailure(email, client),
    succeeded: () => rateLimiter.recordSuccess(email),
  }
}

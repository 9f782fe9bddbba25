/**
 * The brute-force guard shared by every route that checks a password or a 2FA code. Failures
 * are counted per account and client address (see `services/rate-limit.ts`: an attacker's
 * failures lock the attacker's address, never the owner's) in one of two budgets:
 *
 * - `sign-in`: the sign-in and its 2FA step, so guessing the code spends the password budget;
 * - `signed-in`: re-authentication by a signed-in user (password change, 2FA setup and removal).
 *   Mistyping the current password in settings must not lock the next sign-in, and a borrowed
 *   session gets its own small budget for guessing the password, not a way to lock the owner out.
 */
import type { Context } from 'hono'
import { contractMessages } from '../../contract/index.ts'
import { clientAddress } from './client-address.ts'
import type { AppEnv, RouteDeps } from './context.ts'
import { HttpError } from './errors.ts'

export type AttemptScope = 'sign-in' | 'signed-in'

export interface AttemptGuard {
  /** Throws 429 with Retry-After when this client is locked for this account or altogether. */
  check(): void
  failed(): void
  succeeded(): void
}

/**
 * The throttling key of a client address. An IPv6 host usually holds a whole /64, so one
 * address per attempt would be free: its /64 is the client.
 */
export function throttleKey(address: string): string {
  const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  if (!plain.includes(':') || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(plain)) {
    return plain.replace(/^::ffff:/i, '')
  }
  const [head = '', tail = ''] = plain.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = plain.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

export function attemptGuard(
  c: Context<AppEnv>,
  { config, logger, rateLimiter }: Pick<RouteDeps, 'config' | 'logger' | 'rateLimiter'>,
  email: string,
  scope: AttemptScope,
): AttemptGuard {
  const address = clientAddress(c, config.trustProxy)
  const account = `${scope}:${email.toLowerCase()}`
  const client = `${scope}:${throttleKey(address)}`
  return {
    check() {
      const limit = rateLimiter.check(account, client)
      if (!limit.limited) return
      logger.warn({ reqId: c.var.requestId, client: address, path: c.req.path }, 'attempts throttled')
      throw new HttpError(429, contractMessages.tooManyAttempts, undefined, {
        'Retry-After': String(limit.retryAfterSeconds),
      })
    },
    failed: () => rateLimiter.recordFailure(account, client),
    succeeded: () => rateLimiter.recordSuccess(account, client),
  }
}

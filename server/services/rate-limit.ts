/**
 * In-memory brute-force limiter for every check of a password or a 2FA code (sign-in, the 2FA
 * step, 2FA setup and removal, password change; see `routes/auth-guard.ts`): failures are
 * counted per account (e-mail) and per client address over a sliding window, one budget for all. A single process holds the counts; they reset on
 * restart, which is acceptable for a throttle.
 */
export interface LoginRateLimiterOptions {
  clock?: () => Date
  windowMs?: number
  maxPerAccount?: number
  maxPerClient?: number
}

export type LimitDecision = { limited: false } | { limited: true; retryAfterSeconds: number }

export interface LoginRateLimiter {
  /** Whether a sign-in for this account from this client must be refused now. */
  check(email: string, client: string): LimitDecision
  recordFailure(email: string, client: string): void
  /** A successful sign-in clears the account's failures (not the client's). */
  recordSuccess(email: string): void
}

const MAX_KEYS = 50_000

export function createLoginRateLimiter(options: LoginRateLimiterOptions = {}): LoginRateLimiter {
  const clock = options.clock ?? (() => new Date())
  const windowMs = options.windowMs ?? 15 * 60 * 1000
  const maxPerAccount = options.maxPerAccount ?? 5
  const maxPerClient = options.maxPerClient ?? 20
  const accounts = new Map<string, number[]>()
  const clients = new Map<string, number[]>()

  const recent = (map: Map<string, number[]>, key: string, now: number): number[] => {
    const times = (map.get(key) ?? []).filter((t) => t > now - windowMs)
    if (times.length === 0) map.delete(key)
    else map.set(key, times)
    return times
  }

  /** Seconds until enough failures leave the window for one more attempt, or 0 when not limited. */
  const wait = (times: number[], max: number, now: number): number => {
    if (times.length < max) return 0
    const unlockAt = times[times.length - max]! + windowMs
    return Math.max(1, Math.ceil((unlockAt - now) / 1000))
  }

  const prune = (map: Map<string, number[]>, now: number) => {
    if (map.size < MAX_KEYS) return
    for (const key of [...map.keys()]) recent(map, key, now)
    // Still full of live keys (a flood): forget the oldest entries rather than grow unbounded.
    for (const key of map.keys()) {
      if (map.size < MAX_KEYS) break
      map.delete(key)
    }
  }

  return {
    check(email, client) {
      const now = clock().getTime()
      const seconds = Math.max(
        wait(recent(accounts, email, now), maxPerAccount, now),
        wait(recent(clients, client, now), maxPerClient, now),
      )
      return seconds > 0 ? { limited: true, retryAfterSeconds: seconds } : { limited: false }
    },
    recordFailure(email, client) {
      const now = clock().getTime()
      prune(accounts, now)
      prune(clients, now)
      accounts.set(email, [...recent(accounts, email, now), now])
      clients.set(client, [...recent(clients, client, now), now])
    },
    recordSuccess(email) {
      accounts.delete(email)
    },
  }
}

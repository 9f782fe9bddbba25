/**
 * In-memory brute-force limiter for every check of a password or a 2FA code (see
 * `http/attempt-guard.ts`). It must slow guessing down without letting anyone lock a user out,
 * so an account is never locked as a whole; failures are counted over a sliding window:
 *
 * - per account AND client: `maxPerAccount` failures lock this account for this client only.
 *   An attacker at address A cannot lock the owner at address B out.
 * - per client across accounts: `maxPerClient` failures lock the client (one address spraying
 *   many accounts).
 * - per account across clients, against guessing spread over many addresses: once the account
 *   has `accountAlarm` failures in the window, every client that has failed on it at least once
 *   is locked for it, so each further address gets one guess. A client with no failure (the
 *   owner, who has not mistyped) still signs in.
 *
 * Keys carry a scope (the caller's: sign-in vs. re-authentication of a signed-in user), so one
 * kind of failure never locks the other. A single process holds the counts; they reset on
 * restart, which is acceptable for a throttle.
 */
export interface LoginRateLimiterOptions {
  clock?: () => Date
  windowMs?: number
  /** Failures of one client on one account. */
  maxPerAccount?: number
  /** Failures of one client across accounts. */
  maxPerClient?: number
  /** Failures on one account across clients past which any client that failed on it is locked. */
  accountAlarm?: number
}

type LimitDecision = { limited: false } | { limited: true; retryAfterSeconds: number }

export interface LoginRateLimiter {
  /** Whether an attempt on this account (key) from this client must be refused now. */
  check(account: string, client: string): LimitDecision
  recordFailure(account: string, client: string): void
  /** A success clears this client's failures on this account (not the client's other ones). */
  recordSuccess(account: string, client: string): void
}

type Failure = { at: number; client: string }

const MAX_KEYS = 50_000
/** Failures remembered per account; the oldest go first (an alarm needs far fewer). */
const MAX_PER_ACCOUNT_KEY = 1_000

export function createLoginRateLimiter(options: LoginRateLimiterOptions = {}): LoginRateLimiter {
  const clock = options.clock ?? (() => new Date())
  const windowMs = options.windowMs ?? 15 * 60 * 1000
  const maxPerAccount = options.maxPerAccount ?? 5
  const maxPerClient = options.maxPerClient ?? 20
  const accountAlarm = options.accountAlarm ?? 50
  const accounts = new Map<string, Failure[]>()
  const clients = new Map<string, number[]>()

  const recent = <T>(map: Map<string, T[]>, key: string, at: (item: T) => number, now: number): T[] => {
    const items = (map.get(key) ?? []).filter((item) => at(item) > now - windowMs)
    if (items.length === 0) map.delete(key)
    else map.set(key, items)
    return items
  }
  const recentAccount = (key: string, now: number) => recent(accounts, key, (f) => f.at, now)
  const recentClient = (key: string, now: number) => recent(clients, key, (t) => t, now)

  /** Seconds until enough failures (sorted times) leave the window to go under `max`, or 0. */
  const wait = (times: number[], max: number, now: number): number => {
    if (times.length < max) return 0
    const unlockAt = times[times.length - max]! + windowMs
    return Math.max(1, Math.ceil((unlockAt - now) / 1000))
  }

  const prune = <T>(map: Map<string, T[]>, at: (item: T) => number, now: number) => {
    if (map.size < MAX_KEYS) return
    for (const key of [...map.keys()]) recent(map, key, at, now)
    // Still full of live keys (a flood): forget the oldest entries rather than grow unbounded.
    for (const key of map.keys()) {
      if (map.size < MAX_KEYS) break
      map.delete(key)
    }
  }

  return {
    check(account, client) {
      const now = clock().getTime()
      const onAccount = recentAccount(account, now)
      const mine = onAccount.filter((f) => f.client === client).map((f) => f.at)
      // Under alarm, one failure of this client is enough: locked until the alarm ends (the
      // account falls under `accountAlarm`) or this client's failures leave the window.
      const alarm =
        mine.length > 0
          ? Math.min(
              wait(
                onAccount.map((f) => f.at),
                accountAlarm,
                now,
              ),
              wait(mine, 1, now),
            )
          : 0
      const seconds = Math.max(
        wait(mine, maxPerAccount, now),
        wait(recentClient(client, now), maxPerClient, now),
        alarm,
      )
      return seconds > 0 ? { limited: true, retryAfterSeconds: seconds } : { limited: false }
    },
    recordFailure(account, client) {
      const now = clock().getTime()
      prune(accounts, (f) => f.at, now)
      prune(clients, (t) => t, now)
      accounts.set(account, [...recentAccount(account, now), { at: now, client }].slice(-MAX_PER_ACCOUNT_KEY))
      clients.set(client, [...recentClient(client, now), now])
    },
    recordSuccess(account, client) {
      const left = (accounts.get(account) ?? []).filter((f) => f.client !== client)
      if (left.length === 0) accounts.delete(account)
      else accounts.set(account, left)
    },
  }
}

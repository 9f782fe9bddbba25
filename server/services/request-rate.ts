/**
 * A fixed-window counter per key (in this process's memory, like the sign-in throttle): at most
 * `limit` hits per key in each window of `windowMs`. Used for bearer requests, which have their
 * own budget per token and a budget of failed tokens per client address.
 */
export type RateDecision = { limited: false } | { limited: true; retryAfterSeconds: number }

export interface WindowLimiter {
  /** Counts one hit; limited when it goes over the budget. */
  hit(key: string): RateDecision
}

/** Keys remembered at once; past it the expired windows go first, then the oldest. */
const MAX_KEYS = 50_000

export function createWindowLimiter(options: {
  limit: number
  windowMs: number
  clock?: () => Date
}): WindowLimiter {
  const { limit, windowMs } = options
  const clock = options.clock ?? (() => new Date())
  const windows = new Map<string, { start: number; count: number }>()

  const current = (key: string, now: number) => {
    const window = windows.get(key)
    if (window && now - window.start < windowMs) return window
    if (window) windows.delete(key)
    return null
  }
  const decision = (window: { start: number; count: number }, now: number): RateDecision =>
    window.count > limit
      ? { limited: true, retryAfterSeconds: Math.max(1, Math.ceil((window.start + windowMs - now) / 1000)) }
      : { limited: false }
  const prune = (now: number) => {
    if (windows.size < MAX_KEYS) return
    for (const key of [...windows.keys()]) current(key, now)
    for (const key of windows.keys()) {
      if (windows.size < MAX_KEYS) break
      windows.delete(key)
    }
  }

  return {
    hit(key) {
      const now = clock().getTime()
      let window = current(key, now)
      if (!window) {
        prune(now)
        window = { start: now, count: 0 }
        windows.set(key, window)
      }
      window.count += 1
      return decision(window, now)
    },
  }
}

import { describe, expect, it } from 'vitest'
import { isExpired, KEEP_UNSENT_MS } from '../../src/api/unsent-uploads'

describe('files kept in the browser until sent', () => {
  const now = Date.UTC(2026, 11, 6, 12)

  it('keeps a file for a week after it was queued', () => {
    expect(KEEP_UNSENT_MS).toBe(7 * 24 * 3600 * 1000)
    expect(isExpired({ createdAt: now - KEEP_UNSENT_MS }, now)).toBe(false)
    expect(isExpired({ createdAt: now - 60_000 }, now)).toBe(false)
  })

  it('drops it once the week is past', () => {
    expect(isExpired({ createdAt: now - KEEP_UNSENT_MS - 1 }, now)).toBe(true)
    expect(isExpired({ createdAt: now - 30 * 24 * 3600 * 1000 }, now)).toBe(true)
  })
})

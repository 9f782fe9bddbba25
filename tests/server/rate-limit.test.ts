import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLoginRateLimiter } from '../../server/services/rate-limit.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { createClock, createCookieJar, createTestApp, insertUser, jsonBody } from './helpers.ts'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.close()
})

const MINUTE = 60 * 1000

async function setup() {
  const clock = createClock()
  const ctx = await createTestApp(database.db, { clock: clock.now })
  const login = (email: string, password: string, headers: Record<string, string> = {}) =>
    createCookieJar().request(ctx.app, '/api/auth/login', {
      ...jsonBody({ email, password }),
      headers: { 'Content-Type': 'application/json', ...headers },
    })
  return { clock, ctx, login }
}

describe('sign-in throttling', () => {
  it('locks an account after 5 failures, even for the right password, with Retry-After', async () => {
    const { ctx, login } = await setup()
    const user = await insertUser(database.db)
    for (let i = 0; i < 5; i++) expect((await login(user.email, 'Wrong1234')).status).toBe(401)
    const locked = await login(user.email, user.password)
    expect(locked.status).toBe(429)
    expect(await locked.json()).toEqual({ message: 'Too many attempts. Try again later.' })
    const retryAfter = Number(locked.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(14 * 60)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    expect(locked.headers.get('set-cookie')).toBeNull()
    // Another account from the same client is not locked by these 5 failures.
    const other = await insertUser(database.db)
    expect((await login(other.email, other.password)).status).toBe(200)
    await ctx.cleanup()
  })

  it('unlocks once the failures leave the 15-minute window', async () => {
    const { clock, ctx, login } = await setup()
    const user = await insertUser(database.db)
    for (let i = 0; i < 5; i++) {
      await login(user.email, 'Wrong1234')
      clock.advance(MINUTE)
    }
    // Failures at 0..4 min, now 5 min: the first leaves the window at 15 min.
    const locked = await login(user.email, user.password)
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get('retry-after'))).toBe(10 * 60)
    clock.advance(10 * MINUTE - 1000)
    expect((await login(user.email, user.password)).status).toBe(429)
    clock.advance(1000)
    expect((await login(user.email, user.password)).status).toBe(200)
    await ctx.cleanup()
  })

  it('a success clears the account counter', async () => {
    const { ctx, login } = await setup()
    const user = await insertUser(database.db)
    for (let i = 0; i < 4; i++) await login(user.email, 'Wrong1234')
    expect((await login(user.email, user.password)).status).toBe(200)
    for (let i = 0; i < 4; i++) expect((await login(user.email, 'Wrong1234')).status).toBe(401)
    expect((await login(user.email, user.password)).status).toBe(200)
    await ctx.cleanup()
  })

  it('locks a client after 20 failures across accounts', async () => {
    const { ctx, login } = await setup()
    for (let i = 0; i < 20; i++) expect((await login(`ghost${i}@example.com`, 'Wrong1234')).status).toBe(401)
    const user = await insertUser(database.db)
    const res = await login(user.email, user.password)
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    await ctx.cleanup()
  })

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    const { ctx, login } = await setup()
    // Spoofed, varying X-Forwarded-For: all from the same (socket-less) client.
    for (let i = 0; i < 20; i++)
      await login(`spoof${i}@example.com`, 'Wrong1234', { 'X-Forwarded-For': `10.0.0.${i}` })
    const user = await insertUser(database.db)
    expect((await login(user.email, user.password, { 'X-Forwarded-For': '10.9.9.9' })).status).toBe(429)
    await ctx.cleanup()

    const clock = createClock()
    const trusting = await createTestApp(database.db, { clock: clock.now, env: { TRUST_PROXY: '1' } })
    const viaProxy = (email: string, password: string, ip: string) =>
      trusting.app.request('/api/auth/login', {
        ...jsonBody({ email, password }),
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `1.2.3.4, ${ip}` },
      })
    for (let i = 0; i < 20; i++) await viaProxy(`proxy${i}@example.com`, 'Wrong1234', '203.0.113.7')
    expect((await viaProxy(user.email, user.password, '203.0.113.7')).status).toBe(429)
    expect((await viaProxy(user.email, user.password, '203.0.113.8')).status).toBe(200)
    await trusting.cleanup()
  })
})

describe('createLoginRateLimiter', () => {
  it('counts per account and per client independently', () => {
    const clock = createClock()
    const limiter = createLoginRateLimiter({ clock: clock.now, maxPerAccount: 2, maxPerClient: 3 })
    limiter.recordFailure('a@x.io', 'ip1')
    limiter.recordFailure('a@x.io', 'ip2')
    expect(limiter.check('a@x.io', 'ip3')).toMatchObject({ limited: true })
    expect(limiter.check('b@x.io', 'ip1')).toEqual({ limited: false })
    limiter.recordFailure('b@x.io', 'ip1')
    limiter.recordFailure('c@x.io', 'ip1')
    expect(limiter.check('d@x.io', 'ip1')).toMatchObject({ limited: true })
    limiter.recordSuccess('a@x.io')
    expect(limiter.check('a@x.io', 'ip3')).toEqual({ limited: false })
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { throttleKey } from '../../server/http/attempt-guard.ts'
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

describe('throttling that cannot lock a user out', () => {
  /** An app behind one trusted proxy, so each test picks the client address (X-Forwarded-For). */
  async function behindProxy() {
    const clock = createClock()
    const ctx = await createTestApp(database.db, { clock: clock.now, env: { TRUST_PROXY: '1' } })
    const from = (ip: string, jar = createCookieJar()) => ({
      jar,
      post: (path: string, body: unknown) =>
        jar.request(ctx.app, `/api${path}`, {
          ...jsonBody(body),
          headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        }),
    })
    return { clock, ctx, from }
  }

  it("an attacker's failures lock the attacker's address, not the owner's", async () => {
    const { ctx, from } = await behindProxy()
    const user = await insertUser(database.db)
    const attacker = from('198.51.100.7')
    for (let i = 0; i < 5; i++)
      expect((await attacker.post('/auth/login', { email: user.email, password: 'Wrong1234' })).status).toBe(
        401,
      )
    // The attacker keeps trying; even the right password is refused from that address.
    for (let i = 0; i < 3; i++)
      expect((await attacker.post('/auth/login', { email: user.email, password: 'Wrong1234' })).status).toBe(
        429,
      )
    const blocked = await attacker.post('/auth/login', user)
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(14 * 60)
    // The owner, elsewhere, signs in.
    const owner = from('203.0.113.20')
    expect((await owner.post('/auth/login', user)).status).toBe(200)
    expect(owner.jar.get('sid')).toBeTruthy()
    await ctx.cleanup()
  })

  it('an IPv6 attacker rotating addresses inside its /64 stays one client', async () => {
    const { ctx, from } = await behindProxy()
    const user = await insertUser(database.db)
    for (let i = 1; i <= 5; i++)
      await from(`2001:db8:1:2::${i.toString(16)}`).post('/auth/login', {
        email: user.email,
        password: 'Wrong1234',
      })
    expect((await from('2001:db8:1:2:ffff::9').post('/auth/login', user)).status).toBe(429)
    expect((await from('2001:db8:1:3::1').post('/auth/login', user)).status).toBe(200)
    await ctx.cleanup()
  })

  it('failed password changes spend their own budget, never the sign-in one', async () => {
    const { ctx, from } = await behindProxy()
    const user = await insertUser(database.db)
    const owner = from('203.0.113.30')
    expect((await owner.post('/auth/login', user)).status).toBe(200)
    const change = (current: string) =>
      owner.post('/auth/password/change', { current_password: current, new_password: 'Brand-new-pass-42' })
    for (let i = 0; i < 5; i++) expect((await change('Wrong1234')).status).toBe(401)
    expect((await change(user.password)).status).toBe(429)
    // Same account, same address: signing in is not locked by those failures.
    expect((await from('203.0.113.30').post('/auth/login', user)).status).toBe(200)
    await ctx.cleanup()
  })

  it('guessing spread over many addresses: past the alarm each address that failed is locked, a clean one is not', async () => {
    const { ctx, from } = await behindProxy()
    const user = await insertUser(database.db)
    const wrong = { email: user.email, password: 'Wrong1234' }
    // 50 failures from 10 addresses (5 each, the most one address may spend).
    for (let a = 0; a < 10; a++)
      for (let i = 0; i < 5; i++) await from(`192.0.2.${a}`).post('/auth/login', wrong)
    const late = from('192.0.2.100')
    expect((await late.post('/auth/login', wrong)).status).toBe(401)
    // One failure was this address's whole budget on the account under attack.
    expect((await late.post('/auth/login', user)).status).toBe(429)
    expect((await from('203.0.113.40').post('/auth/login', user)).status).toBe(200)
    await ctx.cleanup()
  })
})

describe('createLoginRateLimiter', () => {
  it('counts per account and client, and per client across accounts', () => {
    const clock = createClock()
    const limiter = createLoginRateLimiter({ clock: clock.now, maxPerAccount: 2, maxPerClient: 3 })
    limiter.recordFailure('a@x.io', 'ip1')
    limiter.recordFailure('a@x.io', 'ip2')
    limiter.recordFailure('a@x.io', 'ip2')
    expect(limiter.check('a@x.io', 'ip2')).toMatchObject({ limited: true })
    // ip1 failed once and ip3 never: the account is not locked for them.
    expect(limiter.check('a@x.io', 'ip1')).toEqual({ limited: false })
    expect(limiter.check('a@x.io', 'ip3')).toEqual({ limited: false })
    limiter.recordFailure('b@x.io', 'ip1')
    limiter.recordFailure('c@x.io', 'ip1')
    expect(limiter.check('d@x.io', 'ip1')).toMatchObject({ limited: true })
    limiter.recordSuccess('a@x.io', 'ip2')
    expect(limiter.check('a@x.io', 'ip2')).toEqual({ limited: false })
  })

  it('under alarm, locks each client that failed until its failures leave the window', () => {
    const clock = createClock()
    const limiter = createLoginRateLimiter({ clock: clock.now, maxPerAccount: 5, accountAlarm: 4 })
    for (const ip of ['ip1', 'ip2', 'ip3']) limiter.recordFailure('a@x.io', ip)
    expect(limiter.check('a@x.io', 'ip1')).toEqual({ limited: false })
    clock.advance(MINUTE)
    limiter.recordFailure('a@x.io', 'ip4')
    expect(limiter.check('a@x.io', 'ip1')).toMatchObject({ limited: true })
    expect(limiter.check('a@x.io', 'ip4')).toEqual({ limited: true, retryAfterSeconds: 14 * 60 })
    expect(limiter.check('a@x.io', 'clean')).toEqual({ limited: false })
    // The first three failures leave the window at 15 min: the alarm ends and ip1 is free again.
    clock.advance(14 * MINUTE)
    expect(limiter.check('a@x.io', 'ip1')).toEqual({ limited: false })
  })
})

describe('throttleKey', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['2001:db8:0:0:1::1', '2001:db8:0:0::/64'],
    ['2001:0DB8:00a0:0001:ffff:ffff:ffff:ffff', '2001:db8:a0:1::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['[2001:db8:1:2::7]', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('keys %s as %s', (address, key) => {
    expect(throttleKey(address)).toBe(key)
  })
})

import { eq } from 'drizzle-orm'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LoginResult, User } from '../../contract/index.ts'
import { companies, sessions, userCompanies, users } from '../../server/db/schema.ts'
import { hashSessionToken } from '../../server/services/sessions.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import {
  createClock,
  createCookieJar,
  createTestApp,
  insertUser,
  jsonBody,
  setUserEnabled,
} from './helpers.ts'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createTestApp>>
const clock = createClock()

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createTestApp(database.db, { clock: clock.now })
})
afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})

const login = (jar: ReturnType<typeof createCookieJar>, email: string, password: string) =>
  jar.request(ctx.app, '/api/auth/login', jsonBody({ email, password }))

describe('POST /api/auth/login', () => {
  it('signs a validated user in with an HttpOnly SameSite=Lax session cookie', async () => {
    const user = await insertUser(database.db)
    const jar = createCookieJar()
    const res = await login(jar, user.email, user.password)
    expect(res.status).toBe(200)
    expect(v.parse(LoginResult, await res.json())).toEqual({ requires_2fa: false, should_setup_2fa: true })
    const cookie = res.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43};/)
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    expect(cookie).toMatch(/Path=\//)
    expect(cookie).toMatch(/Max-Age=43200/)
    expect(cookie).not.toMatch(/Secure/)
  })

  it('marks the cookie Secure when PUBLIC_URL is https', async () => {
    const https = await createTestApp(database.db, { env: { PUBLIC_URL: 'https://docs.example.com' } })
    const user = await insertUser(database.db)
    const res = await https.app.request(
      '/api/auth/login',
      jsonBody({ email: user.email, password: user.password }),
    )
    expect(res.headers.get('set-cookie')).toMatch(/; Secure/)
    await https.cleanup()
  })

  it('accepts the e-mail in any case and with surrounding spaces', async () => {
    const user = await insertUser(database.db)
    const res = await login(createCookieJar(), `  ${user.email.toUpperCase()} `, user.password)
    expect(res.status).toBe(200)
  })

  it('stores only the HMAC of the cookie token, never the token itself', async () => {
    const user = await insertUser(database.db)
    const jar = createCookieJar()
    await login(jar, user.email, user.password)
    const token = jar.get('sid')!
    const rows = await database.db.select().from(sessions).where(eq(sessions.userId, user.id))
    expect(rows.map((r) => r.id)).toEqual([hashSessionToken(ctx.config.sessionSecret, token)])
    expect(rows[0]!.id).not.toContain(token)
  })

  it('issues a different session on every sign-in, even when a cookie is presented', async () => {
    const user = await insertUser(database.db)
    const jar = createCookieJar()
    await login(jar, user.email, user.password)
    const first = jar.get('sid')
    await login(jar, user.email, user.password)
    const second = jar.get('sid')
    expect(first).toBeTruthy()
    expect(second).toBeTruthy()
    expect(second).not.toBe(first)
    // The presented (old) session was ended, not reused.
    const stale = createCookieJar()
    stale.set('sid', first!)
    expect((await stale.request(ctx.app, '/api/auth/logged-in')).status).toBe(401)
  })

  it('answers unknown e-mail and wrong password identically', async () => {
    const user = await insertUser(database.db)
    const wrong = await login(createCookieJar(), user.email, 'Wrong1234')
    const unknown = await login(createCookieJar(), 'nobody-here@example.com', 'Wrong1234')
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    const [a, b] = [await wrong.text(), await unknown.text()]
    expect(a).toBe(b)
    expect(JSON.parse(a)).toEqual({ message: 'Invalid email or password' })
    expect(wrong.headers.get('set-cookie')).toBeNull()
  })

  it('refuses a disabled user with the same answer as a wrong password', async () => {
    const user = await insertUser(database.db, { enabled: false })
    const res = await login(createCookieJar(), user.email, user.password)
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ message: 'Invalid email or password' })
  })

  it('refuses a user who has not validated the account, and one without a password', async () => {
    const pending = await insertUser(database.db, { validated: false })
    const res = await login(createCookieJar(), pending.email, pending.password)
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ message: 'Invalid email or password' })
    const noPassword = await insertUser(database.db, { passwordHash: null })
    expect((await login(createCookieJar(), noPassword.email, noPassword.password)).status).toBe(401)
  })

  it('asks a 2FA user for the second step and sets no cookie', async () => {
    const user = await insertUser(database.db, { is2faEnabled: true })
    const jar = createCookieJar()
    const res = await login(jar, user.email, user.password)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ requires_2fa: true, should_setup_2fa: false })
    expect(res.headers.get('set-cookie')).toBeNull()
    expect((await jar.request(ctx.app, '/api/auth/logged-in')).status).toBe(401)
  })

  it('rejects an invalid e-mail with a 400 naming the field', async () => {
    const res = await ctx.app.request('/api/auth/login', jsonBody({ email: 'not-an-email', password: 'x' }))
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.message).toBe('Invalid input')
    expect(body.detail).toEqual([{ field: 'email', message: 'Please enter a valid email address' }])
  })

  it('rejects a missing password with the specification message', async () => {
    const res = await ctx.app.request('/api/auth/login', jsonBody({ email: 'a@example.com', password: '' }))
    expect(res.status).toBe(400)
    expect((await res.json()).detail).toEqual([{ field: 'password', message: 'Password is required' }])
  })
})

describe('GET /api/auth/logged-in', () => {
  it('answers 401 without a session', async () => {
    const res = await ctx.app.request('/api/auth/logged-in')
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ message: 'Not authenticated' })
  })

  it('answers 401 for a forged cookie', async () => {
    const jar = createCookieJar()
    jar.set('sid', 'A'.repeat(43))
    expect((await jar.request(ctx.app, '/api/auth/logged-in')).status).toBe(401)
  })

  it('answers the user with memberships, companies ordered by name', async () => {
    const user = await insertUser(database.db, { name: 'Ada', surname: 'Lovelace', role: 'CLIENT_USER' })
    const [zeta, alpha] = await database.db
      .insert(companies)
      .values([{ name: 'Zeta Ltd' }, { name: 'Alpha SA' }])
      .returning()
    await database.db.insert(userCompanies).values([
      { userId: user.id, companyId: zeta!.id, role: 'COMPANY_ADMIN' },
      { userId: user.id, companyId: alpha!.id, role: 'COMPANY_USER' },
    ])
    const jar = createCookieJar()
    await login(jar, user.email, user.password)
    const res = await jar.request(ctx.app, '/api/auth/logged-in')
    expect(res.status).toBe(200)
    const body = v.parse(User, await res.json())
    expect(body).toEqual({
      id: user.id,
      email: user.email,
      name: 'Ada',
      surname: 'Lovelace',
      role: 'CLIENT_USER',
      validated: true,
      enabled: true,
      is_2fa_enabled: false,
      // First membership by company id: Zeta was created first.
      company_id: zeta!.id,
      company_role: 'COMPANY_ADMIN',
      companies: [
        { company_id: alpha!.id, company_name: 'Alpha SA', role: 'COMPANY_USER' },
        { company_id: zeta!.id, company_name: 'Zeta Ltd', role: 'COMPANY_ADMIN' },
      ],
      two_factor_advice: true,
    })
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  it('answers null company fields for a user without companies', async () => {
    const user = await insertUser(database.db)
    const jar = createCookieJar()
    await login(jar, user.email, user.password)
    const body = v.parse(User, await (await jar.request(ctx.app, '/api/auth/logged-in')).json())
    expect(body.company_id).toBeNull()
    expect(body.company_role).toBeNull()
    expect(body.companies).toEqual([])
  })

  it('stops honouring the session of a user who becomes disabled', async () => {
    const user = await insertUser(database.db)
    const jar = createCookieJar()
    await login(jar, user.email, user.password)
    expect((await jar.request(ctx.app, '/api/auth/logged-in')).status).toBe(200)
    await setUserEnabled(database.db, user.id, false)
    expect((await jar.request(ctx.app, '/api/auth/logged-in')).status).toBe(401)
  })

  it('slides the expiry with activity and expires an idle session', async () => {
    const user = await insertUser(database.db)
    const jar = createCookieJar()
    await login(jar, user.email, user.password)
    const hour = 60 * 60 * 1000
    clock.advance(11 * hour)
    const renewed = await jar.request(ctx.app, '/api/auth/logged-in')
    expect(renewed.status).toBe(200)
    expect(renewed.headers.get('set-cookie')).toMatch(/Max-Age=43200/)
    clock.advance(11 * hour) // 22 h after sign-in: alive only because the expiry slid
    expect((await jar.request(ctx.app, '/api/auth/logged-in')).status).toBe(200)
    clock.advance(12 * hour + 1000) // idle longer than the TTL
    expect((await jar.request(ctx.app, '/api/auth/logged-in')).status).toBe(401)
    const left = await database.db.select().from(sessions).where(eq(sessions.userId, user.id))
    expect(left).toEqual([])
  })
})

describe('GET /api/auth/session', () => {
  it('answers 200 with a null user to a visitor without a session or with a forged cookie', async () => {
    const res = await ctx.app.request('/api/auth/session')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ user: null })
    const forged = await ctx.app.request('/api/auth/session', { headers: { cookie: 'sid=forged' } })
    expect(forged.status).toBe(200)
    expect(await forged.json()).toEqual({ user: null })
  })

  it('answers the signed-in user as /auth/logged-in does', async () => {
    const user = await insertUser(database.db)
    const jar = createCookieJar()
    await login(jar, user.email, user.password)
    const session = (await (await jar.request(ctx.app, '/api/auth/session')).json()) as { user: unknown }
    const loggedIn = await (await jar.request(ctx.app, '/api/auth/logged-in')).json()
    expect(session.user).toEqual(loggedIn)
    expect(v.parse(User, session.user).email).toBe(user.email)
  })
})

describe('PUT /api/settings/two-factor-advice', () => {
  const advise = (jar: ReturnType<typeof createCookieJar>, advice: unknown) =>
    jar.request(ctx.app, '/api/settings/two-factor-advice', { ...jsonBody({ advice }), method: 'PUT' })

  it('stops advising 2FA at sign-in once skipped, until the user asks for it again', async () => {
    const user = await insertUser(database.db)
    const jar = createCookieJar()
    await login(jar, user.email, user.password)
    expect((await advise(jar, false)).status).toBe(200)
    const user2 = v.parse(User, await (await jar.request(ctx.app, '/api/auth/logged-in')).json())
    expect(user2.two_factor_advice).toBe(false)
    expect(await (await login(createCookieJar(), user.email, user.password)).json()).toEqual({
      requires_2fa: false,
      should_setup_2fa: false,
    })
    expect(await (await advise(jar, true)).json()).toEqual({ advice: true })
    expect(await (await login(createCookieJar(), user.email, user.password)).json()).toEqual({
      requires_2fa: false,
      should_setup_2fa: true,
    })
  })

  it('refuses a value that is not a boolean with the contract error shape, and a visitor with 401', async () => {
    const user = await insertUser(database.db)
    const jar = createCookieJar()
    await login(jar, user.email, user.password)
    const bad = await advise(jar, 'no')
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ message: expect.any(String) })
    expect((await advise(createCookieJar(), false)).status).toBe(401)
  })
})

describe('POST /api/auth/logout', () => {
  it('ends the session: the old cookie no longer works', async () => {
    const user = await insertUser(database.db)
    const jar = createCookieJar()
    await login(jar, user.email, user.password)
    const token = jar.get('sid')!
    const res = await jar.request(ctx.app, '/api/auth/logout', { method: 'POST' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Logged out' })
    expect(res.headers.get('set-cookie')).toMatch(/^sid=;.*Max-Age=0/)
    const replay = createCookieJar()
    replay.set('sid', token)
    expect((await replay.request(ctx.app, '/api/auth/logged-in')).status).toBe(401)
    const rows = await database.db.select().from(sessions).where(eq(sessions.userId, user.id))
    expect(rows).toEqual([])
  })

  it('answers 200 when nobody is signed in', async () => {
    const res = await ctx.app.request('/api/auth/logout', { method: 'POST' })
    expect(res.status).toBe(200)
  })

  it('ends only the session presented, not the other devices of the user', async () => {
    const user = await insertUser(database.db)
    const laptop = createCookieJar()
    const phone = createCookieJar()
    await login(laptop, user.email, user.password)
    await login(phone, user.email, user.password)
    await laptop.request(ctx.app, '/api/auth/logout', { method: 'POST' })
    expect((await phone.request(ctx.app, '/api/auth/logged-in')).status).toBe(200)
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id))
    expect(row?.enabled).toBe(true)
  })
})

import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accountTokens, users } from '../../server/db/schema.ts'
import { createLogger } from '../../server/logger.ts'
import { createAccountService } from '../../server/services/accounts.ts'
import { hashAccountToken } from '../../server/services/tokens.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { createAccountTestApp, createCookieJar, type Jar, linkParams } from './auth-helpers.ts'
import { createLogCapture, insertUser, setUserEnabled } from './helpers.ts'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createAccountTestApp>>

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createAccountTestApp(database.db)
})
afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})

const HOUR = 60 * 60 * 1000
const NEW_PASSWORD = 'Fresh-Pass9'
type TestUser = Awaited<ReturnType<typeof insertUser>>

const accounts = () =>
  createAccountService({
    db: database.db,
    config: ctx.config,
    clock: ctx.clock.now,
    mailer: ctx.mailer,
    logger: createLogger(ctx.config, createLogCapture().stream),
  })

async function signedIn(email: string, password: string): Promise<Jar> {
  const jar = createCookieJar()
  expect((await ctx.post(jar, '/auth/login', { email, password })).status).toBe(200)
  return jar
}
const isSignedIn = async (jar: Jar) => (await jar.request(ctx.app, '/api/auth/logged-in')).status === 200
const canLogIn = async (email: string, password: string) =>
  (await ctx.post(createCookieJar(), '/auth/login', { email, password })).status === 200

/** An invited user (no password, not validated) and the token of the mailed /validate link. */
async function invited(overrides: Parameters<typeof insertUser>[1] = {}) {
  const user = await insertUser(database.db, { validated: false, passwordHash: null, ...overrides })
  await accounts().sendInvitation(user)
  const mail = await ctx.mailer.waitFor((m) => m.to === user.email && m.text.includes('/validate?'))
  return { user, mail, ...linkParams(mail.text, '/validate') }
}

const validate = (email: string, token: string, password = NEW_PASSWORD) =>
  ctx.post(createCookieJar(), '/auth/validate-mail', { email, validation_token: token, password })

describe('POST /api/auth/validate-mail (activation)', () => {
  it('sets the password of an invited user and validates the account', async () => {
    const { user, token, email, url } = await invited()
    expect(url.origin + url.pathname).toBe(`${ctx.config.publicUrl}/validate`)
    expect(email).toBe(user.email)
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/) // 256 bits
    expect(await canLogIn(user.email, NEW_PASSWORD)).toBe(false)
    const res = await validate(email, token)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Account validated successfully' })
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id))
    expect(row?.validated).toBe(true)
    expect(await canLogIn(user.email, NEW_PASSWORD)).toBe(true)
  })

  it('stores only the hash of the token', async () => {
    const { user, token } = await invited()
    const rows = await database.db.select().from(accountTokens).where(eq(accountTokens.userId, user.id))
    expect(rows.map((r) => r.tokenHash)).toEqual([hashAccountToken(token)])
    expect(rows[0]!.purpose).toBe('activation')
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(72 * HOUR)
  })

  it('refuses a used token', async () => {
    const { email, token } = await invited()
    expect((await validate(email, token)).status).toBe(200)
    const again = await validate(email, token, 'Other-Pass9')
    expect(again.status).toBe(400)
    expect(await again.json()).toEqual({ message: 'Invalid or expired validation link' })
    expect(await canLogIn(email, 'Other-Pass9')).toBe(false)
  })

  it('expires after 72 hours', async () => {
    const early = await invited()
    const late = await invited()
    ctx.clock.advance(72 * HOUR - 1000)
    expect((await validate(early.email, early.token)).status).toBe(200)
    ctx.clock.advance(1000)
    expect((await validate(late.email, late.token)).status).toBe(400)
  })

  it('refuses the token with another e-mail, a forged token, and a disabled user', async () => {
    const a = await invited()
    const b = await invited()
    expect((await validate(b.email, a.token)).status).toBe(400)
    expect((await validate(a.email, 'A'.repeat(43))).status).toBe(400)
    expect((await validate(a.email, a.token)).status).toBe(200) // not spent by the wrong e-mail
    await setUserEnabled(database.db, b.user.id, false)
    expect((await validate(b.email, b.token)).status).toBe(400)
  })

  it('makes an earlier invitation link stop working when a new one is sent', async () => {
    const first = await invited()
    await accounts().sendInvitation(first.user)
    const second = ctx.mailer.messages.filter((m) => m.to === first.email).at(-1)!
    const { token } = linkParams(second.text, '/validate')
    expect(token).not.toBe(first.token)
    expect((await validate(first.email, first.token)).status).toBe(400)
    expect((await validate(first.email, token)).status).toBe(200)
  })

  it('applies the password rules of the specification', async () => {
    const { email, token } = await invited()
    const res = await validate(email, token, 'alllowercase1')
    expect(res.status).toBe(400)
    expect((await res.json()).detail).toEqual([
      { field: 'password', message: 'Password must contain at least one uppercase letter' },
    ])
    expect((await validate(email, token)).status).toBe(200) // a refused input spends nothing
  })
})

async function requestReset(email: string) {
  return ctx.post(createCookieJar(), '/auth/password/reset', { email })
}
async function resetLink(user: TestUser) {
  const mail = await ctx.mailer.waitFor(
    (m) => m.to === user.email && m.text.includes('/reset-password-confirm?') && !seen.has(m),
  )
  seen.add(mail)
  return linkParams(mail.text, '/reset-password-confirm')
}
const seen = new Set<unknown>()

/** Waits for the app to log a line (background work has no other observable end). */
async function logged(match: (line: Record<string, unknown>) => boolean) {
  await vi.waitFor(() => expect(ctx.logs.some(match)).toBe(true), { timeout: 2000, interval: 10 })
}
const confirmReset = (email: string, token: string, password = NEW_PASSWORD) =>
  ctx.post(createCookieJar(), '/auth/password/reset/confirm', { email, token, new_password: password })

describe('POST /api/auth/password/reset', () => {
  it('answers the same for an existing and an unknown e-mail, and mails only the existing one', async () => {
    const user = await insertUser(database.db)
    const ghost = `ghost-${Date.now()}@example.com`
    const before = ctx.mailer.messages.length
    const unknown = await requestReset(ghost)
    const known = await requestReset(user.email)
    expect(unknown.status).toBe(200)
    expect(known.status).toBe(200)
    const [a, b] = [await unknown.text(), await known.text()]
    expect(a).toBe(b)
    expect(JSON.parse(a)).toEqual({
      message: 'If an account exists for this e-mail address, a password reset link has been sent to it.',
    })
    const { url } = await resetLink(user)
    expect(url.origin + url.pathname).toBe(`${ctx.config.publicUrl}/reset-password-confirm`)
    // The unknown e-mail's background work started first and ends with its (empty) lookup.
    const sent = ctx.mailer.messages.slice(before)
    expect(sent.map((m) => m.to)).toEqual([user.email])
  })

  it('is waited for by app.settled() (what a shutdown awaits), although it answers first', async () => {
    const user = await insertUser(database.db)
    const answered = await requestReset(user.email)
    expect(answered.status).toBe(200)
    await ctx.app.settled()
    expect(
      ctx.mailer.messages.some((m) => m.to === user.email && m.text.includes('/reset-password-confirm?')),
    ).toBe(true)
  })

  it('mails nobody for a disabled user, and at most once a minute per account', async () => {
    const disabled = await insertUser(database.db, { enabled: false })
    const user = await insertUser(database.db)
    await requestReset(disabled.email)
    await requestReset(user.email)
    await resetLink(user)
    await requestReset(user.email)
    await logged(
      (line) =>
        line.msg === 'password reset mail skipped: one was sent less than a minute ago' &&
        line.userId === user.id,
    )
    ctx.clock.advance(61 * 1000)
    await requestReset(user.email)
    await resetLink(user)
    const to = (email: string) => ctx.mailer.messages.filter((m) => m.to === email).length
    expect(to(disabled.email)).toBe(0)
    expect(to(user.email)).toBe(2)
  })

  it('rejects an invalid e-mail with 400', async () => {
    expect((await requestReset('not-an-email')).status).toBe(400)
  })
})

describe('POST /api/auth/password/reset/confirm', () => {
  it('sets the new password and ends every session of the user', async () => {
    const user = await insertUser(database.db)
    const laptop = await signedIn(user.email, user.password)
    const phone = await signedIn(user.email, user.password)
    await requestReset(user.email)
    const { token, email } = await resetLink(user)
    const res = await confirmReset(email, token)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Password reset successfully' })
    expect(await isSignedIn(laptop)).toBe(false)
    expect(await isSignedIn(phone)).toBe(false)
    expect(await canLogIn(user.email, user.password)).toBe(false)
    expect(await canLogIn(user.email, NEW_PASSWORD)).toBe(true)
  })

  it('refuses a used token and a token after 1 hour', async () => {
    const user = await insertUser(database.db)
    await requestReset(user.email)
    const first = await resetLink(user)
    expect((await confirmReset(user.email, first.token)).status).toBe(200)
    const reuse = await confirmReset(user.email, first.token, 'Another-Pass9')
    expect(reuse.status).toBe(400)
    expect(await reuse.json()).toEqual({ message: 'Invalid or expired password reset link' })

    ctx.clock.advance(2 * 60 * 1000)
    await requestReset(user.email)
    const second = await resetLink(user)
    ctx.clock.advance(HOUR)
    expect((await confirmReset(user.email, second.token, 'Another-Pass9')).status).toBe(400)
    expect(await canLogIn(user.email, NEW_PASSWORD)).toBe(true)
  })

  it('lets exactly one of concurrent submissions of one token through', async () => {
    const user = await insertUser(database.db)
    await requestReset(user.email)
    const { token } = await resetLink(user)
    const results = await Promise.all([
      confirmReset(user.email, token, 'First-Pass9'),
      confirmReset(user.email, token, 'Second-Pass9'),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([200, 400])
    const winner = results[0]!.status === 200 ? 'First-Pass9' : 'Second-Pass9'
    expect(await canLogIn(user.email, winner)).toBe(true)
  })

  it('is valid just under an hour, and only for its own e-mail and purpose', async () => {
    const user = await insertUser(database.db)
    const other = await insertUser(database.db)
    await requestReset(user.email)
    const { token } = await resetLink(user)
    expect((await confirmReset(other.email, token)).status).toBe(400)
    // A reset token is not an activation token.
    expect((await validate(user.email, token)).status).toBe(400)
    ctx.clock.advance(HOUR - 1000)
    expect((await confirmReset(user.email, token)).status).toBe(200)
  })

  it('applies the password rules of the specification', async () => {
    const res = await confirmReset('a@example.com', 'A'.repeat(43), 'Short1')
    expect(res.status).toBe(400)
    expect((await res.json()).detail).toEqual([
      { field: 'new_password', message: 'Password must be at least 8 characters' },
    ])
  })
})

describe('POST /api/auth/password/change', () => {
  const change = (jar: Jar, body: unknown) => ctx.post(jar, '/auth/password/change', body)

  it('changes the password, keeps this session and ends the others', async () => {
    const user = await insertUser(database.db)
    const here = await signedIn(user.email, user.password)
    const elsewhere = await signedIn(user.email, user.password)
    const res = await change(here, { current_password: user.password, new_password: NEW_PASSWORD })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Password changed successfully' })
    expect(await isSignedIn(here)).toBe(true)
    expect(await isSignedIn(elsewhere)).toBe(false)
    expect(await canLogIn(user.email, user.password)).toBe(false)
    expect(await canLogIn(user.email, NEW_PASSWORD)).toBe(true)
  })

  it('answers 401 with a detail for a wrong current password, and changes nothing', async () => {
    const user = await insertUser(database.db)
    const jar = await signedIn(user.email, user.password)
    const res = await change(jar, { current_password: 'Wrong1234', new_password: NEW_PASSWORD })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({
      message: 'Current password is incorrect',
      detail: 'Current password is incorrect',
    })
    expect(await isSignedIn(jar)).toBe(true)
    expect(await canLogIn(user.email, user.password)).toBe(true)
  })

  it('answers 400 with the specification messages per field', async () => {
    const user = await insertUser(database.db)
    const jar = await signedIn(user.email, user.password)
    const res = await change(jar, { current_password: '', new_password: 'NOLOWER1' })
    expect(res.status).toBe(400)
    expect((await res.json()).detail).toEqual([
      { field: 'current_password', message: 'Current password is required' },
      { field: 'new_password', message: 'Password must contain at least one lowercase letter' },
    ])
  })

  it('needs a session', async () => {
    const res = await change(createCookieJar(), { current_password: 'Secret123', new_password: NEW_PASSWORD })
    expect(res.status).toBe(401)
  })

  it('locks after repeated wrong current passwords', async () => {
    const app = await createAccountTestApp(database.db)
    const user = await insertUser(database.db)
    const jar = createCookieJar()
    await app.post(jar, '/auth/login', { email: user.email, password: user.password })
    for (let i = 0; i < 5; i++) {
      const res = await app.post(jar, '/auth/password/change', {
        current_password: 'Wrong1234',
        new_password: NEW_PASSWORD,
      })
      expect(res.status).toBe(401)
    }
    const locked = await app.post(jar, '/auth/password/change', {
      current_password: user.password,
      new_password: NEW_PASSWORD,
    })
    expect(locked.status).toBe(429)
    expect(locked.headers.get('retry-after')).toBeTruthy()
    await app.cleanup()
  })
})

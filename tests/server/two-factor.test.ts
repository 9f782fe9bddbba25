import { eq } from 'drizzle-orm'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BackupCodes } from '../../contract/index.ts'
import { backupCodes, userTwoFactor } from '../../server/db/schema.ts'
import { createTwoFactorService } from '../../server/services/two-factor.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { createAccountTestApp, createCookieJar, type Jar, totpCode } from './auth-helpers.ts'
import { insertUser } from './helpers.ts'

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

const STEP = 30_000
type TestUser = Awaited<ReturnType<typeof insertUser>>

async function signedIn(user: TestUser, app = ctx): Promise<Jar> {
  const jar = createCookieJar()
  const res = await app.post(jar, '/auth/login', { email: user.email, password: user.password })
  expect(res.status).toBe(200)
  return jar
}

async function generate(jar: Jar, email: string, app = ctx) {
  const res = await app.post(jar, '/auth/generate-2fa', { email })
  expect(res.status).toBe(200)
  return {
    res,
    secret: res.headers.get('x-totp-secret')!,
    codes: v.parse(BackupCodes, JSON.parse(res.headers.get('x-backup-codes')!)),
  }
}

/** A user with 2FA on; the clock is moved past the setup code's step. */
async function userWith2fa(app = ctx) {
  const user = await insertUser(database.db)
  const jar = await signedIn(user, app)
  const { secret, codes } = await generate(jar, user.email, app)
  const res = await app.post(jar, '/auth/verify-2fa', {
    email: user.email,
    password: '',
    token: totpCode(secret, app.clock.now()),
    use_backup_code: false,
  })
  expect(res.status).toBe(200)
  app.clock.advance(5 * STEP)
  return { user, jar, secret, codes }
}

const complete = (
  user: TestUser,
  token: string,
  options: { jar?: Jar; password?: string; backup?: boolean; app?: typeof ctx } = {},
) =>
  (options.app ?? ctx).post(options.jar ?? createCookieJar(), '/auth/complete-2fa-login', {
    email: user.email,
    password: options.password ?? user.password,
    token,
    use_backup_code: options.backup ?? false,
  })

const loggedIn = async (jar: Jar) => (await jar.request(ctx.app, '/api/auth/logged-in')).json()

describe('POST /api/auth/generate-2fa', () => {
  it('answers a PNG QR code with the secret and ten backup codes in exposed headers', async () => {
    const user = await insertUser(database.db)
    const jar = await signedIn(user)
    const { res, secret, codes } = await generate(jar, user.email)
    expect(res.headers.get('content-type')).toBe('image/png')
    const png = new Uint8Array(await res.arrayBuffer())
    expect([...png.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    expect(secret).toMatch(/^[A-Z2-7]{32}$/) // 160 bits
    expect(codes).toHaveLength(10)
    expect(new Set(codes).size).toBe(10)
    for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/)
    expect(res.headers.get('access-control-expose-headers')).toBe('X-Backup-Codes, X-TOTP-Secret')
    expect(res.headers.get('cache-control')).toBe('no-store')
    // Only hashes are stored.
    const stored = await database.db.select().from(backupCodes).where(eq(backupCodes.userId, user.id))
    expect(stored).toHaveLength(10)
    for (const row of stored) {
      expect(row.pending).toBe(true)
      for (const code of codes) expect(row.codeHash).not.toContain(code.replace('-', ''))
    }
  })

  it('builds an RFC 6238 otpauth URI for DocFlow and the user', async () => {
    const user = await insertUser(database.db, { email: 'qr+code@example.com' })
    const service = createTwoFactorService({
      db: database.db,
      sessionSecret: 'x'.repeat(32),
      clock: ctx.clock.now,
    })
    const { uri, secret } = await service.beginSetup(user)
    const url = new URL(uri)
    expect(url.protocol).toBe('otpauth:')
    expect(uri.startsWith('otpauth://totp/DocFlow:qr%2Bcode%40example.com?')).toBe(true)
    expect(Object.fromEntries(url.searchParams)).toEqual({
      issuer: 'DocFlow',
      secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    })
  })

  it('needs a session, and the e-mail of the signed-in user', async () => {
    const user = await insertUser(database.db)
    expect((await ctx.post(createCookieJar(), '/auth/generate-2fa', { email: user.email })).status).toBe(401)
    const jar = await signedIn(user)
    const other = await ctx.post(jar, '/auth/generate-2fa', { email: 'someone-else@example.com' })
    expect(other.status).toBe(403)
    expect(await other.json()).toEqual({ message: 'The e-mail does not match the signed-in user' })
    const bad = await ctx.post(jar, '/auth/generate-2fa', { email: 'nope' })
    expect(bad.status).toBe(400)
    expect((await bad.json()).detail).toEqual([
      { field: 'email', message: 'Please enter a valid email address' },
    ])
  })

  it('refuses to replace an active secret (disable first)', async () => {
    const { user, jar } = await userWith2fa()
    const res = await ctx.post(jar, '/auth/generate-2fa', { email: user.email })
    expect(res.status).toBe(409)
  })
})

describe('POST /api/auth/verify-2fa', () => {
  it('keeps 2FA pending until a code from the new secret is verified', async () => {
    const user = await insertUser(database.db)
    const jar = await signedIn(user)
    const { secret } = await generate(jar, user.email)
    expect((await loggedIn(jar)).is_2fa_enabled).toBe(false)
    expect(await (await ctx.post(createCookieJar(), '/auth/login', user)).json()).toEqual({
      requires_2fa: false,
      should_setup_2fa: true,
    })
    // Pending backup codes do not sign anyone in.
    const wrong = await ctx.post(jar, '/auth/verify-2fa', {
      email: user.email,
      password: '',
      token: '000000',
    })
    expect(wrong.status).toBe(400)
    expect(await wrong.json()).toEqual({ message: 'Invalid verification code' })
    expect((await loggedIn(jar)).is_2fa_enabled).toBe(false)

    const ok = await ctx.post(jar, '/auth/verify-2fa', {
      email: user.email,
      password: '',
      token: totpCode(secret, ctx.clock.now()),
      use_backup_code: false,
    })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ message: 'Two-factor authentication enabled' })
    expect((await loggedIn(jar)).is_2fa_enabled).toBe(true)
    expect(await (await ctx.post(createCookieJar(), '/auth/login', user)).json()).toEqual({
      requires_2fa: true,
      should_setup_2fa: false,
    })
  })

  it('uses only the latest generated secret and backup codes', async () => {
    const user = await insertUser(database.db)
    const jar = await signedIn(user)
    const first = await generate(jar, user.email)
    const second = await generate(jar, user.email)
    expect(second.secret).not.toBe(first.secret)
    const stale = await ctx.post(jar, '/auth/verify-2fa', { token: totpCode(first.secret, ctx.clock.now()) })
    expect(stale.status).toBe(400)
    const ok = await ctx.post(jar, '/auth/verify-2fa', { token: totpCode(second.secret, ctx.clock.now()) })
    expect(ok.status).toBe(200)
    ctx.clock.advance(STEP)
    expect((await complete(user, first.codes[0]!, { backup: true })).status).toBe(401)
    expect((await complete(user, second.codes[0]!, { backup: true })).status).toBe(200)
  })

  it('confirms setup with the authenticator app only, not a backup code', async () => {
    const user = await insertUser(database.db)
    const jar = await signedIn(user)
    const { codes } = await generate(jar, user.email)
    const res = await ctx.post(jar, '/auth/verify-2fa', { token: codes[0], use_backup_code: true })
    expect(res.status).toBe(400)
    expect((await loggedIn(jar)).is_2fa_enabled).toBe(false)
  })

  it('applies the specification message to a short token', async () => {
    const user = await insertUser(database.db)
    const jar = await signedIn(user)
    const res = await ctx.post(jar, '/auth/verify-2fa', { token: '123' })
    expect(res.status).toBe(400)
    expect((await res.json()).detail).toEqual([
      { field: 'token', message: 'Token must be at least 6 characters' },
    ])
  })
})

describe('POST /api/auth/complete-2fa-login', () => {
  it('signs in with password and a current code, issuing a new session id', async () => {
    const { user, jar, secret } = await userWith2fa()
    const before = jar.get('sid')!
    const res = await complete(user, totpCode(secret, ctx.clock.now()), { jar })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Login successful' })
    expect(res.headers.get('set-cookie')).toMatch(/^sid=[A-Za-z0-9_-]{43};.*HttpOnly/)
    const after = jar.get('sid')!
    expect(after).not.toBe(before)
    expect((await loggedIn(jar)).email).toBe(user.email)
    const old = createCookieJar()
    old.set('sid', before)
    expect((await old.request(ctx.app, '/api/auth/logged-in')).status).toBe(401)
  })

  it('accepts the previous and next time-step, refuses two steps away', async () => {
    const { user, secret } = await userWith2fa()
    const now = ctx.clock.now()
    for (const steps of [-2, 2]) {
      const res = await complete(user, totpCode(secret, now, steps))
      expect(res.status).toBe(401)
    }
    // Strictly later steps each time: -1, then 0, then +1.
    for (const steps of [-1, 0, 1])
      expect((await complete(user, totpCode(secret, now, steps))).status).toBe(200)
  })

  it('accepts a code only once, and no earlier code after a later one', async () => {
    const { user, secret } = await userWith2fa()
    const now = ctx.clock.now()
    const code = totpCode(secret, now)
    expect((await complete(user, code)).status).toBe(200)
    const replay = await complete(user, code)
    expect(replay.status).toBe(401)
    expect(await replay.json()).toEqual({ message: 'Invalid email, password or code' })
    expect((await complete(user, totpCode(secret, now, 1))).status).toBe(200)
    expect((await complete(user, totpCode(secret, now, -1))).status).toBe(401)
    ctx.clock.advance(STEP * 2)
    expect((await complete(user, totpCode(secret, ctx.clock.now()))).status).toBe(200)
  })

  it('lets exactly one of two concurrent submissions of one code through', async () => {
    const { user, secret } = await userWith2fa()
    const code = totpCode(secret, ctx.clock.now())
    const results = await Promise.all([complete(user, code), complete(user, code), complete(user, code)])
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401])
  })

  it('lets exactly one of concurrent submissions of one backup code through', async () => {
    const { user, codes } = await userWith2fa()
    const results = await Promise.all([
      complete(user, codes[0]!, { backup: true }),
      complete(user, codes[0]!, { backup: true }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([200, 401])
  })

  it('accepts each backup code once, typed in any case and without the dash', async () => {
    const { user, codes } = await userWith2fa()
    const [first, second] = codes as [string, string]
    expect((await complete(user, first, { backup: true })).status).toBe(200)
    expect((await complete(user, first, { backup: true })).status).toBe(401)
    expect((await complete(user, second.replace('-', '').toLowerCase(), { backup: true })).status).toBe(200)
    const left = await database.db.select().from(backupCodes).where(eq(backupCodes.userId, user.id))
    expect(left).toHaveLength(8)
    // A backup code is not a TOTP code, nor the reverse.
    expect((await complete(user, codes[2]!, { backup: false })).status).toBe(401)
  })

  it('answers every failure the same way and spends no code behind a wrong password', async () => {
    const { user, secret } = await userWith2fa()
    const code = totpCode(secret, ctx.clock.now())
    const wrongPassword = await complete(user, code, { password: 'Wrong1234' })
    const wrongCode = await complete(user, '123456')
    const unknown = await ctx.post(createCookieJar(), '/auth/complete-2fa-login', {
      email: 'nobody@example.com',
      password: 'Wrong1234',
      token: '123456',
    })
    for (const res of [wrongPassword, wrongCode, unknown]) {
      expect(res.status).toBe(401)
      expect(res.headers.get('set-cookie')).toBeNull()
    }
    const bodies = await Promise.all([wrongPassword.text(), wrongCode.text(), unknown.text()])
    expect(new Set(bodies).size).toBe(1)
    expect((await complete(user, code)).status).toBe(200)
  })

  it('refuses a user without 2FA, and a disabled user', async () => {
    const plain = await insertUser(database.db)
    expect((await complete(plain, '123456')).status).toBe(401)
    const { user, secret } = await userWith2fa()
    const { setUserEnabled } = await import('./helpers.ts')
    await setUserEnabled(database.db, user.id, false)
    expect((await complete(user, totpCode(secret, ctx.clock.now()))).status).toBe(401)
  })

  it('applies the specification message to a short code', async () => {
    const res = await ctx.post(createCookieJar(), '/auth/complete-2fa-login', {
      email: 'a@example.com',
      password: 'x',
      token: '12345',
    })
    expect(res.status).toBe(400)
    expect((await res.json()).detail).toEqual([
      { field: 'token', message: 'Code must be at least 6 characters' },
    ])
  })
})

describe('POST /api/auth/disable-2fa', () => {
  it('needs a session and the password or a code', async () => {
    expect((await ctx.post(createCookieJar(), '/auth/disable-2fa', { password: 'x' })).status).toBe(401)
    const { user, jar } = await userWith2fa()
    expect((await ctx.post(jar, '/auth/disable-2fa', {})).status).toBe(400)
    const wrong = await ctx.post(jar, '/auth/disable-2fa', { password: 'Wrong1234' })
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toEqual({ message: 'Invalid password or code' })
    expect((await ctx.post(jar, '/auth/disable-2fa', { token: '000000' })).status).toBe(401)
    expect((await loggedIn(jar)).is_2fa_enabled).toBe(true)

    const ok = await ctx.post(jar, '/auth/disable-2fa', { password: user.password })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ message: 'Two-factor authentication disabled' })
    expect((await loggedIn(jar)).is_2fa_enabled).toBe(false)
    expect((await (await ctx.post(createCookieJar(), '/auth/login', user)).json()).requires_2fa).toBe(false)
    expect(await database.db.select().from(backupCodes).where(eq(backupCodes.userId, user.id))).toEqual([])
    const [row] = await database.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, user.id))
    expect(row?.secret).toBeNull()
  })

  it('accepts a current TOTP code or a backup code instead of the password', async () => {
    const a = await userWith2fa()
    const byCode = await ctx.post(a.jar, '/auth/disable-2fa', { token: totpCode(a.secret, ctx.clock.now()) })
    expect(byCode.status).toBe(200)
    const b = await userWith2fa()
    const byBackup = await ctx.post(b.jar, '/auth/disable-2fa', { token: b.codes[3], use_backup_code: true })
    expect(byBackup.status).toBe(200)
    expect((await loggedIn(b.jar)).is_2fa_enabled).toBe(false)
  })
})

describe('brute force on the 2FA paths', () => {
  it('locks the account after 5 wrong codes: 429 with Retry-After, even for the right code', async () => {
    const app = await createAccountTestApp(database.db)
    const { user, secret } = await userWith2fa(app)
    for (let i = 0; i < 5; i++) expect((await complete(user, '000000', { app })).status).toBe(401)
    const locked = await complete(user, totpCode(secret, app.clock.now()), { app })
    expect(locked.status).toBe(429)
    expect(await locked.json()).toEqual({ message: 'Too many attempts. Try again later.' })
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
    // The password step of the same account is locked too.
    expect((await app.post(createCookieJar(), '/auth/login', user)).status).toBe(429)
    app.clock.advance(15 * 60 * 1000)
    expect((await complete(user, totpCode(secret, app.clock.now()), { app })).status).toBe(200)
    await app.cleanup()
  })

  it('counts wrong codes on verify-2fa and disable-2fa against the account', async () => {
    const app = await createAccountTestApp(database.db)
    const user = await insertUser(database.db)
    const jar = await signedIn(user, app)
    const { secret } = await generate(jar, user.email, app)
    for (let i = 0; i < 3; i++)
      expect((await app.post(jar, '/auth/verify-2fa', { token: '000000' })).status).toBe(400)
    for (let i = 0; i < 2; i++)
      expect((await app.post(jar, '/auth/disable-2fa', { password: 'Wrong1234' })).status).toBe(401)
    const locked = await app.post(jar, '/auth/verify-2fa', { token: totpCode(secret, app.clock.now()) })
    expect(locked.status).toBe(429)
    expect(locked.headers.get('retry-after')).toBeTruthy()
    await app.cleanup()
  })
})

describe('stored TOTP secrets', () => {
  const stored = async (userId: number) =>
    (await database.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId)))[0]!

  it('are sealed: the database holds neither the pending nor the active secret in clear', async () => {
    const user = await insertUser(database.db)
    const jar = await signedIn(user)
    const { secret } = await generate(jar, user.email)
    expect((await stored(user.id)).pendingSecret).toMatch(/^v1:/)
    expect((await stored(user.id)).pendingSecret).not.toContain(secret)
    await ctx.post(jar, '/auth/verify-2fa', {
      email: user.email,
      password: '',
      token: totpCode(secret, ctx.clock.now()),
      use_backup_code: false,
    })
    const row = await stored(user.id)
    expect([row.pendingSecret, row.secret?.startsWith('v1:'), row.secret?.includes(secret)]).toEqual([
      null,
      true,
      false,
    ])
  })

  it('do not open in another user’s row', async () => {
    const { user, secret } = await userWith2fa()
    const { user: other } = await userWith2fa()
    await database.db
      .update(userTwoFactor)
      .set({ secret: (await stored(user.id)).secret })
      .where(eq(userTwoFactor.userId, other.id))
    expect((await complete(other, totpCode(secret, ctx.clock.now()))).status).toBe(401)
    expect((await complete(user, totpCode(secret, ctx.clock.now()))).status).toBe(200)
  })

  it('written in clear by an earlier version still work, and are sealed at the next accepted code', async () => {
    const { user, secret } = await userWith2fa()
    await database.db.update(userTwoFactor).set({ secret }).where(eq(userTwoFactor.userId, user.id))
    expect((await complete(user, totpCode(secret, ctx.clock.now()))).status).toBe(200)
    expect((await stored(user.id)).secret).toMatch(/^v1:/)
    ctx.clock.advance(STEP)
    expect((await complete(user, totpCode(secret, ctx.clock.now()))).status).toBe(200)
  })
})

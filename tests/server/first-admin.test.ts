import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { users } from '../../server/db/schema.ts'
import { ensureFirstAdmin } from '../../server/services/bootstrap.ts'
import { hashPassword } from '../../server/services/passwords.ts'
import { createFirstAdmin } from '../../server/services/users.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { createCookieJar, createTestApp, insertUser, jsonBody } from './helpers.ts'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createTestApp>>
const silent = pino({ level: 'silent' })

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createTestApp(database.db)
})
afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})
beforeEach(async () => {
  await database.db.delete(users)
})

const admin = { email: 'Root@Example.com', name: 'Grace', surname: 'Hopper', password: 'Admin1234' }
const setupStatus = async () => (await ctx.app.request('/api/auth/setup-status')).json()

describe('first platform administrator', () => {
  it('setup-status says a first administrator is needed until one exists', async () => {
    expect(await setupStatus()).toEqual({ needs_first_admin: true })
    // Ordinary users do not count.
    await insertUser(database.db, { role: 'INTERNAL_USER' })
    expect(await setupStatus()).toEqual({ needs_first_admin: true })
    await insertUser(database.db, { role: 'SAAS_ADMIN' })
    expect(await setupStatus()).toEqual({ needs_first_admin: false })
  })

  it('creates a validated SAAS_ADMIN once, then answers 409', async () => {
    const res = await ctx.app.request('/api/auth/create-first-saas-admin', jsonBody(admin))
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual({ message: 'Administrator created' })
    expect(res.headers.get('set-cookie')).toBeNull()
    const [row] = await database.db.select().from(users).where(eq(users.email, 'root@example.com'))
    expect(row).toMatchObject({ role: 'SAAS_ADMIN', validated: true, enabled: true, name: 'Grace' })
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(await setupStatus()).toEqual({ needs_first_admin: false })

    const again = await ctx.app.request(
      '/api/auth/create-first-saas-admin',
      jsonBody({ ...admin, email: 'other@example.com' }),
    )
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({ message: 'A platform administrator already exists' })

    // The new administrator can sign in.
    const jar = createCookieJar()
    const login = await jar.request(ctx.app, '/api/auth/login', jsonBody(admin))
    expect(login.status).toBe(200)
    expect((await (await jar.request(ctx.app, '/api/auth/logged-in')).json()).role).toBe('SAAS_ADMIN')
  })

  it('creates exactly one administrator when two calls race', async () => {
    const calls = await Promise.all(
      ['one@example.com', 'two@example.com', 'three@example.com'].map((email) =>
        ctx.app.request('/api/auth/create-first-saas-admin', jsonBody({ ...admin, email })),
      ),
    )
    expect(calls.map((r) => r.status).sort()).toEqual([201, 409, 409])
    const admins = await database.db.select().from(users).where(eq(users.role, 'SAAS_ADMIN'))
    expect(admins).toHaveLength(1)
  })

  it('lets only one of many simultaneous transactions create the administrator', async () => {
    // Hashing done up front so the transactions really overlap (on PostgreSQL: one connection each).
    const passwordHash = await hashPassword(admin.password)
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        createFirstAdmin(database.db, { ...admin, email: `racer${i}@example.com`, passwordHash }, 'no-admin'),
      ),
    )
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(1)
    expect(outcomes.filter((o) => o === 'admin-exists')).toHaveLength(7)
    expect(await database.db.select().from(users).where(eq(users.role, 'SAAS_ADMIN'))).toHaveLength(1)
  })

  it('applies the password rules', async () => {
    const res = await ctx.app.request(
      '/api/auth/create-first-saas-admin',
      jsonBody({ ...admin, password: 'alllowercase1' }),
    )
    expect(res.status).toBe(400)
    expect((await res.json()).detail).toEqual([
      { field: 'password', message: 'Password must contain at least one uppercase letter' },
    ])
    expect(await setupStatus()).toEqual({ needs_first_admin: true })
  })

  it('refuses an e-mail already used by an ordinary user', async () => {
    await insertUser(database.db, { email: 'root@example.com' })
    const res = await ctx.app.request('/api/auth/create-first-saas-admin', jsonBody(admin))
    expect(res.status).toBe(409)
  })
})

describe('ensureFirstAdmin (ADMIN_EMAIL / ADMIN_PASSWORD)', () => {
  const config = { adminEmail: 'Boot@Example.com', adminPassword: 'Admin1234' }

  it('creates the validated administrator Admin Admin when no user exists', async () => {
    expect(await ensureFirstAdmin(database.db, config, silent)).toBe('created')
    const rows = await database.db.select().from(users)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      email: 'boot@example.com',
      name: 'Admin',
      surname: 'Admin',
      role: 'SAAS_ADMIN',
      validated: true,
      enabled: true,
    })
    const jar = createCookieJar()
    const login = await jar.request(
      ctx.app,
      '/api/auth/login',
      jsonBody({ email: 'boot@example.com', password: 'Admin1234' }),
    )
    expect(login.status).toBe(200)
  })

  it('does nothing when a user already exists, or when the variables are not set', async () => {
    await insertUser(database.db)
    expect(await ensureFirstAdmin(database.db, config, silent)).toBe('skipped')
    await database.db.delete(users)
    expect(
      await ensureFirstAdmin(database.db, { adminEmail: undefined, adminPassword: undefined }, silent),
    ).toBe('skipped')
    expect(await database.db.select().from(users)).toHaveLength(0)
  })

  it('is idempotent across restarts', async () => {
    await ensureFirstAdmin(database.db, config, silent)
    expect(await ensureFirstAdmin(database.db, config, silent)).toBe('skipped')
    expect(await database.db.select().from(users)).toHaveLength(1)
  })

  it('throws an error naming ADMIN_PASSWORD when the password breaks the rules', async () => {
    await expect(
      ensureFirstAdmin(database.db, { ...config, adminPassword: 'short' }, silent),
    ).rejects.toThrow(/ADMIN_PASSWORD.*at least 8 characters/)
    await expect(ensureFirstAdmin(database.db, { ...config, adminEmail: 'nope' }, silent)).rejects.toThrow(
      /ADMIN_EMAIL/,
    )
    expect(await database.db.select().from(users)).toHaveLength(0)
  })
})

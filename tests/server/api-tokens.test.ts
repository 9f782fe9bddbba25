/**
 * Personal API tokens: created, listed and revoked by a signed-in browser; `Authorization: Bearer`
 * acts as the token's owner with the same company scoping, never manages tokens, passwords, 2FA or
 * users, and stops at its expiry or revocation. Real PGlite, the app's own middleware.
 */
import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiTokens } from '../../server/db/schema.ts'
import { hashApiToken } from '../../server/services/api-tokens.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import {
  type Actor,
  actor,
  createAdminTestApp,
  fileForm,
  insertCompany,
  PNG,
  send,
  TINY_PDF,
} from './admin-helpers.ts'
import { createClock, setUserEnabled } from './helpers.ts'

const YEAR_MS = 365 * 24 * 60 * 60 * 1000

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createAdminTestApp>>
const clock = createClock(new Date('2026-03-10T09:00:00Z'))
let companyA: { id: number }
let companyB: { id: number }
let alice: Actor
let admin: Actor

type Created = { id: number; name: string; token: string; expires_at: string }

async function createToken(
  owner: Actor,
  body: Record<string, unknown> = { name: 'Script' },
): Promise<Created> {
  const res = await send(owner.jar, ctx.app, 'POST', '/settings/api-tokens', body)
  expect(res.status).toBe(201)
  return (await res.json()) as Created
}

/** A request with only the bearer token (no cookie), as a script sends it. */
function bearer(token: string, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers)
  headers.set('Authorization', `Bearer ${token}`)
  return ctx.app.request(`/api${path}`, { ...init, headers })
}

const uploadInvoice = (token: string, companyId: number, headers: Record<string, string> = {}) =>
  bearer(token, '/documents/upload', {
    ...fileForm(
      { name: 'invoice.pdf', data: TINY_PDF, type: 'application/pdf' },
      { documentType: 'invoice', category: 'Invoices', company_id: String(companyId) },
    ),
    headers,
  })

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createAdminTestApp(database.db, { API_TOKEN_RATE: '40' }, { clock: clock.now })
  companyA = await insertCompany(database.db, 'Token Alpha')
  companyB = await insertCompany(database.db, 'Token Bravo')
  alice = await actor(database.db, ctx.app, {
    memberships: [{ companyId: companyA.id, role: 'COMPANY_USER' }],
  })
  admin = await actor(database.db, ctx.app, { role: 'SAAS_ADMIN' })
})

afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})

describe('managing tokens in a browser session', () => {
  it('shows the token once, lists it without the token and stores only its keyed hash', async () => {
    const created = await createToken(alice, { name: '  Nightly export  ' })
    expect(created.name).toBe('Nightly export')
    expect(created.token).toMatch(/^dft_[A-Za-z0-9_-]{43}$/)
    // No expiry given: a year from now.
    expect(Date.parse(created.expires_at) - clock.now().getTime()).toBeGreaterThanOrEqual(YEAR_MS)
    expect(Date.parse(created.expires_at)).toBe(Date.parse('2027-03-10T09:00:00Z'))

    const list = await send(alice.jar, ctx.app, 'GET', '/settings/api-tokens')
    expect(list.status).toBe(200)
    const text = await list.text()
    expect(text).not.toContain(created.token)
    const rows = JSON.parse(text) as Record<string, unknown>[]
    expect(rows.find((r) => r.id === created.id)).toEqual({
      id: created.id,
      name: 'Nightly export',
      created_at: clock.now().toISOString(),
      expires_at: created.expires_at,
      last_used_at: null,
    })

    const [stored] = await database.db.select().from(apiTokens).where(eq(apiTokens.id, created.id))
    expect(stored!.tokenHash).not.toContain(created.token)
    expect(stored!.tokenHash).not.toBe(createHash('sha256').update(created.token).digest('hex'))
    expect(stored!.tokenHash).toBe(hashApiToken(ctx.config.apiTokens.secret, created.token))
    expect(JSON.stringify(stored)).not.toContain(created.token.slice(4))
  })

  it('lists only the user’s own tokens', async () => {
    const own = await createToken(admin, { name: 'Admin script' })
    const rows = (await (await send(alice.jar, ctx.app, 'GET', '/settings/api-tokens')).json()) as {
      id: number
    }[]
    expect(rows.map((r) => r.id)).not.toContain(own.id)
  })

  it('takes an explicit expiry within a year and refuses others with the field named', async () => {
    const soon = await createToken(alice, { name: 'Short', expires_at: '2026-04-01' })
    expect(soon.expires_at).toBe('2026-04-01T00:00:00.000Z')
    const cases: [unknown, string][] = [
      ['2026-03-10', 'Expiry must be in the future'],
      ['2027-03-10T09:00:01Z', 'Expiry must be at most one year away'],
      ['next week', 'Expiry must be an ISO date'],
      ['2026-02-30x', 'Expiry must be an ISO date'],
      ['2026-04-31', 'Expiry must be an ISO date'],
      [42, 'Expiry must be an ISO date'],
    ]
    for (const [expires_at, message] of cases) {
      const res = await send(alice.jar, ctx.app, 'POST', '/settings/api-tokens', { name: 'x', expires_at })
      expect(res.status, String(expires_at)).toBe(400)
      expect(await res.json()).toEqual({
        message: 'Invalid input',
        detail: [{ field: 'expires_at', message }],
      })
    }
    for (const [name, message] of [
      ['   ', 'Token name is required'],
      ['x'.repeat(101), 'Token name must be at most 100 characters'],
      ['bad\u202Ename', 'Must not contain control characters'],
    ] as const) {
      const res = await send(alice.jar, ctx.app, 'POST', '/settings/api-tokens', { name })
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ message: 'Invalid input', detail: [{ field: 'name', message }] })
    }
  })

  it('revokes a token of the user’s own (204), then answers 404; another user’s token is not found', async () => {
    const created = await createToken(alice)
    const other = await createToken(admin)
    expect((await send(alice.jar, ctx.app, 'DELETE', `/settings/api-tokens/${other.id}`)).status).toBe(404)
    const res = await send(alice.jar, ctx.app, 'DELETE', `/settings/api-tokens/${created.id}`)
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
    expect((await send(alice.jar, ctx.app, 'DELETE', `/settings/api-tokens/${created.id}`)).status).toBe(404)
    expect((await bearer(created.token, '/auth/logged-in')).status).toBe(401)
    expect((await bearer(other.token, '/auth/logged-in')).status).toBe(200)
  })

  it('needs a signed-in user', async () => {
    const res = await ctx.app.request('/api/settings/api-tokens')
    expect(res.status).toBe(401)
  })
})

describe('a bearer token', () => {
  it('acts as its user: uploads to and reads the user’s company, 404 for another company', async () => {
    const { token, id: tokenId } = await createToken(alice)
    const me = await bearer(token, '/auth/logged-in')
    expect(me.status).toBe(200)
    // The request log names the token by its id, never the token itself.
    const logged = ctx.logs.filter((l) => l.msg === 'request' && l.apiTokenId === tokenId)
    expect(logged.map((l) => l.path)).toEqual(['/api/auth/logged-in'])
    expect(JSON.stringify(ctx.logs)).not.toContain(token)
    expect(((await me.json()) as { email: string }).email).toBe(alice.user.email)

    const upload = await uploadInvoice(token, companyA.id)
    expect(upload.status).toBe(201)
    const { id } = (await upload.json()) as { id: number }
    const status = await bearer(token, `/api/document/invoice/${id}/status?company_id=${companyA.id}`)
    expect(status.status).toBe(200)
    expect(((await status.json()) as { id: number }).id).toBe(id)

    expect((await uploadInvoice(token, companyB.id)).status).toBe(404)
    expect((await bearer(token, `/api/document/invoice/${id}/status?company_id=${companyB.id}`)).status).toBe(
      404,
    )
    // A document of another company, asked for under that company: 404 too.
    const { token: adminToken } = await createToken(admin)
    const theirs = (await (await uploadInvoice(adminToken, companyB.id)).json()) as { id: number }
    expect((await bearer(token, `/invoices/${theirs.id}?company_id=${companyB.id}`)).status).toBe(404)
    expect((await bearer(token, `/invoices/${theirs.id}?company_id=${companyA.id}`)).status).toBe(404)
  })

  it('is not held to the origin check (it carries no cookie); a cookie request still is', async () => {
    const { token } = await createToken(alice)
    const evil = { Origin: 'https://evil.example' }
    expect((await uploadInvoice(token, companyA.id, evil)).status).toBe(201)
    const withCookie = await alice.jar.request(ctx.app, '/api/documents/upload', {
      ...fileForm(
        { name: 'invoice.pdf', data: TINY_PDF, type: 'application/pdf' },
        { documentType: 'invoice', category: 'Invoices', company_id: String(companyA.id) },
      ),
      headers: evil,
    })
    expect(withCookie.status).toBe(403)
  })

  it('cannot manage tokens, change the password or 2FA, or administer users (403)', async () => {
    const { token, id } = await createToken(alice)
    const { token: adminToken } = await createToken(admin)
    const json = (body: unknown): RequestInit => ({
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
    const refused: [string, string, RequestInit][] = [
      [token, '/settings/api-tokens', {}],
      [token, '/settings/api-tokens', json({ name: 'successor' })],
      [token, `/settings/api-tokens/${id}`, { method: 'DELETE' }],
      [
        token,
        '/auth/password/change',
        json({ current_password: alice.user.password, new_password: 'Newpass123' }),
      ],
      [token, '/auth/generate-2fa', json({})],
      [token, '/auth/verify-2fa', json({ token: '123456' })],
      [token, '/auth/disable-2fa', json({ password: alice.user.password })],
      [token, '/admin/users', {}],
      // A platform administrator's token does not administer either.
      [adminToken, '/admin/users', {}],
      [adminToken, '/admin/company', json({ name: 'Made by a script' })],
      [adminToken, '/admin/user/status', json({ user_email: alice.user.email, enabled: false })],
      [adminToken, `/companies/company/logo/${companyA.id}`, fileForm({ name: 'logo.png', data: PNG })],
    ]
    for (const [t, path, init] of refused) {
      const res = await bearer(t, path, init)
      expect(res.status, `${init.method ?? 'GET'} ${path}`).toBe(403)
      expect(await res.json()).toEqual({ message: 'Not allowed with an API token' })
    }
    // Nothing changed: the password still signs in, the token still works, the list is as it was.
    const still = await bearer(token, '/auth/logged-in')
    expect(still.status).toBe(200)
    expect(((await still.json()) as { enabled: boolean }).enabled).toBe(true)
    // The same administrator in a browser session is allowed.
    expect((await send(admin.jar, ctx.app, 'GET', '/admin/users')).status).toBe(200)
  })

  it('never falls back to the cookie: a bad token with a valid session cookie answers 401', async () => {
    const res = await alice.jar.request(ctx.app, '/api/auth/logged-in', {
      headers: { Authorization: 'Bearer dft_not-a-real-token' },
    })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ message: 'Invalid API token' })
  })

  it('records its last use at most once a minute', async () => {
    const { token, id } = await createToken(alice)
    const lastUsed = async () =>
      (await database.db.select().from(apiTokens).where(eq(apiTokens.id, id)))[0]!.lastUsedAt
    await bearer(token, '/auth/logged-in')
    const first = await lastUsed()
    expect(first).toEqual(clock.now())
    clock.advance(30_000)
    await bearer(token, '/auth/logged-in')
    expect(await lastUsed()).toEqual(first)
    clock.advance(31_000)
    await bearer(token, '/auth/logged-in')
    expect(await lastUsed()).toEqual(clock.now())
  })

  it('stops when its user is disabled', async () => {
    const bob = await actor(database.db, ctx.app, {
      memberships: [{ companyId: companyA.id, role: 'COMPANY_USER' }],
    })
    const { token } = await createToken(bob)
    await setUserEnabled(database.db, bob.user.id, false)
    expect((await bearer(token, '/auth/logged-in')).status).toBe(401)
  })

  it('expires: 401 "API token expired" from its expiry on', async () => {
    const inAnHour = new Date(clock.now().getTime() + 3_600_000).toISOString()
    const { token } = await createToken(alice, { name: 'Short', expires_at: inAnHour })
    expect((await bearer(token, '/auth/logged-in')).status).toBe(200)
    clock.advance(3_600_000)
    const res = await bearer(token, '/auth/logged-in')
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ message: 'API token expired' })
  })
})

describe('bearer rate limits', () => {
  it('limits the requests of one token per minute (429 with Retry-After)', async () => {
    // Signed in again: the clock moved past the earlier sessions' lifetime in other tests.
    const carol = await actor(database.db, ctx.app, {
      memberships: [{ companyId: companyA.id, role: 'COMPANY_USER' }],
    })
    const { token } = await createToken(carol)
    const statuses: number[] = []
    for (let i = 0; i < 40; i++) statuses.push((await bearer(token, '/auth/logged-in')).status)
    expect(statuses.every((s) => s === 200)).toBe(true)
    const over = await bearer(token, '/auth/logged-in')
    expect(over.status).toBe(429)
    expect(Number(over.headers.get('Retry-After'))).toBeGreaterThan(0)
    // Another token of the same user has its own budget; the next minute this one works again.
    const { token: second } = await createToken(carol)
    expect((await bearer(second, '/auth/logged-in')).status).toBe(200)
    clock.advance(60_000)
    expect((await bearer(token, '/auth/logged-in')).status).toBe(200)
  })

  it('refuses a client that keeps sending unknown tokens', async () => {
    // A fresh 15-minute window: the failures of the tests above do not count.
    clock.advance(16 * 60_000)
    const statuses: number[] = []
    for (let i = 0; i < 21; i++)
      statuses.push((await bearer(`dft_${'x'.repeat(43)}`, '/auth/logged-in')).status)
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true)
    expect(statuses[20]).toBe(429)
    // A valid token from the same address is not locked out.
    const { token } = await createToken(alice)
    expect((await bearer(token, '/auth/logged-in')).status).toBe(200)
  })
})

/**
 * Cross-site request forgery: a page of the same site (another port of the same host) holding
 * the administrator's cookie must not be able to change anything. `app.request` sends no
 * Origin unless told, like curl; each test adds the headers a browser would.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { companies, documents, sessions, users } from '../../server/db/schema.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import {
  type Actor,
  actor,
  createAdminTestApp,
  fileForm,
  insertCompany,
  PNG,
  TINY_PDF,
} from './admin-helpers.ts'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createAdminTestApp>>
let admin: Actor
let acme: { id: number }

/** PUBLIC_URL; `app.request` addresses the server as http://localhost (its own origin). */
const PUBLIC_URL = 'https://docflow.example.com'
const SAME_SITE_OTHER_PORT = 'http://localhost:8080'
const OWN_ORIGIN = 'http://localhost'

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createAdminTestApp(database.db, { PUBLIC_URL })
  acme = await insertCompany(database.db, 'Acme Corp')
  admin = await actor(database.db, ctx.app, { role: 'SAAS_ADMIN' })
})
afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})

let counter = 0
const invitation = () => ({
  email: `csrf-${++counter}@example.com`,
  name: 'Mallory',
  surname: 'Planted',
  role: 'SAAS_ADMIN',
  companies: [],
})
const userExists = async (email: string) =>
  (await database.db.select().from(users).where(eq(users.email, email))).length > 0
const documentCount = async () =>
  (await database.db.select().from(documents).where(eq(documents.companyId, acme.id))).length

/** What a `<form>` or `fetch(..., {mode: 'no-cors'})` on another page can send: text/plain JSON. */
const plainInvite = (body: unknown, headers: Record<string, string>) =>
  admin.jar.request(ctx.app, '/api/admin/invite-user/', {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain;charset=UTF-8', ...headers },
    body: JSON.stringify(body),
  })
const jsonInvite = (body: unknown, headers: Record<string, string>) =>
  admin.jar.request(ctx.app, '/api/admin/invite-user/', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

describe('requests from another origin', () => {
  it.each([
    ['Origin of another port of the same host', { Origin: SAME_SITE_OTHER_PORT }],
    ['Sec-Fetch-Site: same-site without Origin', { 'Sec-Fetch-Site': 'same-site' }],
    ['Sec-Fetch-Site: cross-site without Origin', { 'Sec-Fetch-Site': 'cross-site' }],
    ['Origin: null (sandboxed frame)', { Origin: 'null' }],
    ['an Origin only prefixed by the public one', { Origin: `${PUBLIC_URL}.evil.test` }],
    ['the public host over the other scheme', { Origin: 'http://docflow.example.com' }],
  ])(
    'refuses a text/plain invitation of an administrator with %s (403), creating nobody',
    async (_, headers) => {
      for (const send of [plainInvite, jsonInvite]) {
        const body = invitation()
        const res = await send(body, headers)
        expect(res.status).toBe(403)
        expect(await res.json()).toEqual({ message: 'Cross-origin request refused' })
        expect(await userExists(body.email)).toBe(false)
      }
    },
  )

  it('refuses a multipart upload and a logo upload from another origin, storing nothing', async () => {
    const before = await documentCount()
    const upload = await admin.jar.request(ctx.app, '/api/documents/upload', {
      ...fileForm(
        { name: 'planted.pdf', data: TINY_PDF, type: 'application/pdf' },
        { documentType: 'document', category: 'RH', company_id: String(acme.id) },
      ),
      headers: { Origin: SAME_SITE_OTHER_PORT },
    })
    expect(upload.status).toBe(403)
    expect(await documentCount()).toBe(before)

    const logo = await admin.jar.request(ctx.app, `/api/companies/company/logo/${acme.id}`, {
      ...fileForm({ name: 'logo.png', data: PNG, type: 'image/png' }),
      headers: { Origin: SAME_SITE_OTHER_PORT },
    })
    expect(logo.status).toBe(403)
    const [row] = await database.db.select().from(companies).where(eq(companies.id, acme.id))
    expect(row?.logoPath).toBeNull()
  })

  it('refuses a forged logout, which leaves the session alive', async () => {
    const victim = await actor(database.db, ctx.app)
    const res = await victim.jar.request(ctx.app, '/api/auth/logout', {
      method: 'POST',
      headers: { Origin: SAME_SITE_OTHER_PORT },
    })
    expect(res.status).toBe(403)
    expect(
      (await database.db.select().from(sessions).where(eq(sessions.userId, victim.user.id))).length,
    ).toBe(1)
    expect((await victim.jar.request(ctx.app, '/api/auth/logged-in')).status).toBe(200)
  })

  it('lets reads through: a GET is not state-changing (and its answer is not readable cross-origin)', async () => {
    const res = await admin.jar.request(ctx.app, '/api/auth/logged-in', {
      headers: { Origin: SAME_SITE_OTHER_PORT, 'Sec-Fetch-Site': 'same-site' },
    })
    expect(res.status).toBe(200)
  })
})

describe('requests from the app itself', () => {
  it.each([
    ['PUBLIC_URL', { Origin: PUBLIC_URL }],
    ['the origin the request addressed (Host)', { Origin: OWN_ORIGIN }],
    ['Sec-Fetch-Site: same-origin without Origin', { 'Sec-Fetch-Site': 'same-origin' }],
    ['neither header (curl, server to server)', {}],
  ])('accepts a JSON invitation with %s', async (_, headers) => {
    const body = invitation()
    const res = await jsonInvite(body, headers)
    expect(res.status).toBe(201)
    expect(await userExists(body.email)).toBe(true)
  })

  it('accepts a multipart upload with the right Origin', async () => {
    const before = await documentCount()
    const res = await admin.jar.request(ctx.app, '/api/documents/upload', {
      ...fileForm(
        { name: 'ok.pdf', data: TINY_PDF, type: 'application/pdf' },
        { documentType: 'document', category: 'RH', company_id: String(acme.id) },
      ),
      headers: { Origin: PUBLIC_URL },
    })
    expect(res.status).toBeLessThan(300)
    expect(await documentCount()).toBe(before + 1)
  })

  it('accepts the origins of TRUSTED_ORIGINS (a browser app served elsewhere), and only those', async () => {
    const other = await createAdminTestApp(database.db, {
      PUBLIC_URL,
      TRUSTED_ORIGINS: 'https://app.example.com, http://localhost:5173/',
    })
    const logout = (origin: string) =>
      other.app.request('/api/auth/logout', { method: 'POST', headers: { Origin: origin } })
    expect((await logout('https://app.example.com')).status).toBe(200)
    expect((await logout('http://localhost:5173')).status).toBe(200)
    expect((await logout('https://evil.example.com')).status).toBe(403)
    await other.cleanup()
  })
})

describe('content types', () => {
  const post = (path: string, init: RequestInit) =>
    admin.jar.request(ctx.app, path, {
      method: 'POST',
      ...init,
      headers: { Origin: PUBLIC_URL, ...init.headers },
    })

  it('answers 415 to a JSON route given text/plain, a form or a typeless body, creating nobody', async () => {
    const form = new URLSearchParams({
      email: 'form@example.com',
      name: 'F',
      surname: 'F',
      role: 'SAAS_ADMIN',
    })
    const typeless = JSON.stringify(invitation())
    const bodies: RequestInit[] = [
      { headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify(invitation()) },
      { body: form },
      { body: new Blob([typeless]), headers: { 'Content-Length': String(typeless.length) } },
      { body: fileForm(null, { email: 'multi@example.com' }).body },
    ]
    for (const init of bodies) {
      const res = await post('/api/admin/invite-user/', init)
      expect(res.status).toBe(415)
      expect(await res.json()).toEqual({ message: 'Unsupported content type: expected application/json' })
    }
    expect(await userExists('form@example.com')).toBe(false)
    expect(await userExists('multi@example.com')).toBe(false)
    expect(await userExists(JSON.parse(typeless).email)).toBe(false)
  })

  it('answers 415 to an upload that is not multipart/form-data', async () => {
    const res = await post('/api/documents/upload', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ documentType: 'document', company_id: acme.id }),
    })
    expect(res.status).toBe(415)
    expect(await res.json()).toEqual({ message: 'Unsupported content type: expected multipart/form-data' })
  })

  it('accepts JSON with parameters and bodiless requests (DELETE, logout as the app sends it)', async () => {
    const body = invitation()
    const res = await post('/api/admin/invite-user/', {
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify(body),
    })
    expect(res.status).toBe(201)
    const company = await insertCompany(database.db, 'To delete')
    const deleted = await admin.jar.request(ctx.app, `/api/admin/company/${company.id}`, {
      method: 'DELETE',
      headers: { Origin: PUBLIC_URL, 'Content-Length': '0' },
    })
    expect(deleted.status).toBe(200)
    const victim = await actor(database.db, ctx.app)
    const logout = await victim.jar.request(ctx.app, '/api/auth/logout', {
      method: 'POST',
      headers: { Origin: PUBLIC_URL, 'Content-Length': '0' },
    })
    expect(logout.status).toBe(200)
  })
})

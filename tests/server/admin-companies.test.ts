import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOGO_MAX_BYTES } from '../../contract/index.ts'
import { companies, documents, logs } from '../../server/db/schema.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import {
  type Actor,
  actor,
  addMember,
  createAdminTestApp,
  fileForm,
  GIF,
  insertCompany,
  JPEG,
  PNG,
  send,
  TINY_PDF,
} from './admin-helpers.ts'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createAdminTestApp>>
let admin: Actor
let companyAdmin: Actor
let plain: Actor
let acme: { id: number }
let globex: { id: number }

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createAdminTestApp(database.db)
  acme = await insertCompany(database.db, 'Acme Corp')
  globex = await insertCompany(database.db, 'Globex 100%_Real')
  admin = await actor(database.db, ctx.app, {
    role: 'SAAS_ADMIN',
    memberships: [{ companyId: acme.id, role: 'COMPANY_ADMIN' }],
  })
  companyAdmin = await actor(database.db, ctx.app, {
    memberships: [{ companyId: acme.id, role: 'COMPANY_ADMIN' }],
  })
  plain = await actor(database.db, ctx.app, { memberships: [{ companyId: acme.id, role: 'COMPANY_USER' }] })
})
afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})

const adminCall = (method: string, path: string, body?: unknown) =>
  send(admin.jar, ctx.app, method, path, body)

describe('company listing', () => {
  it('lists every company with its users and the admin / other-user counts', async () => {
    const res = await adminCall('GET', '/admin/company')
    expect(res.status).toBe(200)
    const list = await res.json()
    const a = list.find((c: { id: number }) => c.id === acme.id)
    expect(a).toMatchObject({
      name: 'Acme Corp',
      enabled: true,
      invoice_scanner: null,
      logo_path: null,
      admin_count: 2,
      other_user_count: 1,
    })
    expect(a.users.map((u: { email: string }) => u.email).sort()).toEqual(
      [admin.user.email, companyAdmin.user.email, plain.user.email].sort(),
    )
    expect(a.users[0]).toHaveProperty('company_role')
    expect(a.users[0]).not.toHaveProperty('password_hash')
    expect(JSON.stringify(list)).not.toMatch(/argon2|passwordHash/)
  })

  it('returns one company, and 404 for an unknown or malformed id', async () => {
    expect((await (await adminCall('GET', `/admin/company/${globex.id}`)).json()).name).toBe(
      'Globex 100%_Real',
    )
    expect((await adminCall('GET', '/admin/company/999999')).status).toBe(404)
    const bad = await adminCall('GET', '/admin/company/abc')
    expect(bad.status).toBe(400)
  })

  it('searches by name, case-insensitively, with LIKE wildcards taken literally', async () => {
    const names = async (term: string) =>
      (await (await adminCall('GET', `/admin/company/search/${encodeURIComponent(term)}`)).json()).map(
        (c: { name: string }) => c.name,
      )
    expect(await names('acme')).toEqual(['Acme Corp'])
    expect(await names('%_')).toEqual(['Globex 100%_Real'])
    expect(await names('nothing-like-this')).toEqual([])
  })

  it('refuses every administration call to non-administrators (403) and to anonymous callers (401)', async () => {
    for (const who of [companyAdmin, plain]) {
      const res = await send(who.jar, ctx.app, 'GET', '/admin/company')
      expect(res.status).toBe(403)
      expect((await res.json()).message).toMatch(/platform administrator/)
    }
    expect((await ctx.app.request('/api/admin/company')).status).toBe(401)
  })
})

describe('company creation and update', () => {
  it('creates a company with a name only', async () => {
    const res = await adminCall('POST', '/admin/company', { name: '  Initech  ' })
    expect(res.status).toBe(201)
    const body = await res.json()
    expect(body).toMatchObject({
      name: 'Initech',
      enabled: true,
      users: [],
      admin_count: 0,
      other_user_count: 0,
    })
    expect(body.id).toBeGreaterThan(0)
  })

  it('refuses a short or missing name with the specification message', async () => {
    for (const payload of [{ name: 'A' }, {}, { name: 42 }]) {
      const res = await adminCall('POST', '/admin/company', payload)
      expect(res.status).toBe(400)
      expect((await res.json()).detail).toEqual([
        { field: 'name', message: 'Name must be at least 2 characters' },
      ])
    }
  })

  it('refuses a name another company already has (409)', async () => {
    expect((await adminCall('POST', '/admin/company', { name: 'ACME CORP' })).status).toBe(409)
  })

  it('lets exactly one of concurrent creations and renames to one name through', async () => {
    const names = Array.from({ length: 12 }, (_, i) => (i % 2 ? 'RACE LTD' : 'Race Ltd'))
    const created = await Promise.all(names.map((name) => adminCall('POST', '/admin/company', { name })))
    expect(created.map((r) => r.status).sort()).toEqual([201, ...names.slice(1).map(() => 409)])
    const [a, b] = await Promise.all([
      insertCompany(database.db, 'Rename A'),
      insertCompany(database.db, 'Rename B'),
    ])
    const renamed = await Promise.all(
      [a!, b!].map((company) => adminCall('PUT', `/admin/company/${company.id}`, { name: 'Renamed Twin' })),
    )
    expect(renamed.map((r) => r.status).sort()).toEqual([200, 409])
  })

  it('updates the fields, clears them with null or an empty string, and keeps absent ones', async () => {
    const company = await insertCompany(database.db, 'Umbrella')
    const res = await adminCall('PUT', `/admin/company/${company.id}`, {
      name: 'Umbrella Corp',
      invoice_scanner: 'Invoices@Umbrella.example',
      expense_scanner: 'expenses@umbrella.example',
      monday_link: 'https://umbrella.monday.com/boards/1',
      powerbi_link: 'https://app.powerbi.com/view?r=abc',
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      name: 'Umbrella Corp',
      invoice_scanner: 'invoices@umbrella.example',
      monday_link: 'https://umbrella.monday.com/boards/1',
    })
    const cleared = await (
      await adminCall('PUT', `/admin/company/${company.id}`, { monday_link: '', powerbi_link: null })
    ).json()
    expect(cleared).toMatchObject({
      name: 'Umbrella Corp',
      expense_scanner: 'expenses@umbrella.example',
      monday_link: null,
      powerbi_link: null,
    })
  })

  it('refuses scanners that are not e-mails and links that are not http(s), naming each field', async () => {
    const res = await adminCall('PUT', `/admin/company/${acme.id}`, {
      name: 'X',
      invoice_scanner: 'not-an-email',
      expense_scanner: 12,
      monday_link: 'javascript:alert(1)',
      powerbi_link: 'ftp://files.example/report',
    })
    expect(res.status).toBe(400)
    const { detail } = await res.json()
    expect(detail).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'Name must be at least 2 characters' },
        { field: 'invoice_scanner', message: 'Invalid email address' },
        { field: 'expense_scanner', message: 'Invalid email address' },
        { field: 'monday_link', message: 'Must be an http:// or https:// address' },
        { field: 'powerbi_link', message: 'Must be an http:// or https:// address' },
      ]),
    )
    const [row] = await database.db.select().from(companies).where(eq(companies.id, acme.id))
    expect(row!.mondayLink).toBeNull()
  })

  it('answers 404 when updating an unknown company', async () => {
    expect((await adminCall('PUT', '/admin/company/999999', { name: 'Ghost' })).status).toBe(404)
  })
})

describe('company status', () => {
  it('disables and enables a company the administrator does not belong to', async () => {
    const company = await insertCompany(database.db, 'Hooli')
    const off = await adminCall('POST', `/admin/company/${company.id}/status`, { enabled: false })
    expect(off.status).toBe(200)
    expect((await off.json()).enabled).toBe(false)
    const on = await adminCall('POST', `/admin/company/${company.id}/status`, { enabled: true })
    expect((await on.json()).enabled).toBe(true)
  })

  it('refuses to deactivate a company the administrator belongs to', async () => {
    const res = await adminCall('POST', `/admin/company/${acme.id}/status`, { enabled: false })
    expect(res.status).toBe(403)
    expect((await res.json()).message).toBe('You cannot deactivate your own company')
    const [row] = await database.db.select().from(companies).where(eq(companies.id, acme.id))
    expect(row!.enabled).toBe(true)
  })

  it('refuses a status that is not a boolean', async () => {
    const res = await adminCall('POST', `/admin/company/${globex.id}/status`, { enabled: 'no' })
    expect(res.status).toBe(400)
    expect((await res.json()).detail[0].field).toBe('enabled')
  })

  it('closes a disabled company to its members, not to platform administrators', async () => {
    const company = await insertCompany(database.db, 'Closing Soon')
    const member = await actor(database.db, ctx.app, {
      memberships: [{ companyId: company.id, role: 'COMPANY_ADMIN' }],
    })
    const listBefore = await (await send(member.jar, ctx.app, 'GET', '/users/companies')).json()
    expect(listBefore.map((c: { id: number }) => c.id)).toEqual([company.id])
    await adminCall('POST', `/admin/company/${company.id}/status`, { enabled: false })
    expect(await (await send(member.jar, ctx.app, 'GET', '/users/companies')).json()).toEqual([])
    // The signed-in user's own view no longer lists it either.
    const me = await (await send(member.jar, ctx.app, 'GET', '/auth/logged-in')).json()
    expect([me.companies, me.company_id]).toEqual([[], null])
    expect((await send(member.jar, ctx.app, 'GET', `/logs?company_id=${company.id}`)).status).toBe(404)
    expect((await adminCall('GET', `/logs?company_id=${company.id}`)).status).toBe(200)
  })
})

describe('company deletion', () => {
  it('deletes an empty company, with its logo file', async () => {
    const company = await insertCompany(database.db, 'Short Lived')
    const upload = await admin.jar.request(
      ctx.app,
      `/api/companies/company/logo/${company.id}`,
      fileForm({ name: 'l.png', data: PNG }),
    )
    expect(upload.status).toBe(200)
    const [row] = await database.db.select().from(companies).where(eq(companies.id, company.id))
    const key = row!.logoPath!
    expect(await ctx.storage.stat(key)).not.toBeNull()
    const res = await adminCall('DELETE', `/admin/company/${company.id}`)
    expect(res.status).toBe(200)
    expect((await res.json()).message).toBe('Company deleted successfully')
    expect(await database.db.select().from(companies).where(eq(companies.id, company.id))).toEqual([])
    expect(await ctx.storage.stat(key)).toBeNull()
    expect((await adminCall('DELETE', `/admin/company/${company.id}`)).status).toBe(404)
  })

  it('refuses (409) while the company has users', async () => {
    const res = await adminCall('DELETE', `/admin/company/${acme.id}`)
    expect(res.status).toBe(409)
    expect((await res.json()).detail).toMatchObject({ users: 3 })
  })

  it('refuses (409) while the company has documents or log entries, and removes nothing', async () => {
    const company = await insertCompany(database.db, 'Has Records')
    const uploader = await actor(database.db, ctx.app, {
      memberships: [{ companyId: company.id, role: 'COMPANY_USER' }],
    })
    const upload = await uploader.jar.request(
      ctx.app,
      '/api/documents/upload',
      fileForm(
        { name: 'contract.pdf', data: TINY_PDF },
        { documentType: 'document', category: 'RH', company_id: String(company.id) },
      ),
    )
    expect(upload.status).toBe(201)
    await adminCall(
      'DELETE',
      `/admin/user-company?user_email=${uploader.user.email}&company_id=${company.id}`,
    )
    const res = await adminCall('DELETE', `/admin/company/${company.id}`)
    expect(res.status).toBe(409)
    expect((await res.json()).detail).toEqual({ users: 0, documents: 1, logs: 1 })
    expect(
      await database.db.select().from(documents).where(eq(documents.companyId, company.id)),
    ).toHaveLength(1)
    expect(await database.db.select().from(logs).where(eq(logs.companyId, company.id))).toHaveLength(1)
  })
})

describe('company logos', () => {
  const upload = (
    jar: Actor['jar'],
    id: number,
    file: { name: string; data: Uint8Array; type?: string } | null,
  ) => jar.request(ctx.app, `/api/companies/company/logo/${id}`, fileForm(file))

  it.each([
    ['PNG', 'logo.png', PNG, 'image/png'],
    ['JPEG', 'logo.jpg', JPEG, 'image/jpeg'],
    ['GIF', 'logo.gif', GIF, 'image/gif'],
  ])('accepts a %s logo and serves it back with its own type', async (_kind, name, data, type) => {
    const res = await upload(admin.jar, globex.id, { name, data, type: 'application/octet-stream' })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.logo_path).toMatch(new RegExp(`^/companies/company/logo/${globex.id}\\?v=[a-f0-9-]{8}$`))
    const image = await send(
      admin.jar,
      ctx.app,
      'GET',
      `/companies/company/logo/${globex.id}?t=${Date.now()}`,
    )
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe(type)
    expect(image.headers.get('x-content-type-options')).toBe('nosniff')
    expect(image.headers.get('content-disposition')).toBe('inline')
    expect(Buffer.from(await image.arrayBuffer()).equals(data)).toBe(true)
  })

  it('replaces the previous logo file, and the new logo_path differs', async () => {
    const first = await (await upload(admin.jar, globex.id, { name: 'a.png', data: PNG })).json()
    const [before] = await database.db.select().from(companies).where(eq(companies.id, globex.id))
    const second = await (await upload(admin.jar, globex.id, { name: 'b.gif', data: GIF })).json()
    expect(second.logo_path).not.toBe(first.logo_path)
    expect(await ctx.storage.stat(before!.logoPath!)).toBeNull()
    const listed = await (await adminCall('GET', `/admin/company/${globex.id}`)).json()
    expect(listed.logo_path).toBe(second.logo_path)
  })

  it('refuses files that are not JPEG, PNG or GIF by content, whatever their name (415)', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    for (const file of [
      { name: 'logo.png', data: svg, type: 'image/png' },
      { name: 'logo.pdf', data: TINY_PDF },
      { name: 'logo.png', data: Buffer.from('hello') },
    ]) {
      const res = await upload(admin.jar, acme.id, file)
      expect(res.status).toBe(415)
      expect((await res.json()).message).toBe('Invalid file type. Only JPG, PNG and GIF are allowed.')
    }
    const [row] = await database.db.select().from(companies).where(eq(companies.id, acme.id))
    expect(row!.logoPath).toBeNull()
  })

  it('refuses a logo over 2 MB (413) and keeps nothing', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES, 1)])
    const res = await upload(admin.jar, acme.id, { name: 'big.png', data: big })
    expect(res.status).toBe(413)
    const [row] = await database.db.select().from(companies).where(eq(companies.id, acme.id))
    expect(row!.logoPath).toBeNull()
  })

  it('needs a file (400), an existing company (404) and a platform administrator (403)', async () => {
    const none = await upload(admin.jar, acme.id, null)
    expect(none.status).toBe(400)
    expect((await none.json()).detail).toEqual([{ field: 'file', message: 'A file is required' }])
    expect((await upload(admin.jar, 999999, { name: 'l.png', data: PNG })).status).toBe(404)
    expect((await upload(companyAdmin.jar, acme.id, { name: 'l.png', data: PNG })).status).toBe(403)
    const anonymous = await ctx.app.request(
      `/api/companies/company/logo/${acme.id}`,
      fileForm({ name: 'l.png', data: PNG }),
    )
    expect(anonymous.status).toBe(401)
  })

  it('serves a logo to members only; 404 for others and for a company without a logo', async () => {
    await upload(admin.jar, globex.id, { name: 'l.png', data: PNG })
    const member = await actor(database.db, ctx.app, {
      memberships: [{ companyId: globex.id, role: 'COMPANY_USER' }],
    })
    expect((await send(member.jar, ctx.app, 'GET', `/companies/company/logo/${globex.id}`)).status).toBe(200)
    expect((await send(plain.jar, ctx.app, 'GET', `/companies/company/logo/${globex.id}`)).status).toBe(404)
    expect((await ctx.app.request(`/api/companies/company/logo/${globex.id}`)).status).toBe(401)
    const noLogo = await send(plain.jar, ctx.app, 'GET', `/companies/company/logo/${acme.id}`)
    expect(noLogo.status).toBe(404)
    expect((await noLogo.json()).message).toBe('Logo not found')
    await addMember(database.db, plain.user.id, globex.id, 'COMPANY_USER')
    expect((await send(plain.jar, ctx.app, 'GET', `/companies/company/logo/${globex.id}`)).status).toBe(200)
  })
})

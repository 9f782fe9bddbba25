import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { type Actor, actor, createAdminTestApp, fileForm, insertCompany, PNG, send } from './admin-helpers.ts'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createAdminTestApp>>
let admin: Actor
let acmeAdmin: Actor
let acmeUser: Actor
let both: Actor
let acme: { id: number }
let globex: { id: number }
let dormant: { id: number }

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createAdminTestApp(database.db)
  acme = await insertCompany(database.db, 'Acme Corp', {
    powerbiLink: 'https://app.powerbi.com/acme',
    mondayLink: 'https://acme.monday.com',
    invoiceScanner: 'scan@acme.example',
  })
  globex = await insertCompany(database.db, 'Globex')
  dormant = await insertCompany(database.db, 'Dormant', { enabled: false })
  admin = await actor(database.db, ctx.app, { role: 'SAAS_ADMIN' })
  acmeAdmin = await actor(database.db, ctx.app, {
    memberships: [{ companyId: acme.id, role: 'COMPANY_ADMIN' }],
  })
  acmeUser = await actor(database.db, ctx.app, {
    memberships: [{ companyId: acme.id, role: 'COMPANY_USER' }],
  })
  both = await actor(database.db, ctx.app, {
    memberships: [
      { companyId: globex.id, role: 'COMPANY_ADMIN' },
      { companyId: acme.id, role: 'COMPANY_USER' },
      { companyId: dormant.id, role: 'COMPANY_ADMIN' },
    ],
  })
})
afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})

describe('GET /users/companies', () => {
  it("lists the user's enabled companies by name, with the switcher's fields and their role", async () => {
    const res = await send(both.jar, ctx.app, 'GET', '/users/companies')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual([
      {
        id: acme.id,
        name: 'Acme Corp',
        enabled: true,
        logo_path: null,
        powerbi_link: 'https://app.powerbi.com/acme',
        monday_link: 'https://acme.monday.com',
        role: 'COMPANY_USER',
      },
      {
        id: globex.id,
        name: 'Globex',
        enabled: true,
        logo_path: null,
        powerbi_link: null,
        monday_link: null,
        role: 'COMPANY_ADMIN',
      },
    ])
  })

  it('gives a platform administrator every company, disabled ones flagged, role null where not a member', async () => {
    const list = await (await send(admin.jar, ctx.app, 'GET', '/users/companies')).json()
    expect(
      list.map((c: { name: string; enabled: boolean; role: null }) => [c.name, c.enabled, c.role]),
    ).toEqual([
      ['Acme Corp', true, null],
      ['Dormant', false, null],
      ['Globex', true, null],
    ])
  })

  it('carries the logo address once a logo is uploaded', async () => {
    await admin.jar.request(
      ctx.app,
      `/api/companies/company/logo/${acme.id}`,
      fileForm({ name: 'a.png', data: PNG }),
    )
    const [first] = await (await send(acmeUser.jar, ctx.app, 'GET', '/users/companies')).json()
    expect(first.logo_path).toMatch(new RegExp(`^/companies/company/logo/${acme.id}\\?v=`))
    const image = await send(acmeUser.jar, ctx.app, 'GET', first.logo_path)
    expect(image.status).toBe(200)
  })

  it('is empty for a user without companies, and 401 anonymous', async () => {
    const loner = await actor(database.db, ctx.app)
    expect(await (await send(loner.jar, ctx.app, 'GET', '/users/companies')).json()).toEqual([])
    expect((await ctx.app.request('/api/users/companies')).status).toBe(401)
  })
})

describe('GET /companies/company/users', () => {
  const list = (who: Actor, query: string) =>
    send(who.jar, ctx.app, 'GET', `/companies/company/users${query}`)

  it('lists the members of the company to its administrators, with their company role', async () => {
    const res = await list(acmeAdmin, `?company_id=${acme.id}`)
    expect(res.status).toBe(200)
    const users = await res.json()
    expect(users.map((u: { email: string }) => u.email).sort()).toEqual(
      [acmeAdmin.user.email, acmeUser.user.email, both.user.email].sort(),
    )
    expect(users.find((u: { id: number }) => u.id === acmeAdmin.user.id)).toMatchObject({
      company_role: 'COMPANY_ADMIN',
      role: 'INTERNAL_USER',
      enabled: true,
    })
    expect(JSON.stringify(users)).not.toMatch(/password|argon2/i)
  })

  it('lists any company to a platform administrator', async () => {
    expect((await list(admin, `?company_id=${globex.id}`)).status).toBe(200)
  })

  it('refuses ordinary members (403) and hides other companies (404)', async () => {
    expect((await list(acmeUser, `?company_id=${acme.id}`)).status).toBe(403)
    expect((await list(both, `?company_id=${acme.id}`)).status).toBe(403)
    expect((await list(acmeAdmin, `?company_id=${globex.id}`)).status).toBe(404)
    expect((await list(acmeAdmin, '?company_id=999999')).status).toBe(404)
    // An administrator of a disabled company no longer sees it.
    expect((await list(both, `?company_id=${dormant.id}`)).status).toBe(404)
  })

  it('needs a company_id (400) and a signed-in user (401)', async () => {
    const res = await list(acmeAdmin, '')
    expect(res.status).toBe(400)
    expect((await res.json()).detail).toEqual([{ field: 'company_id', message: 'Company ID is required' }])
    expect((await list(acmeAdmin, '?company_id=1x')).status).toBe(400)
    expect((await ctx.app.request(`/api/companies/company/users?company_id=${acme.id}`)).status).toBe(401)
  })
})

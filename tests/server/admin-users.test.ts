import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessions, userCompanies, users } from '../../server/db/schema.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import {
  type Actor,
  actor,
  addMember,
  createAdminTestApp,
  insertCompany,
  login,
  send,
} from './admin-helpers.ts'
import { linkParams } from './auth-helpers.ts'
import { createCookieJar, insertUser, jsonBody } from './helpers.ts'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createAdminTestApp>>
let admin: Actor
let companyAdmin: Actor
let acme: { id: number }
let globex: { id: number }

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createAdminTestApp(database.db)
  acme = await insertCompany(database.db, 'Acme Corp')
  globex = await insertCompany(database.db, 'Globex')
  admin = await actor(database.db, ctx.app, {
    role: 'SAAS_ADMIN',
    memberships: [{ companyId: acme.id, role: 'COMPANY_ADMIN' }],
  })
  companyAdmin = await actor(database.db, ctx.app, {
    memberships: [{ companyId: acme.id, role: 'COMPANY_ADMIN' }],
  })
})
afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})

const adminCall = (method: string, path: string, body?: unknown) =>
  send(admin.jar, ctx.app, method, path, body)
const sessionCount = async (userId: number) =>
  (await database.db.select().from(sessions).where(eq(sessions.userId, userId))).length

describe('GET /admin/users', () => {
  it('lists every user with companies and the 2FA flag, never a password hash', async () => {
    const res = await adminCall('GET', '/admin/users')
    expect(res.status).toBe(200)
    const list = await res.json()
    const me = list.find((u: { id: number }) => u.id === admin.user.id)
    expect(me).toMatchObject({
      email: admin.user.email,
      role: 'SAAS_ADMIN',
      enabled: true,
      validated: true,
      is_2fa_enabled: false,
      companies: [{ company_id: acme.id, company_name: 'Acme Corp', role: 'COMPANY_ADMIN' }],
    })
    expect(JSON.stringify(list)).not.toMatch(/argon2|password/i)
  })

  it('is for platform administrators only', async () => {
    expect((await send(companyAdmin.jar, ctx.app, 'GET', '/admin/users')).status).toBe(403)
    expect((await ctx.app.request('/api/admin/users')).status).toBe(401)
  })
})

describe('POST /admin/invite-user/', () => {
  it('creates a not-validated user with memberships, mails a /validate link that activates the account', async () => {
    const res = await adminCall('POST', '/admin/invite-user/', {
      email: 'New.Person@Example.com',
      name: 'Nina',
      surname: 'Newcomer',
      role: 'INTERNAL_USER',
      companies: [
        { company_id: acme.id, role: 'COMPANY_ADMIN' },
        { company_id: globex.id, role: 'COMPANY_USER' },
      ],
    })
    expect(res.status).toBe(201)
    const body = await res.json()
    expect(body.message).toBe('User invited successfully')
    expect(body.user).toMatchObject({
      email: 'new.person@example.com',
      role: 'INTERNAL_USER',
      validated: false,
      enabled: true,
      companies: [
        { company_id: acme.id, role: 'COMPANY_ADMIN' },
        { company_id: globex.id, role: 'COMPANY_USER' },
      ],
    })

    const mail = await ctx.mailer.waitFor((m) => m.to === 'new.person@example.com')
    const { token, email, url } = linkParams(mail.text, '/validate')
    expect(url.origin).toBe(ctx.config.publicUrl)
    expect(email).toBe('new.person@example.com')

    // Not validated yet: no sign-in.
    const early = await ctx.app.request('/api/auth/login', jsonBody({ email, password: 'Welcome123' }))
    expect(early.status).toBe(401)

    const activated = await ctx.app.request(
      '/api/auth/validate-mail',
      jsonBody({ email, validation_token: token, password: 'Welcome123' }),
    )
    expect(activated.status).toBe(200)
    const jar = await login(ctx.app, { email, password: 'Welcome123' })
    const me = await (await send(jar, ctx.app, 'GET', '/auth/logged-in')).json()
    expect(me).toMatchObject({ email, validated: true })
    const mine = await (await send(jar, ctx.app, 'GET', '/users/companies')).json()
    expect(mine.map((c: { id: number }) => c.id).sort()).toEqual([acme.id, globex.id].sort())
  })

  it('accepts the single-company reading {email, name, surname, company_id} without the trailing slash', async () => {
    const res = await adminCall('POST', '/admin/invite-user', {
      email: 'solo@example.com',
      name: 'Solo',
      surname: 'Reader',
      company_id: globex.id,
    })
    expect(res.status).toBe(201)
    expect((await res.json()).user).toMatchObject({
      role: 'CLIENT_USER',
      companies: [{ company_id: globex.id, role: 'COMPANY_USER' }],
    })
    await ctx.mailer.waitFor((m) => m.to === 'solo@example.com')
  })

  it('answers 409 when the e-mail is already in use, and sends nothing', async () => {
    const before = ctx.mailer.messages.length
    const res = await adminCall('POST', '/admin/invite-user/', {
      email: companyAdmin.user.email.toUpperCase(),
      name: 'Dup',
      surname: 'Licate',
      role: 'CLIENT_USER',
    })
    expect(res.status).toBe(409)
    expect(ctx.mailer.messages.length).toBe(before)
  })

  it('validates every field with the specification messages', async () => {
    const res = await adminCall('POST', '/admin/invite-user/', {
      email: 'nope',
      name: 'N',
      surname: '',
      role: 'KING',
    })
    expect(res.status).toBe(400)
    expect((await res.json()).detail).toEqual(
      expect.arrayContaining([
        { field: 'email', message: 'Invalid email address' },
        { field: 'name', message: 'Name must be at least 2 characters' },
        { field: 'surname', message: 'Surname must be at least 2 characters' },
        { field: 'role', message: 'Role is required' },
      ]),
    )
    const noRole = await adminCall('POST', '/admin/invite-user/', {
      email: 'norole@example.com',
      name: 'No',
      surname: 'Role',
    })
    expect((await noRole.json()).detail).toEqual([{ field: 'role', message: 'Role is required' }])
  })

  it('links a company named by company_id and listed in companies once, with the listed role', async () => {
    const res = await adminCall('POST', '/admin/invite-user/', {
      email: 'both-readings@example.com',
      name: 'Both',
      surname: 'Readings',
      role: 'CLIENT_USER',
      company_id: acme.id,
      companies: [
        { company_id: acme.id, role: 'COMPANY_ADMIN' },
        { company_id: globex.id, role: 'COMPANY_USER' },
      ],
    })
    expect(res.status).toBe(201)
    const { user } = await res.json()
    expect(user.companies).toEqual([
      { company_id: acme.id, company_name: 'Acme Corp', role: 'COMPANY_ADMIN' },
      { company_id: globex.id, company_name: 'Globex', role: 'COMPANY_USER' },
    ])
    const links = await database.db.select().from(userCompanies).where(eq(userCompanies.userId, user.id))
    expect(links.map((l) => l.companyId).sort()).toEqual([acme.id, globex.id].sort())
    await ctx.mailer.waitFor((m) => m.to === 'both-readings@example.com')
  })

  it('answers 409 for an e-mail in use when company_id is also listed in companies, and sends nothing', async () => {
    const before = ctx.mailer.messages.length
    const res = await adminCall('POST', '/admin/invite-user/', {
      email: companyAdmin.user.email,
      name: 'Dup',
      surname: 'Licate',
      role: 'CLIENT_USER',
      company_id: acme.id,
      companies: [{ company_id: acme.id, role: 'COMPANY_USER' }],
    })
    expect(res.status).toBe(409)
    expect((await res.json()).message).toBe('A user with this e-mail already exists')
    expect(ctx.mailer.messages.length).toBe(before)
  })

  it('refuses a company listed twice in companies, and an unknown company, creating no user', async () => {
    const twice = await adminCall('POST', '/admin/invite-user/', {
      email: 'twice@example.com',
      name: 'Tw',
      surname: 'Ice',
      role: 'CLIENT_USER',
      companies: [
        { company_id: acme.id, role: 'COMPANY_USER' },
        { company_id: acme.id, role: 'COMPANY_ADMIN' },
      ],
    })
    expect(twice.status).toBe(400)
    expect((await twice.json()).detail).toEqual([{ field: 'companies', message: 'company already added' }])
    const twiceRows = await database.db.select().from(users).where(eq(users.email, 'twice@example.com'))
    expect(twiceRows).toEqual([])
    const unknown = await adminCall('POST', '/admin/invite-user/', {
      email: 'ghost-company@example.com',
      name: 'Gh',
      surname: 'Ost',
      role: 'CLIENT_USER',
      companies: [{ company_id: 999999, role: 'COMPANY_USER' }],
    })
    expect(unknown.status).toBe(404)
    const rows = await database.db.select().from(users).where(eq(users.email, 'ghost-company@example.com'))
    expect(rows).toEqual([])
  })

  it('undoes the invitation when the mail cannot be sent (502), so it can simply be sent again', async () => {
    const send = ctx.mailer.send
    ctx.mailer.send = async () => {
      throw new Error('SMTP server unreachable')
    }
    const payload = { email: 'unlucky@example.com', name: 'Un', surname: 'Lucky', role: 'CLIENT_USER' }
    try {
      const res = await adminCall('POST', '/admin/invite-user/', payload)
      expect(res.status).toBe(502)
      expect(JSON.stringify(await res.json())).not.toMatch(/SMTP|stack/)
    } finally {
      ctx.mailer.send = send
    }
    expect(await database.db.select().from(users).where(eq(users.email, 'unlucky@example.com'))).toEqual([])
    expect((await adminCall('POST', '/admin/invite-user/', payload)).status).toBe(201)
  })

  it('is for platform administrators only', async () => {
    const payload = { email: 'sneaky@example.com', name: 'Sn', surname: 'Eaky', role: 'SAAS_ADMIN' }
    expect((await send(companyAdmin.jar, ctx.app, 'POST', '/admin/invite-user/', payload)).status).toBe(403)
    expect((await ctx.app.request('/api/admin/invite-user/', jsonBody(payload))).status).toBe(401)
    expect(await database.db.select().from(users).where(eq(users.email, 'sneaky@example.com'))).toEqual([])
  })
})

describe('POST /admin/user/status', () => {
  it('disabling a user ends all their sessions at once; enabling lets them sign in again', async () => {
    const target = await actor(database.db, ctx.app, {
      memberships: [{ companyId: acme.id, role: 'COMPANY_USER' }],
    })
    const second = await login(ctx.app, target.user)
    expect(await sessionCount(target.user.id)).toBe(2)
    const res = await adminCall('POST', '/admin/user/status', {
      user_email: target.user.email,
      enabled: false,
    })
    expect(res.status).toBe(200)
    expect((await res.json()).enabled).toBe(false)
    expect(await sessionCount(target.user.id)).toBe(0)
    for (const jar of [target.jar, second]) {
      expect((await send(jar, ctx.app, 'GET', '/auth/logged-in')).status).toBe(401)
    }
    const refused = await ctx.app.request(
      '/api/auth/login',
      jsonBody({ email: target.user.email, password: target.user.password }),
    )
    expect(refused.status).toBe(401)
    await adminCall('POST', '/admin/user/status', { user_email: target.user.email, enabled: true })
    await login(ctx.app, target.user)
  })

  it('never lets administrators change their own status', async () => {
    const res = await adminCall('POST', '/admin/user/status', {
      user_email: admin.user.email,
      enabled: false,
    })
    expect(res.status).toBe(403)
    expect((await res.json()).message).toBe('You cannot change the status of your own account')
    expect((await send(admin.jar, ctx.app, 'GET', '/auth/logged-in')).status).toBe(200)
  })

  it('validates the payload and answers 404 for an unknown e-mail', async () => {
    const bad = await adminCall('POST', '/admin/user/status', { user_email: 'x', enabled: 'yes' })
    expect(bad.status).toBe(400)
    expect((await bad.json()).detail.map((d: { field: string }) => d.field)).toEqual([
      'user_email',
      'enabled',
    ])
    expect(
      (await adminCall('POST', '/admin/user/status', { user_email: 'nobody@example.com', enabled: true }))
        .status,
    ).toBe(404)
  })

  it('is for platform administrators only', async () => {
    const res = await send(companyAdmin.jar, ctx.app, 'POST', '/admin/user/status', {
      user_email: admin.user.email,
      enabled: false,
    })
    expect(res.status).toBe(403)
  })
})

describe('PUT /admin/user/{id}', () => {
  it('updates name, surname and role by numeric id', async () => {
    const target = await insertUser(database.db)
    const res = await adminCall('PUT', `/admin/user/${target.id}`, {
      name: ' Ada ',
      surname: 'Lovelace',
      role: 'CLIENT_USER',
      enabled: true,
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      id: target.id,
      name: 'Ada',
      surname: 'Lovelace',
      role: 'CLIENT_USER',
    })
  })

  it('accepts the e-mail in place of the id', async () => {
    const target = await insertUser(database.db)
    const res = await adminCall('PUT', `/admin/user/${encodeURIComponent(target.email)}`, { name: 'ByMail' })
    expect(res.status).toBe(200)
    expect((await res.json()).name).toBe('ByMail')
  })

  it('disabling through the update ends the sessions too', async () => {
    const target = await actor(database.db, ctx.app)
    await adminCall('PUT', `/admin/user/${target.user.id}`, { enabled: false })
    expect(await sessionCount(target.user.id)).toBe(0)
  })

  it('refuses short names and unknown roles, an unknown user, and a bad id', async () => {
    const target = await insertUser(database.db)
    const res = await adminCall('PUT', `/admin/user/${target.id}`, { name: 'A', surname: 'B', role: 'ROOT' })
    expect(res.status).toBe(400)
    expect((await res.json()).detail).toEqual([
      { field: 'name', message: 'Name must be at least 2 characters' },
      { field: 'surname', message: 'Surname must be at least 2 characters' },
      { field: 'role', message: 'Role is required' },
    ])
    expect((await adminCall('PUT', '/admin/user/999999', { name: 'Ghost' })).status).toBe(404)
    expect((await adminCall('PUT', '/admin/user/0', { name: 'Zero' })).status).toBe(400)
  })

  it('never lets administrators disable themselves or change their own role', async () => {
    const off = await adminCall('PUT', `/admin/user/${admin.user.id}`, { enabled: false })
    expect(off.status).toBe(403)
    const demote = await adminCall('PUT', `/admin/user/${admin.user.id}`, { role: 'CLIENT_USER' })
    expect(demote.status).toBe(403)
    const [row] = await database.db.select().from(users).where(eq(users.id, admin.user.id))
    expect(row).toMatchObject({ role: 'SAAS_ADMIN', enabled: true })
    const rename = await adminCall('PUT', `/admin/user/${admin.user.id}`, {
      name: 'Root',
      role: 'SAAS_ADMIN',
    })
    expect(rename.status).toBe(200)
  })

  it('is for platform administrators only', async () => {
    const res = await send(companyAdmin.jar, ctx.app, 'PUT', `/admin/user/${companyAdmin.user.id}`, {
      role: 'SAAS_ADMIN',
    })
    expect(res.status).toBe(403)
    const [row] = await database.db.select().from(users).where(eq(users.id, companyAdmin.user.id))
    expect(row!.role).toBe('INTERNAL_USER')
  })
})

describe('memberships', () => {
  it('adds an existing user to a company (201), then changes the role (200)', async () => {
    const target = await insertUser(database.db)
    const added = await adminCall('POST', '/admin/user-company', {
      user_email: target.email,
      company_id: globex.id,
      role: 'COMPANY_USER',
    })
    expect(added.status).toBe(201)
    expect(await added.json()).toEqual({
      user_email: target.email,
      company_id: globex.id,
      role: 'COMPANY_USER',
    })
    const changed = await adminCall('POST', '/admin/user-company', {
      user_email: target.email,
      company_id: String(globex.id),
      role: 'COMPANY_ADMIN',
    })
    expect(changed.status).toBe(200)
    const rows = await database.db.select().from(userCompanies).where(eq(userCompanies.userId, target.id))
    expect(rows.map((r) => [r.companyId, r.role])).toEqual([[globex.id, 'COMPANY_ADMIN']])
  })

  it("validates with the specification messages ('Please select a user', 'Role is required')", async () => {
    const res = await adminCall('POST', '/admin/user-company', { user_email: '', role: '' })
    expect(res.status).toBe(400)
    expect((await res.json()).detail).toEqual([
      { field: 'user_email', message: 'Please select a user' },
      { field: 'company_id', message: 'Company ID is required' },
      { field: 'role', message: 'Role is required' },
    ])
  })

  it('answers 404 for an unknown user or company', async () => {
    const target = await insertUser(database.db)
    const cases = [
      { user_email: 'nobody@example.com', company_id: acme.id, role: 'COMPANY_USER' },
      { user_email: target.email, company_id: 999999, role: 'COMPANY_USER' },
    ]
    for (const payload of cases)
      expect((await adminCall('POST', '/admin/user-company', payload)).status).toBe(404)
  })

  it('removes a membership; 404 when there is none', async () => {
    const target = await insertUser(database.db)
    await addMember(database.db, target.id, acme.id, 'COMPANY_USER')
    const query = `user_email=${encodeURIComponent(target.email)}&company_id=${acme.id}`
    const res = await adminCall('DELETE', `/admin/user-company?${query}`)
    expect(res.status).toBe(200)
    expect(await database.db.select().from(userCompanies).where(eq(userCompanies.userId, target.id))).toEqual(
      [],
    )
    expect((await adminCall('DELETE', `/admin/user-company?${query}`)).status).toBe(404)
  })

  it('never lets administrators remove themselves from a company', async () => {
    const res = await adminCall(
      'DELETE',
      `/admin/user-company?user_email=${encodeURIComponent(admin.user.email)}&company_id=${acme.id}`,
    )
    expect(res.status).toBe(403)
    expect((await res.json()).message).toBe('You cannot remove yourself from a company')
  })

  it('validates the query', async () => {
    const res = await adminCall('DELETE', '/admin/user-company?company_id=abc')
    expect(res.status).toBe(400)
    expect((await res.json()).detail.map((d: { field: string }) => d.field)).toEqual([
      'user_email',
      'company_id',
    ])
  })

  it('is for platform administrators only', async () => {
    const target = await insertUser(database.db)
    const res = await send(companyAdmin.jar, ctx.app, 'POST', '/admin/user-company', {
      user_email: target.email,
      company_id: acme.id,
      role: 'COMPANY_ADMIN',
    })
    expect(res.status).toBe(403)
    const anonymous = await createCookieJar().request(
      ctx.app,
      `/api/admin/user-company?user_email=${encodeURIComponent(companyAdmin.user.email)}&company_id=${acme.id}`,
      { method: 'DELETE' },
    )
    expect(anonymous.status).toBe(401)
  })
})

/**
 * Input ranges (issue 10, finding 5): ids beyond the int4 range of the id columns, control
 * characters in text and dates PostgreSQL cannot hold used to reach the database and answer 500.
 * Path ids that cannot exist answer 404; bad query, body and multipart values 400 naming the
 * field; text with a control character is refused (not stripped); a data exception the schemas
 * miss answers 400 `Invalid input`, logged at warn.
 */

import { sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/config.ts'
import { errorHandler } from '../../server/http/errors.ts'
import { createLogger } from '../../server/logger.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import {
  type Actor,
  actor,
  createAdminTestApp,
  fileForm,
  insertCompany,
  send,
  TINY_PDF,
} from './admin-helpers.ts'
import { createLogCapture } from './helpers.ts'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createAdminTestApp>>
let admin: Actor
let member: Actor
let companyId: number

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createAdminTestApp(database.db)
  companyId = (await insertCompany(database.db, 'Ranges Company')).id
  admin = await actor(database.db, ctx.app, { role: 'SAAS_ADMIN' })
  member = await actor(database.db, ctx.app, {
    memberships: [{ companyId, role: 'COMPANY_ADMIN' }],
  })
})

afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})

const call = (who: Actor, method: string, path: string, body?: unknown) =>
  send(who.jar, ctx.app, method, path, body)

async function expectError(res: Response, status: number, detail?: unknown) {
  const body = await res.json()
  expect({ status: res.status, body }).toMatchObject({ status, body: { message: expect.any(String) } })
  if (detail !== undefined) expect(body.detail).toEqual(detail)
}

const TOO_BIG = '2147483648'
const HUGE = '9999999999'

describe('ids beyond the int4 range', () => {
  it('answers 404 for a path id that cannot exist', async () => {
    const q = `?company_id=${companyId}`
    for (const path of [
      `/invoices/${TOO_BIG}${q}`,
      `/invoices/${HUGE}/quality-data${q}`,
      `/expenses/expense/${TOO_BIG}/download${q}`,
      `/documents/${TOO_BIG}${q}`,
      `/api/document/invoice/${TOO_BIG}/status${q}`,
      `/logs/${TOO_BIG}${q}`,
      `/logs/${'9'.repeat(40)}${q}`,
      `/invoices/status/COMPLETED/company_id/${HUGE}`,
    ]) {
      await expectError(await call(member, 'GET', path), 404)
    }
    for (const path of [`/admin/company/${TOO_BIG}`, `/companies/company/logo/${HUGE}`]) {
      await expectError(await call(admin, 'GET', path), 404)
    }
    await expectError(await call(admin, 'PUT', `/admin/user/${TOO_BIG}`, { name: 'Nobody' }), 404)
    await expectError(await call(admin, 'DELETE', `/admin/company/${HUGE}`), 404)
  })

  it('answers 400 naming company_id for one in the query or the body', async () => {
    const detail = [{ field: 'company_id', message: 'Invalid id' }]
    await expectError(await call(member, 'GET', `/invoices/company?company_id=${HUGE}`), 400, detail)
    await expectError(await call(admin, 'GET', `/logs?company_id=${TOO_BIG}`), 400, detail)
    await expectError(
      await call(member, 'POST', '/logs', { company_id: Number(HUGE), name: 'x', type: 'Invoice' }),
      400,
      detail,
    )
    await expectError(await call(admin, 'POST', '/dashboard/data', { company_id: HUGE }), 400, detail)
    await expectError(
      await call(admin, 'POST', '/admin/user-company', {
        user_email: member.user.email,
        company_id: Number(HUGE),
        role: 'COMPANY_USER',
      }),
      400,
      [{ field: 'company_id', message: 'Invalid company id' }],
    )
  })

  it('answers 400 for a company_id beyond the range in an upload form', async () => {
    const res = await member.jar.request(
      ctx.app,
      '/api/documents/upload',
      fileForm(
        { name: 'a.pdf', data: TINY_PDF, type: 'application/pdf' },
        { company_id: HUGE, documentType: 'document', category: 'RH' },
      ),
    )
    await expectError(res, 400, [{ field: 'company_id', message: 'Invalid id' }])
  })

  it('answers 400 for a bulk status id beyond the range', async () => {
    const res = await call(
      member,
      'GET',
      `/api/documents/status?company_id=${companyId}&kind=invoice&document_ids=${TOO_BIG}`,
    )
    await expectError(res, 400)
  })
})

describe('control characters in text', () => {
  const refused = (field: string) => [{ field, message: 'Must not contain control characters' }]

  it('refuses NUL in names, links and log entries with 400 naming the field', async () => {
    await expectError(
      await call(admin, 'POST', '/admin/company', { name: 'Nul\u0000Corp' }),
      400,
      refused('name'),
    )
    await expectError(
      await call(admin, 'PUT', `/admin/company/${companyId}`, {
        monday_link: 'https://board.example/\u0000x',
      }),
      400,
      refused('monday_link'),
    )
    await expectError(
      await call(admin, 'PUT', `/admin/user/${member.user.id}`, { surname: 'Bell\u0007e' }),
      400,
      refused('surname'),
    )
    await expectError(
      await call(admin, 'POST', '/admin/invite-user', {
        email: 'nul@example.com',
        name: 'N\u0000',
        surname: 'Person',
        role: 'CLIENT_USER',
      }),
      400,
      refused('name'),
    )
    await expectError(
      await call(member, 'POST', '/logs', { company_id: companyId, name: 'a\u0000b', type: 'Invoice' }),
      400,
      refused('name'),
    )
    await expectError(
      await call(member, 'POST', '/logs', {
        company_id: companyId,
        name: 'ok',
        type: 'Invoice',
        category: 'tab\there',
      }),
      400,
      refused('category'),
    )
  })

  it('refuses NUL and DEL in search terms, in the query, the body and the path', async () => {
    await expectError(
      await call(member, 'GET', `/logs?company_id=${companyId}&search_term=a%00b`),
      400,
      refused('search_term'),
    )
    await expectError(
      await call(member, 'POST', '/dashboard/search', { company_id: companyId, search_term: 'x\u007f' }),
      400,
      refused('search_term'),
    )
    await expectError(await call(admin, 'GET', '/admin/company/search/a%00b'), 400)
  })

  it('refuses C1 controls and bidirectional overrides and isolates in names and log entries', async () => {
    await expectError(
      await call(admin, 'POST', '/admin/company', { name: 'Acme\u202Etcartnoc' }),
      400,
      refused('name'),
    )
    await expectError(
      await call(admin, 'PUT', `/admin/user/${member.user.id}`, { surname: 'Bell\u0085e' }),
      400,
      refused('surname'),
    )
    await expectError(
      await call(admin, 'POST', '/admin/invite-user', {
        email: 'bidi@example.com',
        name: 'Ann\u2067a',
        surname: 'Person',
        role: 'CLIENT_USER',
      }),
      400,
      refused('name'),
    )
    for (const mark of ['\u0080', '\u009f', '\u202a', '\u202d', '\u2066', '\u2069']) {
      await expectError(
        await call(member, 'POST', '/logs', { company_id: companyId, name: `a${mark}b`, type: 'Invoice' }),
        400,
        refused('name'),
      )
    }
  })

  it('still accepts ordinary text with accents, percent signs and underscores', async () => {
    const res = await call(member, 'POST', '/logs', {
      company_id: companyId,
      name: '  Été 100%_réel  ',
      type: 'Invoice',
    })
    expect(res.status).toBe(201)
    expect((await res.json()).name).toBe('Été 100%_réel')
    // Right-to-left script, a no-break space (just past the C1 range) and an emoji's joiner.
    const rtl = '\u0634\u0631\u0643\u0629\u00a0Ltd \u{1F469}\u200D\u{1F4BB}'
    const other = await call(member, 'POST', '/logs', { company_id: companyId, name: rtl, type: 'Invoice' })
    expect(other.status).toBe(201)
    expect((await other.json()).name).toBe(rtl)
  })
})

describe('dates out of range', () => {
  it('answers 400 naming the date for years PostgreSQL or a four-digit year cannot hold', async () => {
    const q = `company_id=${companyId}`
    await expectError(await call(member, 'GET', `/logs?${q}&start_date=-271821-04-20`), 400, [
      { field: 'start_date', message: 'start_date must be between 1900-01-01 and 9999-12-31' },
    ])
    await expectError(await call(member, 'GET', `/logs?${q}&end_date=%2B099999-01-01`), 400, [
      { field: 'end_date', message: 'end_date must be between 1900-01-01 and 9999-12-31' },
    ])
    await expectError(await call(member, 'GET', `/logs?${q}&start_date=1899-12-31`), 400)
    await expectError(
      await call(member, 'POST', '/dashboard/data', { company_id: companyId, end_date: '-000001-01-01' }),
      400,
    )
  })

  it('accepts the bounds of the range', async () => {
    const q = `company_id=${companyId}&start_date=1900-01-01&end_date=9999-12-31T23:59:59Z`
    expect((await call(member, 'GET', `/logs?${q}`)).status).toBe(200)
  })
})

describe('a data exception the schemas let through', () => {
  it('answers 400 Invalid input, logged at warn, on this database driver', async () => {
    const logs = createLogCapture()
    const logger = createLogger(loadConfig({ LOG_LEVEL: 'info' }), logs.stream)
    const app = new Hono()
      .get('/int', async () => {
        await database.db.execute(sql`select ${HUGE}::int4 as n`)
        return new Response('unreachable')
      })
      .get('/nul', async () => {
        await database.db.execute(sql`select ${'a\u0000b'}::text as t`)
        return new Response('unreachable')
      })
      .get('/date', async () => {
        await database.db.execute(sql`select ${'-271821-04-20'}::timestamptz as d`)
        return new Response('unreachable')
      })
    app.onError(errorHandler(logger))
    for (const path of ['/int', '/nul', '/date']) {
      const res = await app.request(path)
      expect({ path, status: res.status, body: await res.json() }).toEqual({
        path,
        status: 400,
        body: { message: 'Invalid input' },
      })
    }
    const warnings = logs.lines.filter((line) => line.msg === 'input refused by the database')
    expect(warnings.map((line) => [line.level, String(line.sqlstate).slice(0, 2)])).toEqual([
      [40, '22'],
      [40, '22'],
      [40, '22'],
    ])
    expect(logs.lines.filter((line) => line.level === 50)).toEqual([])
  })
})

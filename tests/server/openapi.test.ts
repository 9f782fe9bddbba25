/**
 * The API described (`GET /api/openapi.json`): a valid OpenAPI 3.1 document, naming every route
 * the app serves under /api, whose described answers are what the calls really answer.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storePageWords } from '../../server/services/documents/page-words.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { corpusFile, createPipelineApp, insertCompany, memberOf, multipart } from './documents-support.ts'
import { jsonBody } from './helpers.ts'
import { insertProcessed } from './review-support.ts'

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: object }> }> }
type OpenApi = { openapi: string; paths: Record<string, Record<string, Operation>> }

let database: TestDatabase
let root: string
let ctx: Awaited<ReturnType<typeof createPipelineApp>>
let document: OpenApi

beforeAll(async () => {
  database = await createTestDatabase()
  root = await mkdtemp(join(tmpdir(), 'docflow-openapi-'))
  ctx = await createPipelineApp(database.db, root)
  const res = await ctx.app.request('/api/openapi.json')
  expect(res.status).toBe(200)
  document = (await res.json()) as OpenApi
})
afterAll(async () => {
  await ctx?.close()
  await database?.close()
  await rm(root, { recursive: true, force: true })
})

/** `/api/invoices/:id/history` as the document writes it: `/api/invoices/{id}/history`. */
const templated = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toMatch(/^3\.1\./)
    const result = await new Validator().validate(document as never)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('describes every route the app serves under /api', () => {
    const served = ctx.app.routes
      .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/'))
      .map((r) => `${r.method} ${templated(r.path)}`)
    expect(served.length).toBeGreaterThan(50)
    const described = new Set(
      Object.entries(document.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    )
    expect([...new Set(served)].filter((route) => !described.has(route))).toEqual([])
  })

  it('names its parameters and describes every JSON answer with a schema', () => {
    for (const [path, ops] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const params = (op as { parameters?: { in: string; name: string }[] }).parameters ?? []
        for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
          expect(params, `${method} ${path}`).toContainEqual(expect.objectContaining({ in: 'path', name }))
        }
        for (const [status, answer] of Object.entries(op.responses ?? {})) {
          const json = answer.content?.['application/json']
          if (json && path !== '/api/openapi.json')
            expect(json.schema, `${method} ${path} ${status}`).toBeDefined()
        }
      }
    }
  })
})

describe('live answers match their described schemas', () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true })
  const pointer = (...parts: string[]) =>
    parts.map((p) => encodeURIComponent(p.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/')

  /** Calls `path` and validates its JSON answer against the schema described for `template`. */
  async function expectDescribed(
    request: (path: string, init?: RequestInit) => Promise<Response> | Response,
    method: string,
    template: string,
    path: string,
    init?: RequestInit,
  ) {
    const res = await request(path, { ...init, method: method.toUpperCase() })
    const status = String(res.status)
    if (res.status >= 400 && !path.includes('999999'))
      throw new Error(`${method} ${path}: ${status} ${await res.clone().text()}`)
    const described = document.paths[template]?.[method]?.responses?.[status] ? status : 'default'
    const schema =
      document.paths[template]?.[method]?.responses?.[described]?.content?.['application/json']?.schema
    expect(schema, `${method} ${template} answered ${status}, which it does not describe`).toBeDefined()
    if (!ajv.getSchema('openapi')) ajv.addSchema({ ...document, $id: 'openapi' })
    const validate = ajv.getSchema(
      `openapi#/${pointer('paths', template, method, 'responses', described, 'content', 'application/json', 'schema')}`,
    )!
    const body = await res.json()
    expect(validate(body) ? [] : validate.errors, `${method} ${path}`).toEqual([])
    return body
  }

  it('validates the answers of a signed-in member and of an administrator', async () => {
    const company = await insertCompany(database.db, 'Described')
    const member = await memberOf(database.db, ctx.app, company.id)
    const admin = await memberOf(database.db, ctx.app, null, 'SAAS_ADMIN')
    const asMember = (path: string, init?: RequestInit) => member.jar.request(ctx.app, path, init)
    const asAdmin = (path: string, init?: RequestInit) => admin.jar.request(ctx.app, path, init)
    const q = `company_id=${company.id}`

    const invoice = await expectDescribed(
      asMember,
      'post',
      '/api/documents/upload',
      '/api/documents/upload',
      multipart(
        { documentType: 'invoice', company_id: String(company.id) },
        { name: 'facture.pdf', data: await corpusFile('0002-facture.pdf'), type: 'application/pdf' },
      ),
    )
    const general = await expectDescribed(
      asMember,
      'post',
      '/api/documents/upload',
      '/api/documents/upload',
      multipart(
        { documentType: 'document', category: 'Juridique', company_id: String(company.id) },
        { name: 'notes.txt', data: new TextEncoder().encode('notes'), type: 'text/plain' },
      ),
    )
    // A processed invoice with its page's words (the review calls).
    const processed = await insertProcessed(database.db, company.id, { pages: 1 })
    await database.db.transaction((tx) =>
      storePageWords(tx, processed.id, [
        { page: 1, width: 595, height: 842, words: [{ text: 'Total', box: [0.1, 0.2, 0.3, 0.25] }] },
      ]),
    )
    const calls: [string, string, string, RequestInit?][] = [
      ['get', '/api/health', '/api/health'],
      ['get', '/api/auth/session', '/api/auth/session'],
      ['get', '/api/auth/logged-in', '/api/auth/logged-in'],
      ['get', '/api/settings/me', '/api/settings/me'],
      ['get', '/api/users/companies', '/api/users/companies'],
      ['get', '/api/documents', `/api/documents?${q}`],
      ['get', '/api/documents/{id}', `/api/documents/${general.id}?${q}`],
      ['get', '/api/invoices/company', `/api/invoices/company?${q}`],
      ['get', '/api/invoices/{id}', `/api/invoices/${invoice.id}?${q}`],
      ['get', '/api/invoices/{id}/quality-data', `/api/invoices/${invoice.id}/quality-data?${q}`],
      ['get', '/api/invoices/{id}/history', `/api/invoices/${invoice.id}/history?${q}`],
      ['get', '/api/documents/{id}/pages/{n}/words', `/api/documents/${processed.id}/pages/1/words?${q}`],
      ['post', '/api/invoices/{id}/confirm', `/api/invoices/${processed.id}/confirm?${q}`],
      ['get', '/api/invoices/{id}/history', `/api/invoices/${processed.id}/history?${q}`],
      ['get', '/api/api/document/{type}/{id}/status', `/api/api/document/invoice/${invoice.id}/status?${q}`],
      [
        'get',
        '/api/api/documents/status',
        `/api/api/documents/status?kind=invoice&${q}&document_ids=${invoice.id}`,
      ],
      ['get', '/api/api/documents/processing', `/api/api/documents/processing?${q}`],
      ['get', '/api/logs', `/api/logs?${q}`],
      ['get', '/api/logs', `/api/logs?${q}&review=needed`],
      ['get', '/api/logs/summary', `/api/logs/summary?${q}`],
      [
        'post',
        '/api/logs',
        '/api/logs',
        jsonBody({ company_id: company.id, name: 'note', type: 'Document' }),
      ],
      ['post', '/api/dashboard/data', '/api/dashboard/data', jsonBody({ company_id: company.id })],
      ['get', '/api/settings/api-tokens', '/api/settings/api-tokens'],
      ['post', '/api/settings/api-tokens', '/api/settings/api-tokens', jsonBody({ name: 'script' })],
    ]
    for (const [method, template, path, init] of calls)
      await expectDescribed(asMember, method, template, path, init)
    // An error answers the contract's error body, as the document says.
    await expectDescribed(asMember, 'get', '/api/invoices/{id}', `/api/invoices/999999?${q}`)

    const adminCalls: [string, string, string, RequestInit?][] = [
      ['get', '/api/admin/company', '/api/admin/company'],
      ['get', '/api/admin/company/{id}', `/api/admin/company/${company.id}`],
      ['get', '/api/admin/users', '/api/admin/users'],
      ['get', '/api/companies/company/users', `/api/companies/company/users?${q}`],
      [
        'post',
        '/api/admin/user-company',
        '/api/admin/user-company',
        jsonBody({ user_email: member.user.email, company_id: company.id, role: 'COMPANY_ADMIN' }),
      ],
    ]
    for (const [method, template, path, init] of adminCalls)
      await expectDescribed(asAdmin, method, template, path, init)
  })
})

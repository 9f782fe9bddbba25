/**
 * The authorisation matrix: every route the app registers × six actors × (for company-scoped
 * routes) the company_id of A, of B, missing and unknown. Each answer must have the expected
 * status, and no answer to someone outside a company may carry that company's data (every name
 * seeded in B contains BRAVO, in A ALPHA; bodies and headers are searched).
 *
 * A route without an entry in ENTRIES fails the first test: add its entry when adding a route.
 */
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DocumentKind } from '../../server/db/schema.ts'
import { documents, logs } from '../../server/db/schema.ts'
import type { CompanyRole } from '../../src/api/schemas.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import {
  actor,
  addMember,
  createAdminTestApp,
  fileForm,
  insertCompany,
  type Jar,
  login,
  PNG,
  TINY_PDF,
} from './admin-helpers.ts'
import { createCookieJar, insertUser } from './helpers.ts'

const ALPHA = 'alpha-secret'
const BRAVO = 'bravo-secret'
const UNKNOWN_COMPANY = 987_654

/** Registrations that are not API calls: the SPA and its files, the catalogs (tested in http.test.ts). */
const EXCLUDED = new Set(['GET /*', 'GET /locales/:lng/common.json'])

type CompanyKey = 'A' | 'B'
type Variant = CompanyKey | 'missing' | 'unknown'
/** An exact status, or any 2xx. */
type Expected = number | '2xx'

interface Fixtures {
  companyId: number
  invoiceId: number
  expenseId: number
  documentId: number
  logId: number
}

interface ActorInfo {
  name: string
  global: 'SAAS_ADMIN' | 'INTERNAL_USER' | null
  roles: Partial<Record<CompanyKey, CompanyRole>>
  jar: Jar
  credentials: { email: string; password: string } | null
}

interface Target {
  variant: Variant
  /** The company_id to send (undefined: leave it out). */
  companyId: number | undefined
  /** Records of the target company (A's for missing / unknown). */
  fx: Fixtures
  actor: ActorInfo
}

interface Req {
  path: string
  method?: string
  json?: unknown
  init?: RequestInit
}

interface Entry {
  /**
   * public: anyone; user: any signed-in user; company: members of company_id (404 otherwise);
   * admin: platform administrators (403 for other signed-in users).
   */
  kind: 'public' | 'user' | 'company' | 'admin'
  /** Vary company_id over A, B, missing and unknown (always for kind company). */
  scoped?: boolean
  /** Status for an actor who may use the call. */
  ok?: Expected
  /** For actors with access to the company: a status other than `ok` (a role rule of the route). */
  role?: (actor: ActorInfo, company: CompanyKey) => Expected | undefined
  /** Status when company_id is missing ('skip' when the id is part of the path). */
  missing?: Expected | 'skip'
  unknown?: Expected
  /** The call ends the caller's session: signed-in actors use a second session of their own. */
  spareSession?: boolean
  build: (t: Target) => Req | Promise<Req>
}

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createAdminTestApp>>
let companyA: { id: number }
let companyB: { id: number }
const fixtures = {} as Record<CompanyKey, Fixtures>
let actors: ActorInfo[] = []
let counter = 0
const unique = (prefix: string) => `${prefix}-${++counter}-${Date.now()}`

// Fresh records for calls that change or delete what they touch.
async function freshDocument(companyId: number, kind: DocumentKind, name = 'matrix.pdf'): Promise<number> {
  const key = ctx.storage.newKey()
  await ctx.storage.put(key, Readable.from([TINY_PDF]))
  const [row] = await database.db
    .insert(documents)
    .values({
      companyId,
      kind,
      category: kind === 'invoice' ? 'Invoices' : kind === 'expense' ? 'Expenses' : 'RH',
      status: 'COMPLETED',
      originalName: name,
      contentType: 'application/pdf',
      sizeBytes: TINY_PDF.length,
      sha256: createHash('sha256').update(TINY_PDF).digest('hex'),
      storageKey: key,
      businessName: name,
    })
    .returning({ id: documents.id })
  return row!.id
}

async function freshLog(companyId: number, name = 'matrix log'): Promise<number> {
  const [row] = await database.db
    .insert(logs)
    .values({ companyId, name, type: 'Invoice', status: 'completed', category: 'Invoices' })
    .returning({ id: logs.id })
  return row!.id
}

const freshCompany = async () => (await insertCompany(database.db, unique('Matrix Fresh'))).id
const freshUser = async () => insertUser(database.db, { email: `${unique('fresh')}@example.com` })

const q = (t: Target, extra: Record<string, string> = {}) => {
  const params = new URLSearchParams(extra)
  if (t.companyId !== undefined) params.set('company_id', String(t.companyId))
  const s = params.toString()
  return s ? `?${s}` : ''
}
const withCompany = (t: Target, body: Record<string, unknown> = {}) =>
  t.companyId === undefined ? body : { ...body, company_id: t.companyId }
const pathCompany = (t: Target) => t.companyId ?? UNKNOWN_COMPANY

const uploadForm = (t: Target, fields: Record<string, string>) =>
  fileForm(
    { name: 'upload.pdf', data: TINY_PDF, type: 'application/pdf' },
    t.companyId === undefined ? fields : { ...fields, company_id: String(t.companyId) },
  )

const isCompanyAdmin = (a: ActorInfo, company: CompanyKey) =>
  a.global === 'SAAS_ADMIN' || a.roles[company] === 'COMPANY_ADMIN' ? undefined : 403

function financial(kind: 'invoice' | 'expense'): Record<string, Entry> {
  const base = `/api/${kind}s`
  const id = (t: Target) => (kind === 'invoice' ? t.fx.invoiceId : t.fx.expenseId)
  return {
    [`GET ${base}/company`]: { kind: 'company', build: (t) => ({ path: `${base}/company${q(t)}` }) },
    [`GET ${base}/status/:status/company_id/:company_id`]: {
      kind: 'company',
      missing: 'skip',
      build: (t) => ({ path: `${base}/status/COMPLETED/company_id/${pathCompany(t)}` }),
    },
    [`GET ${base}/status/:status`]: {
      kind: 'company',
      build: (t) => ({ path: `${base}/status/completed${q(t)}` }),
    },
    [`GET ${base}/${kind}/:id/download`]: {
      kind: 'company',
      build: (t) => ({ path: `${base}/${kind}/${id(t)}/download${q(t)}` }),
    },
    [`GET ${base}/:id/quality-data`]: {
      kind: 'company',
      build: (t) => ({ path: `${base}/${id(t)}/quality-data${q(t)}` }),
    },
    [`GET ${base}/:id`]: { kind: 'company', build: (t) => ({ path: `${base}/${id(t)}${q(t)}` }) },
    [`DELETE ${base}/:id`]: {
      kind: 'company',
      build: async (t) => ({
        method: 'DELETE',
        path: `${base}/${await freshDocument(t.fx.companyId, kind)}${q(t)}`,
      }),
    },
  }
}

const ENTRIES: Record<string, Entry> = {
  // Health, sign-in and account security (bodies chosen to be refused before any side effect).
  'GET /api/health': { kind: 'public', ok: 200, build: () => ({ path: '/api/health' }) },
  'ALL /api/*': { kind: 'public', ok: 404, build: () => ({ path: '/api/no-such-call' }) },
  'POST /api/auth/login': { kind: 'public', ok: 400, build: () => ({ path: '/api/auth/login', json: {} }) },
  'POST /api/auth/complete-2fa-login': {
    kind: 'public',
    ok: 400,
    build: () => ({ path: '/api/auth/complete-2fa-login', json: {} }),
  },
  'POST /api/auth/logout': {
    kind: 'public',
    ok: 200,
    spareSession: true,
    build: () => ({ path: '/api/auth/logout', json: {} }),
  },
  'GET /api/auth/logged-in': { kind: 'user', ok: 200, build: () => ({ path: '/api/auth/logged-in' }) },
  'GET /api/auth/setup-status': {
    kind: 'public',
    ok: 200,
    build: () => ({ path: '/api/auth/setup-status' }),
  },
  'POST /api/auth/create-first-saas-admin': {
    kind: 'public',
    ok: 409,
    build: () => ({
      path: '/api/auth/create-first-saas-admin',
      json: { email: 'late@example.com', name: 'Late', surname: 'Comer', password: 'Secret123A' },
    }),
  },
  'POST /api/auth/generate-2fa': {
    kind: 'user',
    ok: 400,
    build: () => ({ path: '/api/auth/generate-2fa', json: {} }),
  },
  'POST /api/auth/verify-2fa': {
    kind: 'user',
    ok: 400,
    build: () => ({ path: '/api/auth/verify-2fa', json: {} }),
  },
  'POST /api/auth/disable-2fa': {
    kind: 'user',
    ok: 400,
    build: () => ({ path: '/api/auth/disable-2fa', json: {} }),
  },
  'POST /api/auth/validate-mail': {
    kind: 'public',
    ok: 400,
    build: () => ({ path: '/api/auth/validate-mail', json: {} }),
  },
  'POST /api/auth/password/reset': {
    kind: 'public',
    ok: 400,
    build: () => ({ path: '/api/auth/password/reset', json: {} }),
  },
  'POST /api/auth/password/reset/confirm': {
    kind: 'public',
    ok: 400,
    build: () => ({ path: '/api/auth/password/reset/confirm', json: {} }),
  },
  'POST /api/auth/password/change': {
    kind: 'user',
    ok: 400,
    build: () => ({
      path: '/api/auth/password/change',
      json: { current_password: 'x', new_password: 'weak' },
    }),
  },
  'GET /api/settings/me': { kind: 'user', ok: 200, build: () => ({ path: '/api/settings/me' }) },
  'PUT /api/settings/me': {
    kind: 'user',
    ok: 200,
    build: () => ({ method: 'PUT', path: '/api/settings/me', json: { language: 'en' } }),
  },

  // Documents, expenses, invoices.
  'POST /api/documents/upload': {
    kind: 'company',
    build: (t) => ({
      path: '/api/documents/upload',
      init: uploadForm(t, { documentType: 'document', category: 'RH' }),
    }),
  },
  'POST /api/expenses/upload': {
    kind: 'company',
    build: (t) => ({ path: '/api/expenses/upload', init: uploadForm(t, { document_type: 'expense' }) }),
  },
  'GET /api/documents': { kind: 'company', build: (t) => ({ path: `/api/documents${q(t)}` }) },
  'GET /api/documents/:id': {
    kind: 'company',
    build: (t) => ({ path: `/api/documents/${t.fx.documentId}${q(t)}` }),
  },
  'GET /api/documents/:id/download': {
    kind: 'company',
    build: (t) => ({ path: `/api/documents/${t.fx.documentId}/download${q(t)}` }),
  },
  'DELETE /api/documents/:id': {
    kind: 'company',
    build: async (t) => ({
      method: 'DELETE',
      path: `/api/documents/${await freshDocument(t.fx.companyId, 'document')}${q(t)}`,
    }),
  },
  'GET /api/api/document/:type/:id/status': {
    kind: 'company',
    build: (t) => ({ path: `/api/api/document/invoice/${t.fx.invoiceId}/status${q(t)}` }),
  },
  'GET /api/api/documents/status': {
    kind: 'company',
    build: (t) => ({
      path: `/api/api/documents/status${q(t, { kind: 'invoice', document_ids: String(t.fx.invoiceId) })}`,
    }),
  },
  'GET /api/api/documents/processing': {
    kind: 'company',
    build: (t) => ({ path: `/api/api/documents/processing${q(t)}` }),
  },
  ...financial('expense'),
  ...financial('invoice'),

  // Logs and dashboard.
  'GET /api/logs': { kind: 'company', build: (t) => ({ path: `/api/logs${q(t)}` }) },
  'GET /api/logs/summary': { kind: 'company', build: (t) => ({ path: `/api/logs/summary${q(t)}` }) },
  'POST /api/logs': {
    kind: 'company',
    build: (t) => ({ path: '/api/logs', json: withCompany(t, { name: 'matrix', type: 'Invoice' }) }),
  },
  'GET /api/logs/:id': { kind: 'company', build: (t) => ({ path: `/api/logs/${t.fx.logId}${q(t)}` }) },
  'PATCH /api/logs/:id/status': {
    kind: 'company',
    build: (t) => ({
      method: 'PATCH',
      path: `/api/logs/${t.fx.logId}/status`,
      json: withCompany(t, { status: 'completed' }),
    }),
  },
  'DELETE /api/logs/:id': {
    kind: 'company',
    role: (a) => (a.global === 'SAAS_ADMIN' ? undefined : 403),
    build: async (t) => ({ method: 'DELETE', path: `/api/logs/${await freshLog(t.fx.companyId)}${q(t)}` }),
  },
  'POST /api/dashboard/data': {
    kind: 'company',
    build: (t) => ({ path: '/api/dashboard/data', json: withCompany(t) }),
  },
  'POST /api/dashboard/search': {
    kind: 'company',
    build: (t) => ({ path: '/api/dashboard/search', json: withCompany(t, { search_term: 'secret' }) }),
  },

  // Administration.
  'GET /api/admin/company': { kind: 'admin', build: () => ({ path: '/api/admin/company' }) },
  'GET /api/admin/company/search/:name': {
    kind: 'admin',
    build: () => ({ path: '/api/admin/company/search/secret' }),
  },
  'GET /api/admin/company/:id': {
    kind: 'admin',
    scoped: true,
    missing: 'skip',
    build: (t) => ({ path: `/api/admin/company/${pathCompany(t)}` }),
  },
  'POST /api/admin/company': {
    kind: 'admin',
    ok: 201,
    build: () => ({ path: '/api/admin/company', json: { name: unique('Matrix New') } }),
  },
  'PUT /api/admin/company/:id': {
    kind: 'admin',
    build: async () => ({
      method: 'PUT',
      path: `/api/admin/company/${await freshCompany()}`,
      json: { name: unique('Matrix Renamed'), monday_link: 'https://monday.example/board' },
    }),
  },
  'POST /api/admin/company/:id/status': {
    kind: 'admin',
    build: async () => ({
      path: `/api/admin/company/${await freshCompany()}/status`,
      json: { enabled: false },
    }),
  },
  'DELETE /api/admin/company/:id': {
    kind: 'admin',
    build: async () => ({ method: 'DELETE', path: `/api/admin/company/${await freshCompany()}` }),
  },
  'GET /api/admin/users': { kind: 'admin', build: () => ({ path: '/api/admin/users' }) },
  'POST /api/admin/invite-user': {
    kind: 'admin',
    ok: 201,
    build: () => ({
      path: '/api/admin/invite-user',
      json: { email: `${unique('invite')}@example.com`, name: 'Inv', surname: 'Ited', role: 'CLIENT_USER' },
    }),
  },
  'POST /api/admin/invite-user/': {
    kind: 'admin',
    scoped: true,
    ok: 201,
    missing: 400,
    build: (t) => ({
      path: '/api/admin/invite-user/',
      json: {
        email: `${unique('invite')}@example.com`,
        name: 'Inv',
        surname: 'Ited',
        role: 'CLIENT_USER',
        companies: [{ company_id: t.companyId, role: 'COMPANY_USER' }],
      },
    }),
  },
  'POST /api/admin/user/status': {
    kind: 'admin',
    build: async () => ({
      path: '/api/admin/user/status',
      json: { user_email: (await freshUser()).email, enabled: false },
    }),
  },
  'PUT /api/admin/user/:id': {
    kind: 'admin',
    build: async () => ({
      method: 'PUT',
      path: `/api/admin/user/${(await freshUser()).id}`,
      json: { name: 'Renamed', surname: 'Person', role: 'CLIENT_USER', enabled: true },
    }),
  },
  'POST /api/admin/user-company': {
    kind: 'admin',
    scoped: true,
    ok: 201,
    build: async (t) => ({
      path: '/api/admin/user-company',
      json: withCompany(t, { user_email: (await freshUser()).email, role: 'COMPANY_USER' }),
    }),
  },
  'DELETE /api/admin/user-company': {
    kind: 'admin',
    scoped: true,
    build: async (t) => {
      const user = await freshUser()
      if (t.companyId !== undefined && t.variant !== 'unknown')
        await addMember(database.db, user.id, t.companyId, 'COMPANY_USER')
      return { method: 'DELETE', path: `/api/admin/user-company${q(t, { user_email: user.email })}` }
    },
  },

  // Company context.
  'GET /api/users/companies': { kind: 'user', ok: 200, build: () => ({ path: '/api/users/companies' }) },
  'GET /api/companies/company/users': {
    kind: 'company',
    role: isCompanyAdmin,
    build: (t) => ({ path: `/api/companies/company/users${q(t)}` }),
  },
  'POST /api/companies/company/logo/:id': {
    kind: 'admin',
    scoped: true,
    missing: 'skip',
    build: (t) => ({
      path: `/api/companies/company/logo/${pathCompany(t)}`,
      init: fileForm({ name: 'logo.png', data: PNG, type: 'image/png' }),
    }),
  },
  'GET /api/companies/company/logo/:id': {
    kind: 'company',
    missing: 'skip',
    build: (t) => ({ path: `/api/companies/company/logo/${pathCompany(t)}?t=${Date.now()}` }),
  },
}

/** Every API registration of the app, as "METHOD path"; middleware (`use`, two-argument handlers) left out. */
function registeredRoutes(): string[] {
  const keys = new Set<string>()
  for (const route of ctx.app.routes) {
    const isMiddleware = route.method === 'ALL' && route.handler.length >= 2
    if (isMiddleware) continue
    const key = `${route.method} ${route.path}`
    if (!EXCLUDED.has(key)) keys.add(key)
  }
  return [...keys]
}

function expectedStatus(entry: Entry, a: ActorInfo, variant: Variant | null): Expected | 'skip' {
  if (variant === 'missing' && entry.missing === 'skip') return 'skip'
  const ok = entry.ok ?? '2xx'
  const signedIn = a.credentials !== null
  if (entry.kind === 'public') return ok
  if (!signedIn) return 401
  if (entry.kind === 'user') return ok
  if (entry.kind === 'admin') {
    if (a.global !== 'SAAS_ADMIN') return 403
    if (variant === 'missing') return entry.missing ?? 400
    if (variant === 'unknown') return entry.unknown ?? 404
    return ok
  }
  // company
  if (variant === 'missing') return entry.missing ?? 400
  if (variant === 'unknown' || variant === null) return entry.unknown ?? 404
  const hasAccess = a.global === 'SAAS_ADMIN' || a.roles[variant] !== undefined
  if (!hasAccess) return 404
  return entry.role?.(a, variant) ?? ok
}

const matches = (status: number, expected: Expected) =>
  expected === '2xx' ? status >= 200 && status < 300 : status === expected

async function perform(app: typeof ctx.app, jar: Jar, req: Req): Promise<Response> {
  if (req.init) return jar.request(app, req.path, { method: req.method ?? 'POST', ...req.init })
  if (req.json !== undefined) {
    return jar.request(app, req.path, {
      method: req.method ?? 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(req.json),
    })
  }
  return jar.request(app, req.path, { method: req.method ?? 'GET' })
}

let requests = 0

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createAdminTestApp(database.db)
  const db = database.db
  companyA = await insertCompany(db, `${ALPHA}-company`, {
    powerbiLink: `https://${ALPHA}.example/bi`,
    invoiceScanner: `scanner@${ALPHA}.example`,
  })
  companyB = await insertCompany(db, `${BRAVO}-company`, {
    powerbiLink: `https://${BRAVO}.example/bi`,
    mondayLink: `https://${BRAVO}.example/board`,
    invoiceScanner: `scanner@${BRAVO}.example`,
  })
  for (const [key, company, marker] of [
    ['A', companyA, ALPHA],
    ['B', companyB, BRAVO],
  ] as const) {
    fixtures[key] = {
      companyId: company.id,
      invoiceId: await freshDocument(company.id, 'invoice', `${marker}-invoice.pdf`),
      expenseId: await freshDocument(company.id, 'expense', `${marker}-expense.pdf`),
      documentId: await freshDocument(company.id, 'document', `${marker}-document.pdf`),
      logId: await freshLog(company.id, `${marker}-log`),
    }
  }
  // A member of B only, whose own name marks B's member lists.
  const bravoMember = await insertUser(db, { email: `member@${BRAVO}.example`, name: `${BRAVO}-name` })
  await addMember(db, bravoMember.id, companyB.id, 'COMPANY_ADMIN')

  const make = async (
    name: string,
    global: 'SAAS_ADMIN' | 'INTERNAL_USER',
    roles: Partial<Record<CompanyKey, CompanyRole>>,
  ): Promise<ActorInfo> => {
    const email = `${name}@${roles.B && !roles.A ? BRAVO : roles.A && !roles.B ? ALPHA : 'matrix'}.example`
    const memberships = Object.entries(roles).map(([k, role]) => ({
      companyId: (k === 'A' ? companyA : companyB).id,
      role: role as CompanyRole,
    }))
    const made = await actor(db, ctx.app, { role: global, email, memberships })
    return { name, global, roles, jar: made.jar, credentials: { email, password: made.user.password } }
  }
  actors = [
    { name: 'anonymous', global: null, roles: {}, jar: createCookieJar(), credentials: null },
    await make('user-of-a', 'INTERNAL_USER', { A: 'COMPANY_USER' }),
    await make('admin-of-a', 'INTERNAL_USER', { A: 'COMPANY_ADMIN' }),
    await make('user-of-b', 'INTERNAL_USER', { B: 'COMPANY_USER' }),
    await make('member-of-a-and-b', 'INTERNAL_USER', { A: 'COMPANY_USER', B: 'COMPANY_ADMIN' }),
    await make('platform-admin', 'SAAS_ADMIN', {}),
  ]
  // Logos for both companies, so fetching one can succeed.
  const admin = actors.find((a) => a.global === 'SAAS_ADMIN')!
  for (const company of [companyA, companyB]) {
    const res = await admin.jar.request(
      ctx.app,
      `/api/companies/company/logo/${company.id}`,
      fileForm({ name: 'logo.png', data: PNG }),
    )
    if (res.status !== 200) throw new Error(`logo seed failed: ${res.status}`)
  }
})

afterAll(async () => {
  console.info(
    `authorization matrix: ${Object.keys(ENTRIES).length} routes × ${actors.length} actors, ${requests} requests`,
  )
  await ctx?.cleanup()
  await database?.close()
})

describe('authorization matrix', () => {
  it('has an entry for every route of the app, and none for a route that no longer exists', () => {
    const registered = registeredRoutes()
    const withoutEntry = registered.filter((key) => !(key in ENTRIES))
    const stale = Object.keys(ENTRIES).filter((key) => !registered.includes(key))
    expect({ withoutEntry, stale }).toEqual({ withoutEntry: [], stale: [] })
  })

  it.each(Object.keys(ENTRIES))('%s', async (key) => {
    const entry = ENTRIES[key]!
    const scoped = entry.kind === 'company' || entry.scoped === true
    const variants: (Variant | null)[] = scoped ? ['A', 'B', 'missing', 'unknown'] : [null]
    const failures: string[] = []
    for (const a of actors) {
      for (const variant of variants) {
        const expected = expectedStatus(entry, a, variant)
        if (expected === 'skip') continue
        const key2: CompanyKey = variant === 'B' ? 'B' : 'A'
        const companyId =
          variant === 'missing'
            ? undefined
            : variant === 'unknown'
              ? UNKNOWN_COMPANY
              : fixtures[key2].companyId
        const req = await entry.build({ variant: variant ?? 'A', companyId, fx: fixtures[key2], actor: a })
        const jar = entry.spareSession && a.credentials ? await login(ctx.app, a.credentials) : a.jar
        const res = await perform(ctx.app, jar, req)
        requests += 1
        const text = `${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${await res.text()}`
        const where = `${a.name} × ${variant ?? '-'}`
        if (!matches(res.status, expected)) {
          failures.push(`${where}: expected ${expected}, got ${res.status} ${text.slice(-200)}`)
        }
        if (res.status >= 500) failures.push(`${where}: server error`)
        if (!a.roles.B && a.global !== 'SAAS_ADMIN' && text.toLowerCase().includes(BRAVO)) {
          failures.push(`${where}: company B data in the answer to someone outside B`)
        }
        if (!a.roles.A && a.global !== 'SAAS_ADMIN' && text.toLowerCase().includes(ALPHA)) {
          failures.push(`${where}: company A data in the answer to someone outside A`)
        }
      }
    }
    expect(failures).toEqual([])
  })
})

/**
 * Every route the app registers, with a request that reaches it (shared by the authorisation
 * matrix and the fuzz test). Each entry says who may call it (`kind`), how company_id travels,
 * and builds a request for a target company, its records and an actor.
 *
 * A route without an entry fails the matrix's first test: add its entry when adding a route.
 */
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import type { CompanyRole, DocumentKind } from '../../contract/index.ts'
import type { AppDatabase } from '../../server/db/client.ts'
import { documentPages, documents, logs } from '../../server/db/schema.ts'
import type { FileStorage } from '../../server/services/storage/index.ts'
import { addMember, fileForm, insertCompany, type Jar, PNG, TINY_PDF } from './admin-helpers.ts'
import { insertUser } from './helpers.ts'

type RequestApp = { request: (path: string, init?: RequestInit) => Response | Promise<Response> }

export const UNKNOWN_COMPANY = 987_654

/** Registrations that are not API calls: the SPA and its files, the catalogs (tested in http.test.ts). */
export const EXCLUDED = new Set(['GET /*', 'GET /locales/:lng/common.json'])

export type CompanyKey = 'A' | 'B'
export type Variant = CompanyKey | 'missing' | 'unknown'
/** An exact status, or any 2xx. */
export type Expected = number | '2xx'

export interface Fixtures {
  companyId: number
  invoiceId: number
  expenseId: number
  documentId: number
  logId: number
}

export interface ActorInfo {
  name: string
  global: 'SAAS_ADMIN' | 'INTERNAL_USER' | null
  roles: Partial<Record<CompanyKey, CompanyRole>>
  jar: Jar
  credentials: { email: string; password: string } | null
  /** The actor's requests carry a personal API token (`Authorization: Bearer`), not a cookie. */
  bearer?: boolean
}

export interface Target {
  variant: Variant
  /** The company_id to send (undefined: leave it out). */
  companyId: number | undefined
  /** Records of the target company (A's for missing / unknown). */
  fx: Fixtures
  actor: ActorInfo
}

export interface Req {
  path: string
  method?: string
  json?: unknown
  init?: RequestInit
}

export interface Entry {
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
  /**
   * Refused (403) to a request authenticated by a personal API token: token management, password,
   * 2FA (the `/admin/*` calls, kind admin, always are).
   */
  sessionOnly?: boolean
  build: (t: Target) => Req | Promise<Req>
}

/** The database and storage of the app under test, read when a request is built (after beforeAll). */
export type RouteTableEnv = () => { db: AppDatabase; storage: FileStorage }

/** The table, plus the record factories its entries use (the matrix seeds its fixtures with them). */
export function createRouteTable(env: RouteTableEnv) {
  let counter = 0
  const unique = (prefix: string) => `${prefix}-${++counter}-${Date.now()}`

  // Fresh records for calls that change or delete what they touch.
  async function freshDocument(companyId: number, kind: DocumentKind, name = 'matrix.pdf'): Promise<number> {
    const key = env().storage.newKey()
    await env().storage.put(key, Readable.from([TINY_PDF]))
    const [row] = await env()
      .db.insert(documents)
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
        pages: kind === 'document' ? null : 1,
      })
      .returning({ id: documents.id })
    // An invoice's or expense's processing keeps its page's words: the words call has them to answer.
    if (kind !== 'document')
      await env()
        .db.insert(documentPages)
        .values({
          documentId: row!.id,
          page: 1,
          width: 595,
          height: 842,
          words: [{ text: name, box: [0.1, 0.1, 0.3, 0.12] }],
        })
    return row!.id
  }

  async function freshLog(companyId: number, name = 'matrix log'): Promise<number> {
    const [row] = await env()
      .db.insert(logs)
      .values({ companyId, name, type: 'Invoice', status: 'completed', category: 'Invoices' })
      .returning({ id: logs.id })
    return row!.id
  }

  const freshCompany = async () => (await insertCompany(env().db, unique('Matrix Fresh'))).id
  const freshUser = async () => insertUser(env().db, { email: `${unique('fresh')}@example.com` })

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
      [`PATCH ${base}/:id`]: {
        kind: 'company',
        build: async (t) => ({
          method: 'PATCH',
          path: `${base}/${await freshDocument(t.fx.companyId, kind)}${q(t)}`,
          json: { currency: 'EUR' },
        }),
      },
      [`POST ${base}/:id/confirm`]: {
        kind: 'company',
        build: async (t) => ({
          method: 'POST',
          path: `${base}/${await freshDocument(t.fx.companyId, kind)}/confirm${q(t)}`,
        }),
      },
      [`POST ${base}/:id/reprocess`]: {
        kind: 'company',
        build: async (t) => ({
          method: 'POST',
          path: `${base}/${await freshDocument(t.fx.companyId, kind)}/reprocess${q(t)}`,
        }),
      },
      [`GET ${base}/:id/history`]: {
        kind: 'company',
        build: (t) => ({ path: `${base}/${id(t)}/history${q(t)}` }),
      },
      [`GET ${base}/export`]: {
        kind: 'company',
        build: (t) => ({ path: `${base}/export${q(t, { format: 'csv' })}` }),
      },
      [`DELETE ${base}/:id`]: {
        kind: 'company',
        build: async (t) => ({
          method: 'DELETE',
          path: `${base}/${await freshDocument(t.fx.companyId, kind)}${q(t)}`,
        }),
      },
    }
  }

  const entries: Record<string, Entry> = {
    // Health, sign-in and account security (bodies chosen to be refused before any side effect).
    'GET /api/health': { kind: 'public', ok: 200, build: () => ({ path: '/api/health' }) },
    'GET /robots.txt': { kind: 'public', ok: 200, build: () => ({ path: '/robots.txt' }) },
    // The API described: public, like the page that renders it.
    'GET /api/openapi.json': { kind: 'public', ok: 200, build: () => ({ path: '/api/openapi.json' }) },
    'GET /api/docs': { kind: 'public', ok: 200, build: () => ({ path: '/api/docs' }) },
    'GET /api/docs/scalar.js': { kind: 'public', ok: 200, build: () => ({ path: '/api/docs/scalar.js' }) },
    'GET /api/docs/start.js': { kind: 'public', ok: 200, build: () => ({ path: '/api/docs/start.js' }) },
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
    'GET /api/auth/session': { kind: 'public', ok: 200, build: () => ({ path: '/api/auth/session' }) },
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
      sessionOnly: true,
      ok: 400,
      build: () => ({ path: '/api/auth/generate-2fa', json: {} }),
    },
    'POST /api/auth/verify-2fa': {
      kind: 'user',
      sessionOnly: true,
      ok: 400,
      build: () => ({ path: '/api/auth/verify-2fa', json: {} }),
    },
    'POST /api/auth/disable-2fa': {
      kind: 'user',
      sessionOnly: true,
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
      sessionOnly: true,
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
    'PUT /api/settings/two-factor-advice': {
      kind: 'user',
      ok: 200,
      build: () => ({ method: 'PUT', path: '/api/settings/two-factor-advice', json: { advice: true } }),
    },
    'GET /api/settings/api-tokens': {
      kind: 'user',
      sessionOnly: true,
      ok: 200,
      build: () => ({ path: '/api/settings/api-tokens' }),
    },
    'POST /api/settings/api-tokens': {
      kind: 'user',
      sessionOnly: true,
      ok: 400,
      build: () => ({ path: '/api/settings/api-tokens', json: {} }),
    },
    'DELETE /api/settings/api-tokens/:id': {
      kind: 'user',
      sessionOnly: true,
      ok: 404,
      build: () => ({ method: 'DELETE', path: '/api/settings/api-tokens/2147483647' }),
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
    'GET /api/documents/:id/pages/:n/words': {
      kind: 'company',
      build: (t) => ({ path: `/api/documents/${t.fx.invoiceId}/pages/1/words${q(t)}` }),
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
    // Live events: an open stream, read up to its first comment (see `answerText`).
    'GET /api/events': { kind: 'company', build: (t) => ({ path: `/api/events${q(t)}` }) },
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
          await addMember(env().db, user.id, t.companyId, 'COMPANY_USER')
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
  return { entries, freshDocument, freshLog }
}

/** Every API registration of the app, as "METHOD path"; middleware (`use`, two-argument handlers) left out. */
export function registeredRoutes(app: {
  routes: { method: string; path: string; handler: { length: number } }[]
}): string[] {
  const keys = new Set<string>()
  for (const route of app.routes) {
    const isMiddleware = route.method === 'ALL' && route.handler.length >= 2
    if (isMiddleware) continue
    const key = `${route.method} ${route.path}`
    if (!EXCLUDED.has(key)) keys.add(key)
  }
  return [...keys]
}

/** Sends a built request with the jar's cookies (JSON bodies as application/json). */
/**
 * An answer's text; of an event stream (which stays open), what it sent first, then the stream is
 * closed as a client leaving would.
 */
export async function answerText(res: Response): Promise<string> {
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) return res.text()
  const reader = res.body!.getReader()
  const { value } = await reader.read()
  await reader.cancel()
  return new TextDecoder().decode(value)
}

export async function perform(app: RequestApp, jar: Jar, req: Req): Promise<Response> {
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

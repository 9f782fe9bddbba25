/**
 * Tenancy: every call on company data names a `company_id` and answers 404 unless the signed-in
 * user belongs to that company and it is enabled (SAAS_ADMIN: any existing company). The membership is loaded
 * once per request and kept in `c.var.company`.
 */
import { and, eq } from 'drizzle-orm'
import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import * as v from 'valibot'
import { CompanyQuery } from '../../contract/document-calls.ts'
import { contractMessages, IdParam } from '../../contract/index.ts'
import type { AppDatabase } from '../db/client.ts'
import { companies, type UserRow, userCompanies } from '../db/schema.ts'
import type { AppEnv } from './context.ts'
import { beyondIdRange, HttpError, parsePathId } from './errors.ts'
import { documented } from './openapi.ts'

export interface CompanyAccess {
  companyId: number
  /** The user's role in the company; null for a SAAS_ADMIN who is not a member. */
  role: string | null
}

export type CompanyEnv = AppEnv & { Variables: AppEnv['Variables'] & { company: CompanyAccess } }

export const COMPANY_NOT_FOUND = 'Company not found'

/** The user's access to the company, or null when the company is not visible to them. */
export async function findCompanyAccess(
  db: AppDatabase,
  user: Pick<UserRow, 'id' | 'role'>,
  companyId: number,
): Promise<CompanyAccess | null> {
  const [member] = await db
    .select({ role: userCompanies.role, enabled: companies.enabled })
    .from(userCompanies)
    .innerJoin(companies, eq(companies.id, userCompanies.companyId))
    .where(and(eq(userCompanies.userId, user.id), eq(userCompanies.companyId, companyId)))
  // A disabled company is closed to its members; platform administrators still reach it.
  if (member && (member.enabled || user.role === 'SAAS_ADMIN')) return { companyId, role: member.role }
  if (user.role !== 'SAAS_ADMIN') return null
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId))
  return company ? { companyId, role: null } : null
}

/** A company id as sent (string or number); 400 naming `company_id` otherwise. */
export function parseCompanyId(raw: unknown): number {
  const value = typeof raw === 'number' ? String(raw) : raw
  const result = v.safeParse(IdParam, value)
  if (!result.success) {
    throw new HttpError(400, contractMessages.invalidInput, [
      {
        field: 'company_id',
        message: raw === undefined || raw === '' ? 'Company ID is required' : 'Invalid id',
      },
    ])
  }
  return result.output
}

async function requireCompanyAccess(
  db: AppDatabase,
  user: Pick<UserRow, 'id' | 'role'>,
  raw: unknown,
): Promise<CompanyAccess> {
  const access = await findCompanyAccess(db, user, parseCompanyId(raw))
  if (!access) throw new HttpError(404, COMPANY_NOT_FOUND)
  return access
}

async function companyIdOf(c: Context, fromBody: boolean): Promise<unknown> {
  const fromPath = c.req.param('company_id')
  if (fromPath !== undefined) return fromPath
  const fromQuery = c.req.query('company_id')
  if (fromQuery !== undefined || !fromBody) return fromQuery
  if (c.req.header('content-type')?.toLowerCase().startsWith('application/json')) {
    // Hono caches the parsed body: the handler reads it again for free.
    const body = await c.req.json().catch(() => null)
    if (body && typeof body === 'object') return (body as Record<string, unknown>).company_id
  }
  return undefined
}

/**
 * The one place a call's company is resolved: reads `company_id` from the path, the query or
 * (unless `fromBody` is false) the JSON body, checks membership and keeps it in `c.var.company`;
 * runs after `requireUser`. Multipart uploads check the field themselves while the body streams
 * (see routes/documents). Calls whose body is a record's fields (corrections) take the company
 * from the query only: a `company_id` in such a body is ignored. `documentedIn` says where the
 * API description names it (a body's schema names it itself).
 */
export function requireCompanyMember(
  db: AppDatabase,
  options: { fromBody?: boolean; documentedIn?: 'query' | 'path' | 'body' } = {},
) {
  const fromBody = options.fromBody ?? true
  const middleware = createMiddleware<CompanyEnv>(async (c, next) => {
    // In the path, like any record id: one beyond the int4 range names no company (404).
    if (beyondIdRange(c.req.param('company_id'))) throw new HttpError(404, COMPANY_NOT_FOUND)
    c.set('company', await requireCompanyAccess(db, c.var.user, await companyIdOf(c, fromBody)))
    await next()
  })
  const documentedIn = options.documentedIn ?? 'query'
  if (documentedIn === 'body') return middleware
  return documented(middleware, documentedIn === 'path' ? 'param' : 'query', CompanyQuery)
}

/**
 * The company named by the path's `id` (`/companies/company/logo/{id}`): 400 for a malformed id,
 * 404 when it is not visible to the user; kept in `c.var.company`.
 */
export function requireCompanyOfPath(db: AppDatabase) {
  const middleware = createMiddleware<CompanyEnv>(async (c, next) => {
    const id = parsePathId(c.req.param('id'), COMPANY_NOT_FOUND)
    const access = await findCompanyAccess(db, c.var.user, id)
    if (!access) throw new HttpError(404, COMPANY_NOT_FOUND)
    c.set('company', access)
    await next()
  })
  return documented(middleware, 'param', v.object({ id: IdParam }))
}

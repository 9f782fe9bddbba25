/**
 * Activity logs (the dashboard rows) and the dashboard calls. Listing filters: status,
 * element_type, last_days, start_date, end_date, sort_by, sort_order, search_term; the dashboard
 * calls take the same filters as a JSON body.
 */
import { and, asc, desc, eq, gte, ilike, lte, or, type SQL, sql } from 'drizzle-orm'
import { type Context, Hono } from 'hono'
import * as v from 'valibot'
import { IdParam } from '../../src/api/schemas.ts'
import { LOG_STATUSES, LOG_TYPES, logs } from '../db/schema.ts'
import { requireUser } from '../http/auth.ts'
import { type CompanyEnv, requireCompanyMember } from '../http/company-access.ts'
import type { RouteDeps } from '../http/context.ts'
import { HttpError, parse, readJson } from '../http/errors.ts'
import { toLog } from '../services/documents/views.ts'

const MAX_ROWS = 1000
const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max))
const optionalText = v.optional(v.nullable(v.union([v.string(), v.number()])))

const LogStatus = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.picklist(LOG_STATUSES, 'Unknown status'))
const LogType = v.pipe(
  v.string(),
  v.trim(),
  v.transform((s) => LOG_TYPES.find((t) => t.toLowerCase() === s.toLowerCase()) ?? s),
  v.picklist(LOG_TYPES, 'Type must be Invoice, Expense or Document'),
)

const NewLog = v.object({
  company_id: v.unknown(),
  name: v.pipe(text(255), v.minLength(1, 'Name is required')),
  type: LogType,
  status: v.optional(LogStatus, 'pending'),
  category: v.optional(v.nullable(text(100)), null),
})
const StatusPatch = v.object({ company_id: v.unknown(), status: LogStatus })

const SORTS = {
  date: logs.createdAt,
  timestamp: logs.createdAt,
  created_at: logs.createdAt,
  name: logs.name,
  documentname: logs.name,
  document: logs.name,
  type: logs.type,
  documenttype: logs.type,
  status: logs.status,
  category: logs.category,
} as const

const dateInput = (field: string) =>
  v.pipe(
    v.string(),
    v.check((s) => !Number.isNaN(Date.parse(s)), `${field} must be an ISO date`),
    v.transform((s) => new Date(s)),
  )

const Filters = v.object({
  status: optionalText,
  element_type: optionalText,
  last_days: optionalText,
  start_date: v.optional(v.nullable(dateInput('start_date'))),
  end_date: v.optional(v.nullable(dateInput('end_date'))),
  sort_by: optionalText,
  sort_order: optionalText,
  search_term: optionalText,
  limit: optionalText,
})

export function logRoutes({ db, sessions, clock }: RouteDeps) {
  const member = requireCompanyMember(db)

  function listing(companyId: number, raw: Record<string, unknown>) {
    const input = parse(Filters, raw)
    const where: (SQL | undefined)[] = [eq(logs.companyId, companyId)]
    const status =
      input.status === undefined || input.status === null ? '' : String(input.status).trim().toLowerCase()
    if (status && status !== 'all') where.push(eq(logs.status, parse(LogStatus, status)))
    const type =
      input.element_type === undefined || input.element_type === null ? '' : String(input.element_type).trim()
    if (type && type.toLowerCase() !== 'all') where.push(eq(logs.type, parse(LogType, type)))
    if (input.last_days !== undefined && input.last_days !== null && String(input.last_days) !== '') {
      const days = Number(input.last_days)
      if (!Number.isInteger(days) || days < 0 || days > 36500) {
        throw new HttpError(400, 'Invalid input', [
          { field: 'last_days', message: 'Must be a whole number of days' },
        ])
      }
      where.push(gte(logs.createdAt, new Date(clock().getTime() - days * 86_400_000)))
    }
    if (input.start_date) where.push(gte(logs.createdAt, input.start_date))
    if (input.end_date) where.push(lte(logs.createdAt, input.end_date))
    const term =
      input.search_term === undefined || input.search_term === null ? '' : String(input.search_term).trim()
    if (term) {
      const pattern = `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`
      where.push(or(ilike(logs.name, pattern), ilike(logs.category, pattern), ilike(logs.type, pattern)))
    }
    const sortKey = String(input.sort_by ?? 'date').toLowerCase() as keyof typeof SORTS
    const column = SORTS[sortKey]
    if (!column)
      throw new HttpError(400, 'Invalid input', [{ field: 'sort_by', message: 'Unknown sort column' }])
    const order = String(input.sort_order ?? 'desc').toLowerCase()
    if (order !== 'asc' && order !== 'desc') {
      throw new HttpError(400, 'Invalid input', [{ field: 'sort_order', message: 'Must be asc or desc' }])
    }
    const limit = Math.min(MAX_ROWS, Math.max(1, Number(input.limit ?? MAX_ROWS) || MAX_ROWS))
    const direction = order === 'asc' ? asc : desc
    return db
      .select()
      .from(logs)
      .where(and(...where))
      .orderBy(
        column === logs.name ? direction(sql`lower(${logs.name})`) : direction(column),
        direction(logs.id),
      )
      .limit(limit)
  }

  async function findLog(companyId: number, rawId: string) {
    const id = parse(IdParam, rawId) as number
    const [row] = await db
      .select()
      .from(logs)
      .where(and(eq(logs.id, id), eq(logs.companyId, companyId)))
    if (!row) throw new HttpError(404, 'Log not found')
    return row
  }

  const dashboard = async (c: Context<CompanyEnv>) => {
    const body = ((await readJson(c)) ?? {}) as Record<string, unknown>
    const { company_id: _, ...filters } = body
    return (await listing(c.var.company.companyId, filters)).map(toLog)
  }

  return new Hono<CompanyEnv>()
    .use('/logs/*', requireUser(sessions))
    .use('/logs', requireUser(sessions))
    .use('/dashboard/*', requireUser(sessions))
    .get('/logs', member, async (c) => {
      const { company_id: _, ...query } = c.req.query()
      return c.json((await listing(c.var.company.companyId, query)).map(toLog))
    })
    .post('/logs', member, async (c) => {
      const input = parse(NewLog, await readJson(c))
      const now = clock()
      const [row] = await db
        .insert(logs)
        .values({
          companyId: c.var.company.companyId,
          userId: c.var.user.id,
          name: input.name,
          type: input.type,
          status: input.status,
          category: input.category,
          createdAt: now,
          updatedAt: now,
        })
        .returning()
      return c.json(toLog(row!), 201)
    })
    .get('/logs/:id', member, async (c) =>
      c.json(toLog(await findLog(c.var.company.companyId, c.req.param('id')))),
    )
    .patch('/logs/:id/status', member, async (c) => {
      const { status } = parse(StatusPatch, await readJson(c))
      const row = await findLog(c.var.company.companyId, c.req.param('id'))
      const [updated] = await db
        .update(logs)
        .set({ status, updatedAt: clock() })
        .where(eq(logs.id, row.id))
        .returning()
      return c.json(toLog(updated!))
    })
    .delete('/logs/:id', member, async (c) => {
      const row = await findLog(c.var.company.companyId, c.req.param('id'))
      // The specification offers row deletion to platform administrators, on finished rows only.
      if (c.var.user.role !== 'SAAS_ADMIN')
        throw new HttpError(403, 'Only a platform administrator can delete log entries')
      if (row.status === 'pending' || row.status === 'processing') {
        throw new HttpError(409, 'A pending or processing entry cannot be deleted')
      }
      await db.delete(logs).where(eq(logs.id, row.id))
      return c.json({ message: 'Deleted' })
    })
    .post('/dashboard/data', member, async (c) => c.json(await dashboard(c)))
    .post('/dashboard/search', member, async (c) => c.json(await dashboard(c)))
}

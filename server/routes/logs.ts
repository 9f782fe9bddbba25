/**
 * Activity logs (the dashboard rows) and the dashboard calls. Listing filters: status,
 * element_type, last_days, start_date, end_date, sort_by, sort_order, search_term; the dashboard
 * calls take the same filters as a JSON body. Pages: `limit` (1–1000, default 1000) and `offset`;
 * the answer stays a list, and `X-Has-More: true` says another page follows. `GET /logs/summary`
 * counts the company's rows (total, pending, failed) without listing them.
 */
import { and, eq } from 'drizzle-orm'
import { type Context, Hono } from 'hono'
import * as v from 'valibot'
import { isActiveLogStatus, Text } from '../../contract/index.ts'
import { logs } from '../db/schema.ts'
import { requireUser } from '../http/auth.ts'
import { type CompanyEnv, requireCompanyMember } from '../http/company-access.ts'
import type { RouteDeps } from '../http/context.ts'
import { HttpError, parse, parsePathId, readJson } from '../http/errors.ts'
import { type DashboardRow, dashboardRows } from '../services/documents/lifecycle/document-service.ts'
import { toLog } from '../services/documents/views.ts'
import { LogStatus, LogType, listLogs, summarizeLogs } from '../services/log-queries.ts'

const NewLog = v.object({
  company_id: v.unknown(),
  name: v.pipe(Text(255), v.minLength(1, 'Name is required')),
  type: LogType,
  status: v.optional(LogStatus, 'pending'),
  category: v.optional(v.nullable(Text(100)), null),
})
const StatusPatch = v.object({ company_id: v.unknown(), status: LogStatus })

export function logRoutes({ db, sessions, clock }: RouteDeps) {
  const member = requireCompanyMember(db)

  const page = (c: Context<CompanyEnv>, { rows, hasMore }: { rows: DashboardRow[]; hasMore: boolean }) => {
    c.header('X-Has-More', String(hasMore))
    return c.json(rows.map(toLog))
  }

  async function findLog(companyId: number, rawId: string) {
    const id = parsePathId(rawId, 'Log not found')
    const [row] = await dashboardRows(db).where(and(eq(logs.id, id), eq(logs.companyId, companyId)))
    if (!row) throw new HttpError(404, 'Log not found')
    return row
  }

  const dashboard = async (c: Context<CompanyEnv>) => {
    const body = ((await readJson(c)) ?? {}) as Record<string, unknown>
    const { company_id: _, ...filters } = body
    return page(c, await listLogs(db, c.var.company.companyId, filters, clock()))
  }

  return new Hono<CompanyEnv>()
    .use('/logs/*', requireUser(sessions))
    .use('/logs', requireUser(sessions))
    .use('/dashboard/*', requireUser(sessions))
    .get('/logs', member, async (c) => {
      const { company_id: _, ...query } = c.req.query()
      return page(c, await listLogs(db, c.var.company.companyId, query, clock()))
    })
    .get('/logs/summary', member, async (c) => c.json(await summarizeLogs(db, c.var.company.companyId)))
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
      return c.json(toLog({ ...row!, status: input.status }), 201)
    })
    .get('/logs/:id', member, async (c) =>
      c.json(toLog(await findLog(c.var.company.companyId, c.req.param('id')))),
    )
    .patch('/logs/:id/status', member, async (c) => {
      const { status } = parse(StatusPatch, await readJson(c))
      const row = await findLog(c.var.company.companyId, c.req.param('id'))
      // A document's row shows the document's status, which only its processing and review change.
      if (row.documentId !== null)
        throw new HttpError(409, 'The status of a document’s entry follows the document')
      const [updated] = await db
        .update(logs)
        .set({ status, updatedAt: clock() })
        .where(eq(logs.id, row.id))
        .returning()
      return c.json(toLog({ ...updated!, status }))
    })
    .delete('/logs/:id', member, async (c) => {
      const row = await findLog(c.var.company.companyId, c.req.param('id'))
      // The specification offers row deletion to platform administrators, on finished rows only.
      if (c.var.user.role !== 'SAAS_ADMIN')
        throw new HttpError(403, 'Only a platform administrator can delete log entries')
      if (isActiveLogStatus(row.status)) {
        throw new HttpError(409, 'A pending or processing entry cannot be deleted')
      }
      await db.delete(logs).where(eq(logs.id, row.id))
      return c.json({ message: 'Deleted' })
    })
    .post('/dashboard/data', member, dashboard)
    .post('/dashboard/search', member, dashboard)
}

/**
 * Activity logs (the dashboard rows) and the dashboard calls, for `c.var.company`. Pages: `limit`
 * (1–1000, default 1000) and `offset`; the answer stays a list, and `X-Has-More: true` says
 * another page follows.
 */
import type { Context } from 'hono'
import type * as v from 'valibot'
import { isActiveLogStatus } from '../../../contract/index.ts'
import type { LogStatusPatch, NewLog } from '../../../contract/log-calls.ts'
import type { CompanyEnv } from '../../http/company-access.ts'
import type { RouteDeps } from '../../http/context.ts'
import { HttpError, readJson } from '../../http/errors.ts'
import type { DashboardRow } from '../../services/documents/lifecycle/document-service.ts'
import { toLog } from '../../services/documents/views.ts'
import { listLogs } from '../../services/log-queries.ts'
import { deleteLog, findLog, insertLog, updateLogStatus } from './logs.queries.ts'

type WithId<T extends object = object> = Context<CompanyEnv, string, { out: { param: { id: number } } & T }>

const page = (c: Context<CompanyEnv>, { rows, hasMore }: { rows: DashboardRow[]; hasMore: boolean }) => {
  c.header('X-Has-More', String(hasMore))
  return c.json(rows.map(toLog))
}

/** `GET /logs`: the filters are the query's. */
export async function listFromQuery({ db, clock }: RouteDeps, c: Context<CompanyEnv>) {
  const { company_id: _, ...query } = c.req.query()
  return page(c, await listLogs(db, c.var.company.companyId, query, clock()))
}

/** `POST /dashboard/data` and `/dashboard/search`: the filters are the JSON body's. */
export async function listFromBody({ db, clock }: RouteDeps, c: Context<CompanyEnv>) {
  const body = ((await readJson(c)) ?? {}) as Record<string, unknown>
  const { company_id: _, ...filters } = body
  return page(c, await listLogs(db, c.var.company.companyId, filters, clock()))
}

export async function createLog(
  { db, clock }: RouteDeps,
  c: Context<CompanyEnv, string, { out: { json: v.InferOutput<typeof NewLog> } }>,
) {
  const input = c.req.valid('json')
  const row = await insertLog(
    db,
    { companyId: c.var.company.companyId, userId: c.var.user.id, now: clock() },
    input,
  )
  return c.json(toLog({ ...row, status: input.status }), 201)
}

export const readLog = async ({ db }: RouteDeps, c: WithId) =>
  c.json(toLog(await findLog(db, c.var.company.companyId, c.req.valid('param').id)))

export async function changeLogStatus(
  { db, clock }: RouteDeps,
  c: WithId<{ json: v.InferOutput<typeof LogStatusPatch> }>,
) {
  const { status } = c.req.valid('json')
  const row = await findLog(db, c.var.company.companyId, c.req.valid('param').id)
  // A document's row shows the document's status, which only its processing and review change.
  if (row.documentId !== null)
    throw new HttpError(409, 'The status of a document’s entry follows the document')
  const updated = await updateLogStatus(db, row.id, status, clock())
  return c.json(toLog({ ...updated, status }))
}

export async function removeLog({ db }: RouteDeps, c: WithId) {
  const row = await findLog(db, c.var.company.companyId, c.req.valid('param').id)
  // The specification offers row deletion to platform administrators, on finished rows only.
  if (c.var.user.role !== 'SAAS_ADMIN')
    throw new HttpError(403, 'Only a platform administrator can delete log entries')
  if (isActiveLogStatus(row.status)) {
    throw new HttpError(409, 'A pending or processing entry cannot be deleted')
  }
  await deleteLog(db, row.id)
  return c.json({ message: 'Deleted' })
}

/**
 * Activity logs (the dashboard rows) and the dashboard calls. Listing filters: status,
 * element_type, last_days, start_date, end_date, sort_by, sort_order, search_term; the dashboard
 * calls take the same filters as a JSON body. `GET /logs/summary` counts the company's rows
 * (total, pending, failed, to_review) without listing them; `review=needed` lists the review queue.
 */
import { Hono } from 'hono'
import * as v from 'valibot'
import { LogEntry, LogSummary, MessageResult } from '../../../contract/index.ts'
import { LogFilters, LogStatusPatch, NewLog } from '../../../contract/log-calls.ts'
import { requireUser } from '../../http/auth.ts'
import { type CompanyEnv, requireCompanyMember } from '../../http/company-access.ts'
import type { RouteDeps } from '../../http/context.ts'
import { describe, documentedInput, json, pathId, validate } from '../../http/openapi.ts'
import { summarizeLogs } from '../../services/log-queries.ts'
import {
  changeLogStatus,
  createLog,
  listFromBody,
  listFromQuery,
  readLog,
  removeLog,
} from './logs.handlers.ts'
import { LOG_NOT_FOUND } from './logs.queries.ts'

export function logRoutes(deps: RouteDeps) {
  const { db, sessions } = deps
  const member = requireCompanyMember(db)
  const inBody = requireCompanyMember(db, { documentedIn: 'body' })
  const logId = () => pathId(LOG_NOT_FOUND)
  const tags = ['Logs']
  const rows = { 200: json(v.array(LogEntry), 'The rows; `X-Has-More: true` when another page follows') }
  const dashboard = [
    describe({
      tags: ['Dashboard'],
      summary: 'The dashboard rows under the filters of the body',
      responses: rows,
    }),
    inBody,
    documentedInput('json', v.object({ company_id: v.number(), ...LogFilters.entries })),
  ] as const
  const signedIn = requireUser(sessions)

  return new Hono<CompanyEnv>()
    .use('/logs/*', signedIn)
    .use('/logs', signedIn)
    .use('/dashboard/*', signedIn)
    .get(
      '/logs',
      describe({ tags, summary: "The company's rows under the filters", responses: rows }),
      member,
      documentedInput('query', LogFilters),
      (c) => listFromQuery(deps, c),
    )
    .get(
      '/logs/summary',
      describe({ tags, summary: "Counts of the company's rows", responses: { 200: json(LogSummary) } }),
      member,
      async (c) => c.json(await summarizeLogs(db, c.var.company.companyId)),
    )
    .post(
      '/logs',
      describe({ tags, summary: 'Adds a row', responses: { 201: json(LogEntry, 'Created') } }),
      inBody,
      validate('json', NewLog),
      (c) => createLog(deps, c),
    )
    .get(
      '/logs/:id',
      describe({ tags, summary: 'One row', responses: { 200: json(LogEntry) } }),
      member,
      logId(),
      (c) => readLog(deps, c),
    )
    .patch(
      '/logs/:id/status',
      describe({
        tags,
        summary: "Changes a row's status (not a document's)",
        responses: { 200: json(LogEntry) },
      }),
      inBody,
      validate('json', LogStatusPatch),
      logId(),
      (c) => changeLogStatus(deps, c),
    )
    .delete(
      '/logs/:id',
      describe({ tags, summary: 'Deletes a finished row', responses: { 200: json(MessageResult) } }),
      member,
      logId(),
      (c) => removeLog(deps, c),
    )
    .post('/dashboard/data', ...dashboard, (c) => listFromBody(deps, c))
    .post('/dashboard/search', ...dashboard, (c) => listFromBody(deps, c))
}

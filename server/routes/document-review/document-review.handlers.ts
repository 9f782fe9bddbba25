/**
 * Review of invoices and expenses: a user's corrections, their history and the CSV export of a
 * company's documents, each for `c.var.company`.
 */
import type { Context } from 'hono'
import { stream } from 'hono/streaming'
import type * as v from 'valibot'
import type { ExportQuery } from '../../../contract/document-calls.ts'
import { CORRECTION_SCHEMAS } from '../../../contract/document-corrections.ts'
import { DateInput, FINANCIAL_KIND, type FinancialKind } from '../../../contract/index.ts'
import type { DocumentRow } from '../../db/schema.ts'
import type { CompanyEnv } from '../../http/company-access.ts'
import type { RouteDeps } from '../../http/context.ts'
import { parse, readJson } from '../../http/errors.ts'
import { confirmDocument } from '../../services/documents/confirmation.ts'
import { correctDocument } from '../../services/documents/corrections.ts'
import { exportCsv, type Separator } from '../../services/documents/export.ts'
import { toExpense, toInvoice } from '../../services/documents/views.ts'
import { documentHistory } from './document-review.queries.ts'

const EndDate = DateInput('end_date')

type WithId = Context<CompanyEnv, string, { out: { param: { id: number } } }>

/** The updated record as the PATCH answers it: the read view with its quality data and sources. */
function toCorrected(row: DocumentRow) {
  const view = row.kind === 'invoice' ? toInvoice(row) : toExpense(row)
  return {
    ...view,
    errors: row.errors,
    warnings: row.warnings,
    quality_details: row.qualityDetails,
  }
}

/** The CSV of the company's documents of this kind, streamed. */
export function exportDocuments(
  { db, clock }: RouteDeps,
  c: Context<CompanyEnv, string, { out: { query: v.InferOutput<typeof ExportQuery> } }>,
  kind: FinancialKind,
) {
  const query = c.req.valid('query')
  const wholeDay = query.end_date !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(query.end_date)
  const end = query.end_date === undefined ? undefined : { at: parse(EndDate, query.end_date), wholeDay }
  const separator: Separator = query.separator ?? (c.var.user.language === 'fr' ? ';' : ',')
  const lines = exportCsv(db, {
    companyId: c.var.company.companyId,
    kind,
    separator,
    filters: { status: query.status, start: query.start_date, end },
  })
  const day = clock().toISOString().slice(0, 10)
  c.header('Content-Type', 'text/csv; charset=utf-8')
  c.header('Content-Disposition', `attachment; filename="${FINANCIAL_KIND[kind].plural}-${day}.csv"`)
  c.header('Cache-Control', 'no-store')
  c.header('X-Content-Type-Options', 'nosniff')
  return stream(c, async (out) => {
    for await (const chunk of lines) await out.write(chunk)
  })
}

export async function history({ db }: RouteDeps, c: WithId, kind: FinancialKind) {
  return c.json(await documentHistory(db, c.var.company.companyId, c.req.valid('param').id, kind))
}

export async function correct({ db, clock }: RouteDeps, c: WithId, kind: FinancialKind) {
  const { id } = c.req.valid('param')
  const changes = parse(CORRECTION_SCHEMAS[kind], await readJson(c))
  const row = await correctDocument(db, {
    companyId: c.var.company.companyId,
    id,
    kind,
    userId: c.var.user.id,
    changes,
    now: clock(),
  })
  return c.json(toCorrected(row))
}

/** `POST …/{id}/confirm`: the document accepted as it is; answered like a correction. */
export async function confirm({ db, clock }: RouteDeps, c: WithId, kind: FinancialKind) {
  const row = await confirmDocument(db, {
    companyId: c.var.company.companyId,
    id: c.req.valid('param').id,
    kind,
    userId: c.var.user.id,
    now: clock(),
  })
  return c.json(toCorrected(row))
}

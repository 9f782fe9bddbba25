/**
 * Review of invoices and expenses: a user's corrections (`PATCH /{invoices|expenses}/{id}`), their
 * history (`GET …/{id}/history`) and the CSV export of a company's documents
 * (`GET /{invoices|expenses}/export`). Company-scoped like every document call.
 */
import { and, desc, eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { stream } from 'hono/streaming'
import * as v from 'valibot'
import { CORRECTION_SCHEMAS } from '../../contract/document-corrections.ts'
import { DateInput, DOCUMENT_STATUSES, FINANCIAL_KIND, type FinancialKind } from '../../contract/index.ts'
import { type DocumentRow, documentChanges, documents, users } from '../db/schema.ts'
import { requireUser } from '../http/auth.ts'
import { type CompanyEnv, requireCompanyMember } from '../http/company-access.ts'
import type { RouteDeps } from '../http/context.ts'
import { HttpError, parse, parsePathId, readJson } from '../http/errors.ts'
import { correctDocument } from '../services/documents/corrections.ts'
import { exportCsv, type Separator } from '../services/documents/export.ts'
import { toExpense, toInvoice } from '../services/documents/views.ts'

const ExportQuery = v.object({
  format: v.optional(v.picklist(['csv'], 'Format must be csv'), 'csv'),
  separator: v.optional(v.picklist([';', ','], 'Separator must be ; or ,')),
  status: v.optional(
    v.pipe(
      v.string(),
      v.toUpperCase(),
      v.picklist(DOCUMENT_STATUSES, 'Status must be PROCESSING, COMPLETED or FAILED'),
    ),
  ),
  start_date: v.optional(DateInput('start_date')),
  end_date: v.optional(v.pipe(v.string(), v.trim())),
})
const EndDate = DateInput('end_date')

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

export function documentReviewRoutes(deps: RouteDeps) {
  const { db, clock, sessions } = deps
  // Per route, not `use('/invoices/*')`: the other invoice and expense calls authenticate once, in their own app.
  const signedIn = requireUser(sessions)
  // The company is the query's: a `company_id` in a correction's body is ignored.
  const member = requireCompanyMember(db, { fromBody: false })
  const idOf = (raw: string) => parsePathId(raw, 'Document not found')

  async function history(companyId: number, id: number, kind: FinancialKind) {
    const [doc] = await db
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.id, id), eq(documents.companyId, companyId), eq(documents.kind, kind)))
    if (!doc) throw new HttpError(404, 'Document not found')
    const rows = await db
      .select({ change: documentChanges, email: users.email })
      .from(documentChanges)
      .leftJoin(users, eq(users.id, documentChanges.userId))
      .where(eq(documentChanges.documentId, id))
      .orderBy(desc(documentChanges.createdAt), desc(documentChanges.id))
    return rows.map(({ change, email }) => ({
      field: change.field,
      old_value: change.oldValue,
      new_value: change.newValue,
      user: change.userId !== null && email !== null ? { id: change.userId, email } : null,
      at: change.createdAt.toISOString(),
    }))
  }

  function kindRoutes(kind: FinancialKind) {
    const plural = FINANCIAL_KIND[kind].plural
    return new Hono<CompanyEnv>()
      .get('/export', signedIn, member, (c) => {
        const query = parse(ExportQuery, c.req.query())
        const wholeDay = query.end_date !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(query.end_date)
        const end =
          query.end_date === undefined ? undefined : { at: parse(EndDate, query.end_date), wholeDay }
        const separator: Separator = query.separator ?? (c.var.user.language === 'fr' ? ';' : ',')
        const lines = exportCsv(db, {
          companyId: c.var.company.companyId,
          kind,
          separator,
          filters: { status: query.status, start: query.start_date, end },
        })
        const day = clock().toISOString().slice(0, 10)
        c.header('Content-Type', 'text/csv; charset=utf-8')
        c.header('Content-Disposition', `attachment; filename="${plural}-${day}.csv"`)
        c.header('Cache-Control', 'no-store')
        c.header('X-Content-Type-Options', 'nosniff')
        return stream(c, async (out) => {
          for await (const chunk of lines) await out.write(chunk)
        })
      })
      .get('/:id/history', signedIn, member, async (c) =>
        c.json(await history(c.var.company.companyId, idOf(c.req.param('id')), kind)),
      )
      .patch('/:id', signedIn, member, async (c) => {
        const id = idOf(c.req.param('id'))
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
      })
  }

  return new Hono<CompanyEnv>()
    .route('/invoices', kindRoutes('invoice'))
    .route('/expenses', kindRoutes('expense'))
}

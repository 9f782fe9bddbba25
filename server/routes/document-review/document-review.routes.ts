/**
 * Review of invoices and expenses: a user's corrections (`PATCH /{invoices|expenses}/{id}`), a
 * confirmation as it is (`POST …/{id}/confirm`), their history (`GET …/{id}/history`) and the CSV export of a company's documents
 * (`GET /{invoices|expenses}/export`). Company-scoped like every document call.
 */
import { Hono } from 'hono'
import * as v from 'valibot'
import { ExportQuery, HistoryEntry } from '../../../contract/document-calls.ts'
import { CORRECTION_SCHEMAS } from '../../../contract/document-corrections.ts'
import { FinancialDocument, type FinancialKind } from '../../../contract/index.ts'
import { requireUser } from '../../http/auth.ts'
import { type CompanyEnv, requireCompanyMember } from '../../http/company-access.ts'
import type { RouteDeps } from '../../http/context.ts'
import { binary, describe, documentedInput, json, pathId, validate } from '../../http/openapi.ts'
import { confirm, correct, exportDocuments, history } from './document-review.handlers.ts'

export function documentReviewRoutes(deps: RouteDeps) {
  // Per route, not `use('/invoices/*')`: the other invoice and expense calls authenticate once, in their own app.
  const signedIn = requireUser(deps.sessions)
  // The company is the query's: a `company_id` in a correction's body is ignored.
  const member = requireCompanyMember(deps.db, { fromBody: false })
  const documentId = () => pathId('Document not found')

  const kindRoutes = (kind: FinancialKind) => {
    const tags = [kind === 'invoice' ? 'Invoices' : 'Expenses']
    return new Hono<CompanyEnv>()
      .get(
        '/export',
        describe({
          tags,
          summary: `The company's ${kind}s as CSV`,
          responses: { 200: binary('text/csv', 'CSV') },
        }),
        signedIn,
        member,
        validate('query', ExportQuery),
        (c) => exportDocuments(deps, c, kind),
      )
      .get(
        '/:id/history',
        describe({
          tags,
          summary: `The corrections of the ${kind}`,
          responses: { 200: json(v.array(HistoryEntry)) },
        }),
        signedIn,
        member,
        documentId(),
        (c) => history(deps, c, kind),
      )
      .patch(
        '/:id',
        describe({
          tags,
          summary: `Corrects the ${kind}'s fields`,
          responses: { 200: json(FinancialDocument) },
        }),
        signedIn,
        member,
        documentId(),
        documentedInput('json', CORRECTION_SCHEMAS[kind]),
        (c) => correct(deps, c, kind),
      )
      .post(
        '/:id/confirm',
        describe({
          tags,
          summary: `Confirms the ${kind} as it is: records who and when, and takes it out of the review queue`,
          responses: { 200: json(FinancialDocument) },
        }),
        signedIn,
        member,
        documentId(),
        (c) => confirm(deps, c, kind),
      )
  }

  return new Hono<CompanyEnv>()
    .route('/invoices', kindRoutes('invoice'))
    .route('/expenses', kindRoutes('expense'))
}

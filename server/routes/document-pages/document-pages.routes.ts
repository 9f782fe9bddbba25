/**
 * The pages of a document as the review screens read them: `GET /documents/{id}/pages/{n}/words`,
 * each word of page `n` with its box (click to fill a field). Company-scoped like every document
 * call: another company's document, a page it does not have, or one without stored words is 404.
 */
import { Hono } from 'hono'
import { PageNumberParam } from '../../../contract/document-calls.ts'
import { PageWords } from '../../../contract/index.ts'
import { requireUser } from '../../http/auth.ts'
import { type CompanyEnv, requireCompanyMember } from '../../http/company-access.ts'
import type { RouteDeps } from '../../http/context.ts'
import { describe, json, pathId, pathParam } from '../../http/openapi.ts'
import { pageWords } from './document-pages.handlers.ts'
import { DOCUMENT_NOT_FOUND } from './document-pages.queries.ts'

export function documentPageRoutes(deps: RouteDeps) {
  return new Hono<CompanyEnv>().get(
    '/documents/:id/pages/:n/words',
    describe({
      tags: ['Documents'],
      summary:
        "The words of a page (PDF text layer, or OCR on a scan or an image), each with its box in fractions of the page; the page's size in points (PDF) or pixels (image)",
      responses: { 200: json(PageWords) },
    }),
    requireUser(deps.sessions),
    requireCompanyMember(deps.db),
    pathId(DOCUMENT_NOT_FOUND),
    pathParam('n', PageNumberParam),
    (c) => pageWords(deps, c),
  )
}

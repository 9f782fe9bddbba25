/** The pages of a document for `c.var.company`: the stored words of one page. */
import type { Context } from 'hono'
import type { CompanyEnv } from '../../http/company-access.ts'
import type { RouteDeps } from '../../http/context.ts'
import { readPageWords } from './document-pages.queries.ts'

type WithPage = Context<CompanyEnv, string, { out: { param: { id: number; n: number } } }>

export async function pageWords({ db }: RouteDeps, c: WithPage) {
  const { id, n } = c.req.valid('param')
  c.header('Cache-Control', 'private, no-cache')
  return c.json(await readPageWords(db, { companyId: c.var.company.companyId, id, page: n }))
}

/** The CSV export of a company's invoices or expenses: an address the browser downloads (the file streams). */
import { FINANCIAL_KIND, type FinancialKind } from '../../contract'
import type { Http } from './http'

export type ExportQuery = {
  kind: FinancialKind
  companyId: number
  separator: ',' | ';'
  /** Upper-cased like the dashboard's filter; none: every status. */
  status?: string
  /** ISO days (yyyy-mm-dd), inclusive. */
  startDate?: string
  endDate?: string
}

export function createExportsApi(http: Pick<Http, 'url'>) {
  return {
    /** GET /{kind}s/export?company_id=…&format=csv&separator=…[&status&start_date&end_date]. */
    url(query: ExportQuery): string {
      const params = new URLSearchParams({
        company_id: String(query.companyId),
        format: 'csv',
        separator: query.separator,
      })
      if (query.status) params.set('status', query.status.toUpperCase())
      if (query.startDate) params.set('start_date', query.startDate)
      if (query.endDate) params.set('end_date', query.endDate)
      return `${http.url(`${FINANCIAL_KIND[query.kind].plural}/export`)}?${params}`
    },
  }
}

/**
 * Activity logs: the dashboard's rows (GET /logs with the specification's filters), a page at a
 * time (`limit`, `offset`; the server's `X-Has-More` header says whether another page follows),
 * and the company's summary counts (GET /logs/summary).
 */
import * as v from 'valibot'
import { LogEntry, LogSummary } from '../../contract'
import type { Http } from './http'

export type LogQuery = {
  status?: string
  elementType?: string
  lastDays?: number
  startDate?: Date
  endDate?: Date
  sortBy: string
  sortOrder: 'asc' | 'desc'
  searchTerm?: string
  offset?: number
  limit?: number
  /** `needed`: only the review queue. */
  review?: 'needed'
}

export function createLogsApi(http: Http) {
  return {
    /** GET /logs; with a search term it is the search call (same filters plus search_term). */
    async list(companyId: number, query: LogQuery): Promise<{ logs: LogEntry[]; hasMore: boolean }> {
      const params: Record<string, string> = {
        company_id: String(companyId),
        sort_by: query.sortBy,
        sort_order: query.sortOrder,
      }
      // A row's status, as the rows carry it (lower case).
      if (query.status) params.status = query.status
      if (query.elementType) params.element_type = query.elementType
      if (query.lastDays) params.last_days = String(query.lastDays)
      if (query.startDate) params.start_date = query.startDate.toISOString()
      if (query.endDate) params.end_date = query.endDate.toISOString()
      if (query.searchTerm) params.search_term = query.searchTerm
      if (query.offset) params.offset = String(query.offset)
      if (query.limit) params.limit = String(query.limit)
      if (query.review) params.review = query.review
      const { body, headers } = await http.withHeaders('logs', v.array(LogEntry), { searchParams: params })
      return { logs: body, hasMore: headers.get('X-Has-More') === 'true' }
    },
    /** The summary counts over every row of the company: pending + processing, failed + rejected. */
    summary(companyId: number): Promise<LogSummary> {
      return http.json('logs/summary', LogSummary, { searchParams: { company_id: String(companyId) } })
    },
    /** Deletes a dashboard row: its document (file and log entry go with it), or the bare log entry. */
    remove(companyId: number, log: LogEntry): Promise<void> {
      const path = log.document_id ? `documents/${log.document_id}` : `logs/${log.id}`
      return http.send(path, { method: 'delete', searchParams: { company_id: companyId } })
    },
  }
}

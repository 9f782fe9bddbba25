/**
 * The dashboard's queries on `logs`, shared by the routes and bench:dashboard (which times them):
 * a page of a company's rows under the specification's filters and order, and the summary counts.
 * A document's row shows the document's status (`dashboardStatus`), filtered and sorted as such.
 */
import { and, count, eq, gte, inArray, like, lte, or, type SQL, sql } from 'drizzle-orm'
import { ACTIVE_LOG_STATUSES, contractMessages, FAILED_LOG_STATUSES } from '../../contract/index.ts'
import { LogFilters, type LogSortKey, LogStatus, LogType } from '../../contract/log-calls.ts'
import type { AppDatabase } from '../db/client.ts'
import { documents, logSearchText, logs } from '../db/schema.ts'
import { HttpError, parse } from '../http/errors.ts'
import {
  type DashboardRow,
  dashboardRows,
  dashboardStatus,
  joinedDashboardStatus,
} from './documents/lifecycle/document-service.ts'

const MAX_ROWS = 1000

const SORTS = {
  date: logs.createdAt,
  timestamp: logs.createdAt,
  created_at: logs.createdAt,
  name: logs.name,
  documentname: logs.name,
  document: logs.name,
  type: logs.type,
  documenttype: logs.type,
  status: dashboardStatus,
  category: logs.category,
  supplier: logs.supplier,
  doc_date: logs.docDate,
  invoice_date: logs.docDate,
  total: logs.total,
} as const satisfies Record<LogSortKey, unknown>

/** Text columns sort without regard to case. */
const CASELESS = new Set<unknown>([logs.name, logs.supplier])
/** An invoice's columns: rows without the value (documents) come last either way. */
const NULLS_LAST = new Set<unknown>([logs.supplier, logs.docDate, logs.total])

const wholeNumber = (field: string, raw: unknown, min: number, max: number, fallback: number) => {
  if (raw === undefined || raw === null || String(raw).trim() === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new HttpError(400, contractMessages.invalidInput, [
      { field, message: `Must be a whole number from ${min} to ${max}` },
    ])
  }
  return value
}

/** A page of the company's rows; `raw` holds the filters as they arrived (query string or JSON body). */
export async function listLogs(
  db: AppDatabase,
  companyId: number,
  raw: Record<string, unknown>,
  now: Date,
): Promise<{ rows: DashboardRow[]; hasMore: boolean }> {
  const input = parse(LogFilters, raw)
  const where: (SQL | undefined)[] = [eq(logs.companyId, companyId)]
  const status =
    input.status === undefined || input.status === null ? '' : String(input.status).trim().toLowerCase()
  if (status && status !== 'all') where.push(eq(dashboardStatus, parse(LogStatus, status)))
  const type =
    input.element_type === undefined || input.element_type === null ? '' : String(input.element_type).trim()
  if (type && type.toLowerCase() !== 'all') where.push(eq(logs.type, parse(LogType, type)))
  if (input.last_days !== undefined && input.last_days !== null && String(input.last_days) !== '') {
    const days = Number(input.last_days)
    if (!Number.isInteger(days) || days < 0 || days > 36500) {
      throw new HttpError(400, contractMessages.invalidInput, [
        { field: 'last_days', message: 'Must be a whole number of days' },
      ])
    }
    where.push(gte(logs.createdAt, new Date(now.getTime() - days * 86_400_000)))
  }
  if (input.start_date) where.push(gte(logs.createdAt, input.start_date))
  if (input.end_date) where.push(lte(logs.createdAt, input.end_date))
  const term =
    input.search_term === undefined || input.search_term === null ? '' : String(input.search_term).trim()
  if (term) where.push(searchCondition(term))
  // The review queue: the copied flag, written as the partial index's own predicate (no
  // parameter) so that the planner always proves the index usable.
  if (input.review === 'needed') where.push(sql`${logs.needsReview}`)
  const column = SORTS[input.sort_by ?? 'date']
  const order = String(input.sort_order ?? 'desc').toLowerCase()
  if (order !== 'asc' && order !== 'desc') {
    throw new HttpError(400, contractMessages.invalidInput, [
      { field: 'sort_order', message: 'Must be asc or desc' },
    ])
  }
  const limit = wholeNumber('limit', input.limit, 1, MAX_ROWS, MAX_ROWS)
  const offset = wholeNumber('offset', input.offset, 0, 1_000_000, 0)
  const direction = sql.raw(order === 'asc' ? 'asc' : 'desc')
  const key = CASELESS.has(column) ? sql`lower(${column})` : sql`${column}`
  // One row more than asked says whether another page follows.
  const rows = await dashboardRows(db)
    .where(and(...where))
    .orderBy(
      // The other orders keep the default NULLS placement, which their indexes serve both ways.
      NULLS_LAST.has(column) ? sql`${key} ${direction} nulls last` : sql`${key} ${direction}`,
      sql`${logs.id} ${direction}`,
    )
    .limit(limit + 1)
    .offset(offset)
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit }
}

/**
 * A term as an amount, written the French or English way: "1 234,50", "1,234.50", "1234.5", "€ 99".
 * The last `.` or `,` followed by one or two digits is the decimal mark; other marks group thousands.
 */
export function parseAmount(term: string): number | null {
  const s = term.replace(/[\s\u00a0\u202f'’€$£]/g, '').replace(/^(eur|chf|usd|gbp)|(eur|chf|usd|gbp)$/i, '')
  const match = /^(\d{1,3}(?:[.,]?\d{3})*|\d+)(?:[.,](\d{1,2}))?$/.exec(s)
  if (!match) return null
  const value = Number(`${match[1]!.replace(/[.,]/g, '')}.${match[2] ?? '0'}`)
  return Number.isFinite(value) ? value : null
}

/** The search: a part of the name, category, type, supplier, invoice number or total, or the total's amount. */
function searchCondition(term: string): SQL {
  const pattern = `%${term.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`
  const text = like(logSearchText(logs), pattern)
  const amount = parseAmount(term)
  return amount === null ? text : (or(text, eq(logs.total, amount)) as SQL)
}

/**
 * The summary counts: pending and processing count as pending; failed and rejected as failed;
 * `to_review` the rows of documents in the review queue.
 */
export async function summarizeLogs(db: AppDatabase, companyId: number) {
  const [row] = await db
    .select({
      total: count(),
      pending: count(sql`case when ${inArray(joinedDashboardStatus, [...ACTIVE_LOG_STATUSES])} then 1 end`),
      failed: count(sql`case when ${inArray(joinedDashboardStatus, [...FAILED_LOG_STATUSES])} then 1 end`),
      to_review: count(sql`case when ${logs.needsReview} then 1 end`),
    })
    .from(logs)
    .leftJoin(documents, eq(documents.id, logs.documentId))
    .where(eq(logs.companyId, companyId))
  return row ?? { total: 0, pending: 0, failed: 0, to_review: 0 }
}

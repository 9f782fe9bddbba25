/**
 * The activity log calls' inputs: the listing filters (query string of `GET /logs`, JSON body of
 * the dashboard calls), a new entry and a status change. Only the server imports this module: it
 * validates with these schemas and describes its API from them.
 */
import * as v from 'valibot'
import { DateInput, Text } from './common.ts'
import { LOG_STATUSES, LOG_TYPES } from './documents.ts'

export const LogStatus = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.picklist(LOG_STATUSES, 'Unknown status'),
)
export const LogType = v.pipe(
  v.string(),
  v.trim(),
  v.transform((s) => LOG_TYPES.find((t) => t.toLowerCase() === s.toLowerCase()) ?? s),
  v.picklist(LOG_TYPES, 'Type must be Invoice, Expense or Document'),
)

/** The columns a listing sorts by (`sort_by`, any case). */
const LOG_SORT_KEYS = [
  'date',
  'timestamp',
  'created_at',
  'name',
  'documentname',
  'document',
  'type',
  'documenttype',
  'status',
  'category',
  'supplier',
  'doc_date',
  'invoice_date',
  'total',
] as const
export type LogSortKey = (typeof LOG_SORT_KEYS)[number]

/** `sort_by`, any case; unknown columns are refused. */
const SortBy = v.pipe(
  v.union([v.string(), v.number()]),
  v.transform((s) => String(s).trim().toLowerCase()),
  v.picklist(LOG_SORT_KEYS, 'Unknown sort column'),
)

/** A filter as sent (query string or JSON number); read further by the listing. */
const optionalText = v.optional(v.nullable(v.union([Text(1000), v.number()])))

export const LogFilters = v.object({
  status: optionalText,
  element_type: optionalText,
  last_days: optionalText,
  start_date: v.optional(v.nullable(DateInput('start_date'))),
  end_date: v.optional(v.nullable(DateInput('end_date'))),
  sort_by: v.optional(v.nullable(SortBy)),
  sort_order: optionalText,
  search_term: optionalText,
  limit: optionalText,
  offset: optionalText,
  /** `needed`: only the documents in the review queue; `all` (or none): every row. */
  review: v.optional(
    v.nullable(
      v.pipe(
        v.union([v.string(), v.number()]),
        v.transform((s) => String(s).trim().toLowerCase()),
        v.picklist(['needed', 'all', ''], 'Review must be needed or all'),
      ),
    ),
  ),
})

/** `POST /logs`. */
export const NewLog = v.object({
  company_id: v.unknown(),
  name: v.pipe(Text(255), v.minLength(1, 'Name is required')),
  type: LogType,
  status: v.optional(LogStatus, 'pending'),
  category: v.optional(v.nullable(Text(100)), null),
})

/** `PATCH /logs/{id}/status`. */
export const LogStatusPatch = v.object({ company_id: v.unknown(), status: LogStatus })

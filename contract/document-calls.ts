/**
 * The document calls' inputs (upload fields, paging, kinds and statuses in the path or query) and
 * the answers the records in `document-records.ts` do not cover (a general document, a page of
 * them, a correction's history). Only the server imports this module: it validates with these
 * schemas and describes its API from them (`GET /api/openapi.json`).
 */
import * as v from 'valibot'
import { DateInput, Id, IdParam } from './common.ts'
import { DOCUMENT_CATEGORIES, DOCUMENT_KINDS, DOCUMENT_STATUSES, FINANCIAL_KIND } from './documents.ts'

/** `company_id` in the query: the company the call acts for. */
export const CompanyQuery = v.object({ company_id: IdParam })

/** `POST /documents/upload`: an invoice (category Invoices) or a general document of one of the nine categories. */
export const DocumentUploadFields = v.variant('documentType', [
  v.object({
    documentType: v.literal('invoice'),
    category: v.optional(
      v.literal(FINANCIAL_KIND.invoice.category, 'Invoices only'),
      FINANCIAL_KIND.invoice.category,
    ),
  }),
  v.object({
    documentType: v.literal('document'),
    category: v.picklist(DOCUMENT_CATEGORIES, 'Choose one of the nine categories'),
  }),
])

/** `POST /expenses/upload`: the type is always an expense. */
export const ExpenseUploadFields = v.object({
  document_type: v.optional(v.picklist(['expense'], 'Must be expense'), 'expense'),
})

/** The multipart body of an upload: the file, its fields and the company's id. */
const uploadForm = <T extends v.ObjectEntries>(entries: T) =>
  v.object({ file: v.pipe(v.file(), v.metadata({ format: 'binary' })), company_id: IdParam, ...entries })
export const DocumentUploadForm = uploadForm({
  documentType: v.picklist(['invoice', 'document']),
  category: v.optional(v.picklist(DOCUMENT_CATEGORIES)),
})
export const ExpenseUploadForm = uploadForm(ExpenseUploadFields.entries)

/**
 * An upload's optional `Idempotency-Key` header: an opaque key the client sends unchanged with
 * every attempt of one file, so that a retry after a lost answer gets the document the first
 * attempt created (scoped to the company) instead of a second one.
 */
export const UploadHeaders = v.object({
  'Idempotency-Key': v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'Idempotency-Key must be 1 to 100 of A-Z a-z 0-9 _ . : -'),
      v.metadata({ description: 'The same key with every attempt of one upload' }),
    ),
  ),
})

/** A 1-based page number in a path (`/documents/{id}/pages/{n}/words`); 400 otherwise. */
export const PageNumberParam = v.pipe(
  v.string(),
  v.regex(/^[1-9]\d{0,5}$/, 'Page must be a whole number from 1'),
  v.transform(Number),
)

export const Paging = v.object({
  page: v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,5}$/, 'Invalid page'), v.transform(Number)), '1'),
  limit: v.optional(
    v.pipe(v.string(), v.regex(/^[1-9]\d{0,2}$/, 'Invalid limit'), v.transform(Number), v.maxValue(100)),
    '10',
  ),
})

/** A processing status in a path, in any letter case. */
export const StatusParam = v.pipe(
  v.string(),
  v.transform((s) => s.toUpperCase()),
  v.picklist(DOCUMENT_STATUSES, 'Status must be PROCESSING, COMPLETED or FAILED'),
)

export const KindParam = v.picklist(DOCUMENT_KINDS, 'Kind must be invoice, expense or document')

/** `GET /api/documents/status`: ids repeated (`document_ids=1&document_ids=2`) or comma-separated. */
export const BulkStatusQuery = v.object({
  kind: KindParam,
  company_id: IdParam,
  document_ids: v.union([v.string(), v.array(v.string())]),
})
export const DocumentIds = v.pipe(v.array(IdParam), v.minLength(1, 'At least one id'), v.maxLength(200))

/** A general document (`GET /documents/{id}`). */
export const DocumentRecord = v.object({
  id: Id,
  status: v.string(),
  name: v.string(),
  document_type: v.picklist(DOCUMENT_KINDS),
  category: v.nullable(v.string()),
})
export const DocumentPage = v.object({
  items: v.array(DocumentRecord),
  page: v.number(),
  limit: v.number(),
  total: v.number(),
})
/** `GET /api/documents/processing`: the documents still processing, with their error codes. */
export const ProcessingDocument = v.object({ ...DocumentRecord.entries, errors: v.array(v.string()) })

/** `GET /{invoices|expenses}/{id}/quality-data`. */
export const QualityData = v.object({
  status: v.string(),
  errors: v.array(v.string()),
  warnings: v.array(v.string()),
  details: v.object({
    errors: v.array(v.object({ code: v.string(), message: v.string() })),
    warnings: v.array(v.object({ code: v.string(), message: v.string() })),
  }),
  failure_reason: v.nullable(v.string()),
})

/**
 * The `field` of the history line a confirmation writes (`POST /{invoices|expenses}/{id}/confirm`):
 * no value changed, `new_value` is the status the document was confirmed in.
 */
export const CONFIRMED_FIELD = 'confirmed'

/** `GET /{invoices|expenses}/{id}/history`: one line per changed field (or confirmation), newest first. */
export const HistoryEntry = v.object({
  field: v.string(),
  old_value: v.unknown(),
  new_value: v.unknown(),
  user: v.nullable(v.object({ id: Id, email: v.string() })),
  at: v.string(),
})

/** `GET /{invoices|expenses}/export`. */
export const ExportQuery = v.object({
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

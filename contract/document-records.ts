/**
 * What the document calls answer: an upload's acknowledgement, a processing status, a dashboard
 * row and the summary counts, an invoice or expense record and its quality findings.
 */
import * as v from 'valibot'
import { Id } from './common.ts'
import { FINANCIAL_KINDS, LOG_SOURCES, LOG_TYPES } from './documents.ts'
import { EInvoiceData, FieldSources } from './einvoice.ts'

/** `POST /documents/upload`, `POST /expenses/upload`: the new document and its status. */
export const UploadAnswer = v.object({ id: Id, status: v.string() })
export type UploadAnswer = v.InferOutput<typeof UploadAnswer>

/** `{id, status, errors}`; `messages` are the errors' texts in the user's language (this server). */
export const ProcessingStatus = v.object({
  id: Id,
  status: v.string(),
  errors: v.optional(v.array(v.string()), []),
  messages: v.optional(v.array(v.string())),
})
export type ProcessingStatus = v.InferOutput<typeof ProcessingStatus>

/** A bulk status answer is a list or a single object. */
export const BulkStatus = v.union([v.array(ProcessingStatus), ProcessingStatus])

/** The earlier document a `duplicate` warning names. */
export const DuplicateOf = v.object({
  document_id: v.number(),
  name: v.string(),
  kind: v.picklist(FINANCIAL_KINDS),
})
export type DuplicateOf = v.InferOutput<typeof DuplicateOf>

/** A dashboard row (`GET /logs`). */
export const LogEntry = v.object({
  id: v.number(),
  document_id: v.nullable(v.number()),
  type: v.picklist(LOG_TYPES),
  name: v.string(),
  date: v.string(),
  // Statuses arrive in any case and are compared case-insensitively.
  status: v.pipe(v.string(), v.toLowerCase()),
  category: v.nullable(v.string()),
  /** Uploaded or e-mailed; absent (or null) from a server that predates mail: an upload. */
  source: v.nullish(v.picklist(LOG_SOURCES)),
  /** The mail's sender address, subject and Message-ID (source `email`); null for an upload. */
  sender: v.nullish(v.string()),
  subject: v.nullish(v.string()),
  message_id: v.nullish(v.string()),
  /** Why an entry is `rejected` (a contract message, in English): shown translated on its row. */
  reason: v.nullish(v.string()),
  /** An invoice's or expense's extracted supplier, number, date (YYYY-MM-DD) and total incl. VAT. */
  supplier: v.nullish(v.string()),
  invoice_number: v.nullish(v.string()),
  doc_date: v.nullish(v.string()),
  total: v.nullish(v.union([v.number(), v.pipe(v.string(), v.transform(Number))])),
  /** Quality warning codes of a completed invoice or expense (a duplicate, a future date…). */
  warnings: v.nullish(v.array(v.string())),
  /** The earlier document a `duplicate` warning refers to. */
  duplicate: v.nullish(DuplicateOf),
  /**
   * The document is in the review queue (FAILED, a warning, or a field under `REVIEW_CONFIDENCE`,
   * and nobody confirmed or corrected it since it was processed); absent from older servers.
   */
  needs_review: v.nullish(v.boolean()),
})
export type LogEntry = v.InferOutput<typeof LogEntry>

/**
 * `GET /logs/summary`: every row of the company; pending + processing, failed + rejected, and the
 * documents to review (`needs_review`; absent from older servers).
 */
export const LogSummary = v.object({
  total: v.number(),
  pending: v.number(),
  failed: v.number(),
  to_review: v.optional(v.number()),
})
export type LogSummary = v.InferOutput<typeof LogSummary>

const text = v.nullish(v.string())
const amount = v.nullish(v.union([v.number(), v.string()]))

/**
 * A field whose `field_evidence` confidence is under this needs a person's check: the document
 * joins the review queue (`review=needed`) and the review screens mark the field "Check". One
 * value for the server and the browser.
 */
export const REVIEW_CONFIDENCE = 0.6

/** A place on a page: `[x0, y0, x1, y1]` in fractions of the page's width and height, origin top left. */
const PageBox = v.tuple([v.number(), v.number(), v.number(), v.number()])

/**
 * `GET /documents/{id}/pages/{n}/words`: the page's size (points for a PDF, pixels for an image)
 * and its words in reading order (the PDF text layer, or what OCR read on a scan or an image),
 * each with its box in fractions of the page, as `field_evidence` places values.
 */
export const PageWords = v.object({
  width: v.number(),
  height: v.number(),
  words: v.array(v.object({ text: v.string(), box: PageBox })),
})
export type PageWords = v.InferOutput<typeof PageWords>

/** Another candidate the engine weighed for a field. */
const FieldAlternative = v.object({
  value: v.unknown(),
  page: v.number(),
  box: PageBox,
  confidence: v.number(),
})

/** Where a field's value was read (1-based page, box) and how sure the engine is (0–1). */
const FieldEvidence = v.object({
  page: v.number(),
  box: PageBox,
  confidence: v.number(),
  alternatives: v.array(FieldAlternative),
})

/** Invoice and expense share their fields; the date is `invoice_date` or `expense_date`. */
export const FinancialDocument = v.object({
  id: Id,
  status: v.string(),
  original_name: text,
  original_file_name: text,
  invoice_number: text,
  invoice_date: text,
  due_date: text,
  expense_date: text,
  business_name: text,
  business_address: text,
  vat_number: text,
  iban: text,
  currency: text,
  has_vat: v.nullish(v.boolean()),
  total_vat_amount: amount,
  total_charge_excluding_vat: amount,
  total_invoice_including_vat: amount,
  /** The type the server detected (`application/xml` for a bare e-invoice). */
  content_type: text,
  /** Where each field's value came from: `text`, `ocr`, `xml`, `memory` (supplier memory) or `user`. */
  field_sources: v.nullish(FieldSources),
  /** For each field read from the page by the engine: where, how sure, and its second guesses. */
  field_evidence: v.nullish(v.record(v.string(), FieldEvidence)),
  /** An e-invoice's data (UBL / CII), when the file is or carries one. */
  einvoice: v.nullish(EInvoiceData),
  /** In the review queue (see `LogEntry.needs_review`). */
  needs_review: v.nullish(v.boolean()),
  /** When a user last confirmed or corrected it since it was processed (ISO), else null. */
  reviewed_at: v.nullish(v.string()),
})
export type FinancialDocument = v.InferOutput<typeof FinancialDocument>

/** One quality finding: a stable code, with its texts in both languages when the server sent them. */
export type QualityItem = { code: string; messages?: { en: string; fr: string } }
export type QualityData = { errors: QualityItem[]; warnings: QualityItem[] }

/** A finding's code and texts as the quality answer details them. */
export const QualityDetail = v.object({
  code: v.string(),
  messages: v.optional(v.object({ en: v.string(), fr: v.string() })),
})
export type QualityDetail = v.InferOutput<typeof QualityDetail>

/** `GET /{invoices|expenses}/{id}/quality`: code lists (possibly JSON-encoded) and their details. */
export const QualityAnswer = v.looseObject({
  errors: v.optional(v.unknown()),
  warnings: v.optional(v.unknown()),
  details: v.optional(
    v.looseObject({
      errors: v.optional(v.array(QualityDetail)),
      warnings: v.optional(v.array(QualityDetail)),
    }),
  ),
})

/** A place on a page (fractions, origin top left), as the preview outlines a reading. */
export type PageBox = PageWords['words'][number]['box']
/** Where a field was read and how sure the engine is, as the detail dialog shows it. */
export type FieldEvidence = NonNullable<FinancialDocument['field_evidence']>[string]

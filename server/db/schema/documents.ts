/**
 * The document pipeline's tables: every upload (invoice, expense or general document) is one
 * `documents` row holding the stored file's identity and, for invoices and expenses, the
 * extracted fields and quality codes; `logs` are the dashboard rows. The job queue lives in
 * pg-boss's own schema (created by pg-boss at start-up), not here.
 */
import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import {
  DOCUMENT_KINDS,
  DOCUMENT_STATUSES,
  type DuplicateOf,
  LOG_STATUSES,
  LOG_TYPES,
} from '../../../contract/index.ts'
import { companies, users } from './core.ts'

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '))
const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'number' })
/** Where a dashboard row's document came from: the upload dialog or a scanner address's mail. */
export const LOG_SOURCES = ['upload', 'email'] as const
export type LogSource = (typeof LOG_SOURCES)[number]
/** Where an extracted field's value came from. */
export const FIELD_SOURCES = ['text', 'ocr', 'xml', 'memory', 'user'] as const
export type FieldSource = (typeof FIELD_SOURCES)[number]

type Box = [number, number, number, number]
/**
 * Where a field's value was read on the page and how sure the engine is: 1-based page, box in
 * fractions of the page (origin top left), confidence 0–1 and up to three other candidates.
 */
export interface FieldEvidence {
  page: number
  box: Box
  confidence: number
  alternatives: { value: unknown; page: number; box: Box; confidence: number }[]
}
/** What a supplier memory is keyed by: the supplier's VAT number, else its IBAN. */
const SUPPLIER_KEY_KINDS = ['vat', 'iban'] as const

const stamp = (name: string) => timestamp(name, { withTimezone: true }).notNull().defaultNow()

export const documents = pgTable(
  'documents',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: DOCUMENT_KINDS }).notNull(),
    category: text('category').notNull(),
    status: text('status', { enum: DOCUMENT_STATUSES }).notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    /** The name the client sent: shown, never used in a path. */
    originalName: text('original_name').notNull(),
    /** Detected from the content (magic bytes), not taken from the client. */
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    /** Random key inside the storage. */
    storageKey: text('storage_key').notNull().unique(),
    /**
     * The `Idempotency-Key` an upload came with (the browser sends the same one with every attempt
     * of a queued file): a retry whose first attempt was committed answers this row, not a new one.
     */
    uploadKey: text('upload_key'),
    invoiceNumber: text('invoice_number'),
    /** invoice_date for invoices, expense_date for expenses. */
    documentDate: date('document_date', { mode: 'string' }),
    /** An invoice's payment due date (BT-9 of an e-invoice, or a user's correction); null for expenses. */
    dueDate: date('due_date', { mode: 'string' }),
    businessName: text('business_name'),
    businessAddress: text('business_address'),
    vatNumber: text('vat_number'),
    iban: text('iban'),
    currency: text('currency'),
    hasVat: boolean('has_vat'),
    totalVatAmount: money('total_vat_amount'),
    totalChargeExcludingVat: money('total_charge_excluding_vat'),
    totalInvoiceIncludingVat: money('total_invoice_including_vat'),
    /** Quality codes (see services/documents/quality.ts). */
    errors: jsonb('errors').$type<string[]>().notNull().default([]),
    warnings: jsonb('warnings').$type<string[]>().notNull().default([]),
    /**
     * Where each extracted field's value came from: `text` (PDF text layer), `ocr`, `xml` (an
     * e-invoice's data), `memory` (the company's supplier memory) or `user` (a correction).
     */
    fieldSources: jsonb('field_sources').$type<Record<string, FieldSource>>().notNull().default({}),
    /** For the fields read from the page by a fitted scorer: where, and how sure (none for xml, memory, user). */
    fieldEvidence: jsonb('field_evidence').$type<Record<string, FieldEvidence>>().notNull().default({}),
    /**
     * What the warnings and errors refer to, by code: e.g. `duplicate` → `{document_id}` of the
     * earlier document, `iban_changed` → `{previous_iban}`.
     */
    qualityDetails: jsonb('quality_details')
      .$type<Record<string, Record<string, unknown>>>()
      .notNull()
      .default({}),
    /** An e-invoice's structured data (syntax, lines, parties, payment terms), when it has one. */
    einvoice: jsonb('einvoice').$type<Record<string, unknown>>(),
    /** Why processing gave up (technical reason), when it did. */
    failureReason: text('failure_reason'),
    pages: integer('pages'),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    /**
     * In the review queue: FAILED, a warning, or a field under the contract's `REVIEW_CONFIDENCE`,
     * and nobody confirmed or corrected it since it was processed. Kept by the document service
     * (`lifecycle/document-service.ts`) with every transition; copied to the dashboard row.
     */
    needsReview: boolean('needs_review').notNull().default(false),
    /** Who last confirmed or corrected it since it was processed, and when (null after processing). */
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: stamp('created_at'),
    updatedAt: stamp('updated_at'),
  },
  (t) => [
    index('documents_company_kind_idx').on(t.companyId, t.kind, t.id),
    index('documents_company_sha256_idx').on(t.companyId, t.sha256),
    index('documents_company_invoice_number_idx').on(t.companyId, t.invoiceNumber),
    index('documents_status_idx').on(t.status),
    // One document per key and company, even for two attempts committing at once; only keyed rows.
    uniqueIndex('documents_company_upload_key_idx')
      .on(t.companyId, t.uploadKey)
      .where(sql`${t.uploadKey} is not null`),
    check('documents_kind_check', sql`${t.kind} in (${inList(DOCUMENT_KINDS)})`),
    check('documents_status_check', sql`${t.status} in (${inList(DOCUMENT_STATUSES)})`),
  ],
)

/**
 * What the dashboard's search looks in: the name, category and type of a row, and an invoice's or
 * expense's supplier, number and total, in one lower-cased text, matched with LIKE on a lower-cased
 * term (the trigram index serves LIKE far faster than ILIKE).
 */
export const logSearchText = (t: {
  name: AnyPgColumn
  category: AnyPgColumn
  type: AnyPgColumn
  supplier: AnyPgColumn
  invoiceNumber: AnyPgColumn
  total: AnyPgColumn
}) =>
  sql`lower(${t.name} || ' ' || coalesce(${t.category}, '') || ' ' || ${t.type} || ' ' || coalesce(${t.supplier}, '') || ' ' || coalesce(${t.invoiceNumber}, '') || ' ' || coalesce(${t.total}::text, ''))`

export const logs = pgTable(
  'logs',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The document this row follows (it goes with it); null for a refused file's row and for rows
     * the client created itself.
     */
    documentId: integer('document_id').references(() => documents.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type', { enum: LOG_TYPES }).notNull(),
    /**
     * Only for a row without a document: a document's row shows the document's status (read by
     * `dashboardRows`, services/documents/lifecycle), never a copy, so the two cannot disagree.
     */
    status: text('status', { enum: LOG_STATUSES }),
    category: text('category'),
    source: text('source', { enum: LOG_SOURCES }).notNull().default('upload'),
    /** Mail only: the envelope sender, the Subject and the Message-ID header. */
    sender: text('sender'),
    subject: text('subject'),
    messageId: text('message_id'),
    /** Why the row's file (or message) was refused, when its status is `rejected`. */
    reason: text('reason'),
    /**
     * An invoice's or expense's extracted supplier, number, date and total incl. VAT, its warnings
     * and the earlier document a duplicate warning names: copies of its `documents` row, kept in
     * step by database triggers (migration 0008) so the dashboard sorts and searches one table.
     */
    supplier: text('supplier'),
    invoiceNumber: text('invoice_number'),
    docDate: date('doc_date', { mode: 'string' }),
    total: money('total'),
    warnings: jsonb('warnings').$type<string[]>().notNull().default([]),
    duplicate: jsonb('duplicate').$type<DuplicateOf>(),
    /** The document's `needs_review`, copied by the same triggers. */
    needsReview: boolean('needs_review').notNull().default(false),
    createdAt: stamp('created_at'),
    updatedAt: stamp('updated_at'),
  },
  // One index per order the dashboard offers (each ends in id, the tie-breaker) and a trigram index
  // for the search (pg_trgm): a page of any listing reads only its rows (bench:dashboard measures
  // it). The status, read from each row's document, has no index of its own (`dashboardStatus`).
  (t) => [
    index('logs_company_created_idx').on(t.companyId, t.createdAt, t.id),
    index('logs_company_name_idx').on(t.companyId, sql`lower(${t.name})`, t.id),
    index('logs_company_type_idx').on(t.companyId, t.type, t.id),
    index('logs_company_category_idx').on(t.companyId, t.category, t.id),
    index('logs_company_supplier_idx').on(t.companyId, sql`lower(${t.supplier})`, t.id),
    index('logs_company_doc_date_idx').on(t.companyId, t.docDate, t.id),
    index('logs_company_total_idx').on(t.companyId, t.total, t.id),
    // fastupdate off: new rows go straight into the index instead of a pending list that only
    // a vacuum flushes (PGlite has no autovacuum), so the planner keeps choosing the index.
    index('logs_search_idx')
      .using('gin', sql`(${logSearchText(t)}) gin_trgm_ops`)
      .with({ fastupdate: false }),
    index('logs_document_id_idx').on(t.documentId),
    // The review queue, newest first: only its rows are in the index.
    index('logs_company_review_idx').on(t.companyId, t.createdAt, t.id).where(sql`${t.needsReview}`),
    check('logs_type_check', sql`${t.type} in (${inList(LOG_TYPES)})`),
    check('logs_status_check', sql`${t.status} in (${inList(LOG_STATUSES)})`),
    // One source of status: a document's row has none of its own, any other row has one.
    check('logs_status_source_check', sql`(${t.documentId} is null) = (${t.status} is not null)`),
    check('logs_source_check', sql`${t.source} in (${inList(LOG_SOURCES)})`),
  ],
)

/**
 * Messages received on a scanner address, one row per Message-ID and recipient: a message
 * delivered again (a relay retrying after a lost answer) finds its row and creates nothing.
 */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    recipient: text('recipient').notNull(),
    messageId: text('message_id').notNull(),
    createdAt: stamp('created_at'),
  },
  (t) => [unique('mail_messages_recipient_message_id_key').on(t.recipient, t.messageId)],
)

/**
 * A document's history: one row per field a user changed (values as text, null for empty), the
 * newest read first.
 */
export const documentChanges = pgTable(
  'document_changes',
  {
    id: serial('id').primaryKey(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    field: text('field').notNull(),
    oldValue: text('old_value'),
    newValue: text('new_value'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: stamp('created_at'),
  },
  (t) => [index('document_changes_document_idx').on(t.documentId, t.id)],
)

/** A word on a page: its text and its box in fractions of the page (origin top left). */
export interface PageWord {
  text: string
  box: Box
}

/**
 * The words of each page of a processed document (text layer, or OCR for scans and images),
 * written when its processing finishes, so the review screens' click-to-fill reads them back.
 * Width and height: the page's size, in points for a PDF and pixels for an image.
 */
export const documentPages = pgTable(
  'document_pages',
  {
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    width: real('width').notNull(),
    height: real('height').notNull(),
    words: jsonb('words').$type<PageWord[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.page] })],
)

/**
 * A company's supplier memory: what its users corrected for a supplier, keyed by the supplier's
 * VAT number (`key_kind = 'vat'`) or else its IBAN (`'iban'`), normalised (upper case, no spaces).
 * Never shared across companies.
 */
export const supplierMemories = pgTable(
  'supplier_memories',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    keyKind: text('key_kind', { enum: SUPPLIER_KEY_KINDS }).notNull(),
    key: text('key').notNull(),
    businessName: text('business_name'),
    businessAddress: text('business_address'),
    /** The IBAN a user confirmed for this supplier, when one did. */
    iban: text('iban'),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: stamp('created_at'),
    updatedAt: stamp('updated_at'),
  },
  (t) => [
    unique('supplier_memories_company_key').on(t.companyId, t.keyKind, t.key),
    check('supplier_memories_key_kind_check', sql`${t.keyKind} in (${inList(SUPPLIER_KEY_KINDS)})`),
  ],
)

export type DocumentRow = typeof documents.$inferSelect
export type LogRow = typeof logs.$inferSelect

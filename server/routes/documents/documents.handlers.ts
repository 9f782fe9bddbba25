/**
 * The document calls: uploads (streamed; the company comes with the multipart fields), general
 * documents, processing statuses, and the invoice and expense reads. Each handler acts for
 * `c.var.company`, resolved by the company middleware, except the uploads, whose `company_id` is
 * a multipart field read while the body streams.
 */

import { and, eq } from 'drizzle-orm'
import type { Context } from 'hono'
import { stream } from 'hono/streaming'
import type * as v from 'valibot'
import {
  DocumentIds,
  DocumentUploadFields,
  ExpenseUploadFields,
  KindParam,
  type StatusParam,
  UploadHeaders,
} from '../../../contract/document-calls.ts'
import {
  contractMessages,
  type DocumentKind,
  FINANCIAL_KIND,
  type FinancialKind,
} from '../../../contract/index.ts'
import { type DocumentRow, documents } from '../../db/schema.ts'
import { isUniqueViolation } from '../../db/sql-state.ts'
import {
  COMPANY_NOT_FOUND,
  type CompanyAccess,
  type CompanyEnv,
  findCompanyAccess,
  parseCompanyId,
} from '../../http/company-access.ts'
import type { RouteDeps } from '../../http/context.ts'
import { HttpError, parse } from '../../http/errors.ts'
import type { JobQueue } from '../../jobs/queue.ts'
import {
  acceptsType,
  commitIngested,
  emptyFile,
  type Ingestion,
  unsupportedType,
} from '../../services/documents/ingest.ts'
import { deleteDocument, reprocessDocument } from '../../services/documents/lifecycle/document-service.ts'
import { documentBatches } from '../../services/documents/listing.ts'
import { type ReceivedUpload, receiveUpload } from '../../services/documents/upload.ts'
import { toDocument, toExpense, toInvoice, toQualityData, toStatus } from '../../services/documents/views.ts'
import type { FileStorage } from '../../services/storage/index.ts'
import {
  documentPage,
  documentsByIds,
  findDocument,
  findUploaded,
  processingDocuments,
} from './documents.queries.ts'

export interface DocumentRouteDeps extends RouteDeps {
  storage: FileStorage
  queue: JobQueue
  maxUploadBytes: number
}

type Described = { kind: DocumentKind; category: string }
type Upload = { describe: (fields: Record<string, string>) => Described; typeField: string }

const language = (c: { var: { user: { language: string } } }) =>
  (c.var.user.language === 'fr' ? 'fr' : 'en') as 'en' | 'fr'

/**
 * `inline` with the exact name as RFC 5987 `filename*` (UTF-8, every byte outside attr-char
 * percent-encoded: encodeURIComponent leaves `'()*!` alone) and an ASCII `filename=` fallback
 * for clients without RFC 6266 support: accents dropped (`été` → `ete`), anything else outside
 * printable ASCII, quotes, backslashes and `%` replaced by `_`.
 */
function contentDisposition(name: string): string {
  const exact = encodeURIComponent(name).replace(
    /['()*!]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  const ascii = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_')
  return `inline; filename="${ascii}"; filename*=UTF-8''${exact}`
}

export const documentUpload: Upload = {
  typeField: 'documentType',
  describe: (fields) => {
    const parsed = parse(DocumentUploadFields, {
      documentType: fields.documentType,
      category: fields.category,
    })
    return parsed.documentType === 'invoice'
      ? { kind: 'invoice', category: FINANCIAL_KIND.invoice.category }
      : { kind: 'document', category: parsed.category }
  },
}

export const expenseUpload: Upload = {
  typeField: 'document_type',
  describe: (fields) => {
    parse(ExpenseUploadFields, { document_type: fields.document_type })
    return { kind: 'expense', category: FINANCIAL_KIND.expense.category }
  },
}

/**
 * Checks the company before the file is stored when `company_id` comes first, and once the body
 * is read (it may come after the file); the second check reuses the first for the same company.
 */
function uploadAuthorizer(deps: DocumentRouteDeps, c: Context<CompanyEnv>) {
  let checked: { companyId: number; access: CompanyAccess } | null = null
  return async (fields: Record<string, string>) => {
    const companyId = parseCompanyId(fields.company_id)
    if (checked?.companyId === companyId) return checked.access
    const access = await findCompanyAccess(deps.db, c.var.user, companyId)
    if (!access) throw new HttpError(404, COMPANY_NOT_FOUND)
    checked = { companyId, access }
    c.set('company', access)
    return access
  }
}

/** Refuses a file by its first bytes as soon as the type field says what it should be. */
const earlyTypeCheck =
  ({ describe, typeField }: Upload) =>
  (sniffed: Parameters<typeof acceptsType>[1], fields: Record<string, string>) => {
    if (fields[typeField] === undefined) return
    let kind: DocumentKind
    try {
      kind = describe(fields).kind
    } catch {
      return // bad fields: reported with the others once the body is read
    }
    if (kind !== 'document' && !acceptsType(kind, sniffed)) throw unsupportedType(kind)
  }

/** The upload's `Idempotency-Key`, when it sent one; 400 naming the header when it is malformed. */
const uploadKeyOf = (c: Context) =>
  parse(UploadHeaders, { 'Idempotency-Key': c.req.header('Idempotency-Key') })['Idempotency-Key']

type UploadedDocument = Pick<DocumentRow, 'id' | 'status'>
/** The document a retry names, with what the retry is checked against. */
type EarlierDocument = UploadedDocument & Pick<DocumentRow, 'sha256' | 'kind'>

/**
 * Commits the upload, unless its key (scoped to the company) names a document already: a retry
 * whose first attempt was committed, looked up first, or committed meanwhile by an attempt running
 * at the same time (the unique index on the key refuses this one's insert). `earlier` then says
 * the document answered is that one, with its current status.
 */
async function commitOnce(
  deps: DocumentRouteDeps,
  ingestion: Ingestion,
  uploadKey: string | undefined,
): Promise<{ document: UploadedDocument; earlier: false } | { document: EarlierDocument; earlier: true }> {
  const { companyId } = ingestion.target
  const found = uploadKey ? await findUploaded(deps.db, companyId, uploadKey) : null
  if (found) return { document: found, earlier: true }
  try {
    const [created] = (await commitIngested(deps.db, deps.queue, ingestion))!
    return { document: created!, earlier: false }
  } catch (error) {
    const raced =
      uploadKey && isUniqueViolation(error) ? await findUploaded(deps.db, companyId, uploadKey) : null
    if (!raced) throw error
    return { document: raced, earlier: true }
  }
}

/**
 * Streams the upload, authorises, and commits record + log entry + job in one transaction; a
 * retry of a committed upload (same `Idempotency-Key`) answers its document, 200 instead of 201.
 * A key that named another file (other content or another kind; only a misbehaving client sends
 * one) is refused with 409 rather than answering a document this file is not, which would lose it.
 */
export async function upload(deps: DocumentRouteDeps, c: Context<CompanyEnv>, how: Upload) {
  const { storage, clock, logger } = deps
  const uploadKey = uploadKeyOf(c)
  const authorize = uploadAuthorizer(deps, c)
  let received: ReceivedUpload | null = null
  try {
    received = await receiveUpload(c, {
      storage,
      maxBytes: deps.maxUploadBytes,
      authorize: async (fields) => {
        await authorize(fields)
      },
      checkType: earlyTypeCheck(how),
    })
    const { fields, file } = received
    const { kind, category } = how.describe(fields)
    const access = await authorize(fields)
    if (!file)
      throw new HttpError(400, contractMessages.invalidInput, [
        { field: 'file', message: 'A file is required' },
      ])
    if (kind !== 'document' && !acceptsType(kind, file.sniffed)) throw unsupportedType(kind)
    if (file.size === 0) throw emptyFile()
    const target = { companyId: access.companyId, kind, category }
    const origin = { source: 'upload', userId: c.var.user.id, uploadKey } as const
    const ingestion = { target, origin, files: [file], rejected: [], now: clock() }
    const committed = await commitOnce(deps, ingestion, uploadKey)
    const { id, status } = committed.document
    if (committed.earlier) {
      const { sha256, kind: earlierKind } = committed.document
      if (sha256 !== file.sha256 || earlierKind !== kind)
        throw new HttpError(409, contractMessages.uploadKeyReused)
      // The same file again: the earlier document keeps its own.
      await storage.delete(file.key).catch(() => {})
      logger.info({ documentId: id, uploadKey, companyId: access.companyId }, 'upload retried')
      return c.json({ id, status }, 200)
    }
    logger.info({ documentId: id, kind, size: file.size, companyId: access.companyId }, 'document uploaded')
    return c.json({ id, status }, 201)
  } catch (error) {
    if (received?.file) await storage.delete(received.file.key).catch(() => {})
    throw error
  }
}

/** The original file, with its own content type. */
export async function download(deps: DocumentRouteDeps, c: Context, row: DocumentRow) {
  const file = await deps.storage.get(row.storageKey).catch(() => {
    throw new HttpError(404, 'File not found')
  })
  c.header('Content-Type', row.contentType)
  c.header('Content-Length', String(row.sizeBytes))
  c.header('Content-Disposition', contentDisposition(row.originalName))
  c.header('X-Content-Type-Options', 'nosniff')
  return stream(c, async (out) => {
    for await (const chunk of file) await out.write(chunk as Uint8Array)
  })
}

/** Deletes the record, then its file. */
/** `POST …/{id}/reprocess`: the document is queued to be read again (409 while it is being read). */
export async function reprocess(deps: DocumentRouteDeps, row: DocumentRow) {
  const queued = await reprocessDocument(deps.db, deps.queue, {
    id: row.id,
    companyId: row.companyId,
    now: deps.clock(),
  })
  return { id: queued.id, status: queued.status }
}

export async function remove(deps: DocumentRouteDeps, row: DocumentRow) {
  await deleteDocument(deps.db, { id: row.id, companyId: row.companyId })
  // After the commit: a failed file delete leaves an orphan file, never a record without file.
  await deps.storage
    .delete(row.storageKey)
    .catch((error) => deps.logger.warn({ err: error }, 'file delete failed'))
}

type IdInput = { out: { param: { id: number } } }
type Company = Context<CompanyEnv, string, IdInput>

export const findOwn = (deps: RouteDeps, c: Company, kind?: DocumentKind) =>
  findDocument(deps.db, c.var.company.companyId, c.req.valid('param').id, kind)

export async function listDocuments(
  deps: RouteDeps,
  c: Context<CompanyEnv, string, { out: { query: { page: number; limit: number } } }>,
) {
  const paging = c.req.valid('query')
  const { rows, total } = await documentPage(deps.db, c.var.company.companyId, paging)
  return c.json({ items: rows.map(toDocument), ...paging, total })
}

export async function documentStatus(
  deps: RouteDeps,
  c: Context<CompanyEnv, string, { out: { param: { id: number; type: v.InferOutput<typeof KindParam> } } }>,
) {
  const { id, type } = c.req.valid('param')
  return c.json(toStatus(await findDocument(deps.db, c.var.company.companyId, id, type), language(c)))
}

export async function bulkStatus(deps: RouteDeps, c: Context<CompanyEnv>) {
  const kind = parse(KindParam, c.req.query('kind'))
  const raw = c.req.queries('document_ids') ?? c.req.queries('document_ids[]') ?? []
  const ids = parse(
    DocumentIds,
    raw.flatMap((s) => s.split(',')),
  )
  const rows = await documentsByIds(deps.db, c.var.company.companyId, kind, ids as number[])
  return c.json(rows.map((row) => toStatus(row, language(c))))
}

export async function processing(deps: RouteDeps, c: Context<CompanyEnv>) {
  const rows = await processingDocuments(deps.db, c.var.company.companyId)
  return c.json(rows.map((row) => ({ ...toDocument(row), errors: row.errors })))
}

export const financialView = (kind: FinancialKind): ((row: DocumentRow) => object) =>
  kind === 'invoice' ? toInvoice : toExpense

export const qualityData = async (deps: RouteDeps, c: Company, kind: FinancialKind) =>
  c.json(toQualityData(await findOwn(deps, c, kind), language(c)))

/**
 * The company's documents of this kind as one JSON array, streamed a batch at a time (the
 * first read before the answer starts, so that a refusal still answers its status).
 */
export async function byCompany(
  deps: RouteDeps,
  c: Context<CompanyEnv>,
  kind: FinancialKind,
  status?: v.InferOutput<typeof StatusParam>,
) {
  const view = financialView(kind)
  const batches = documentBatches(
    deps.db,
    and(
      eq(documents.companyId, c.var.company.companyId),
      eq(documents.kind, kind),
      status ? eq(documents.status, status) : undefined,
    ),
  )
  const first = await batches.next()
  c.header('Content-Type', 'application/json; charset=UTF-8')
  return stream(c, async (out) => {
    let separator = ''
    const write = async (rows: DocumentRow[]) => {
      let chunk = ''
      for (const row of rows) {
        chunk += separator + JSON.stringify(view(row))
        separator = ','
      }
      await out.write(chunk)
    }
    await out.write('[')
    if (!first.done) await write(first.value)
    for await (const rows of batches) await write(rows)
    await out.write(']')
  })
}

/**
 * Uploads (invoices, expenses, general documents), documents, processing status, and the invoice
 * and expense reads. Every call is scoped by `company_id`; another company's ids answer 404.
 */
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm'
import { type Context, Hono } from 'hono'
import { stream } from 'hono/streaming'
import * as v from 'valibot'
import {
  contractMessages,
  DOCUMENT_CATEGORIES,
  DOCUMENT_KINDS,
  DOCUMENT_STATUSES,
  type DocumentKind,
  FINANCIAL_KIND,
  type FinancialKind,
  IdParam,
} from '../../contract/index.ts'
import { type DocumentRow, documents } from '../db/schema.ts'
import { requireUser } from '../http/auth.ts'
import {
  COMPANY_NOT_FOUND,
  type CompanyAccess,
  type CompanyEnv,
  findCompanyAccess,
  parseCompanyId,
  requireCompanyMember,
} from '../http/company-access.ts'
import type { RouteDeps } from '../http/context.ts'
import { HttpError, parse, parsePathId } from '../http/errors.ts'
import type { JobQueue } from '../jobs/queue.ts'
import { acceptsType, commitIngested, emptyFile, unsupportedType } from '../services/documents/ingest.ts'
import { deleteDocument } from '../services/documents/lifecycle/document-service.ts'
import { documentBatches } from '../services/documents/listing.ts'
import { type ReceivedUpload, receiveUpload } from '../services/documents/upload.ts'
import { toDocument, toExpense, toInvoice, toQualityData, toStatus } from '../services/documents/views.ts'
import type { FileStorage } from '../services/storage/index.ts'

export interface DocumentRouteDeps extends RouteDeps {
  storage: FileStorage
  queue: JobQueue
  maxUploadBytes: number
}

const DocumentUploadFields = v.variant('documentType', [
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
const ExpenseUploadFields = v.object({
  document_type: v.optional(v.picklist(['expense'], 'Must be expense'), 'expense'),
})
const Paging = v.object({
  page: v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,5}$/, 'Invalid page'), v.transform(Number)), '1'),
  limit: v.optional(
    v.pipe(v.string(), v.regex(/^[1-9]\d{0,2}$/, 'Invalid limit'), v.transform(Number), v.maxValue(100)),
    '10',
  ),
})
const StatusParam = v.pipe(
  v.string(),
  v.transform((s) => s.toUpperCase()),
  v.picklist(DOCUMENT_STATUSES, 'Status must be PROCESSING, COMPLETED or FAILED'),
)
const Kind = v.picklist(DOCUMENT_KINDS, 'Kind must be invoice, expense or document')

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

export function documentRoutes(deps: DocumentRouteDeps) {
  const { db, storage, queue, clock, logger, sessions } = deps
  const member = requireCompanyMember(db)
  const lang = (c: { var: { user: { language: string } } }) =>
    (c.var.user.language === 'fr' ? 'fr' : 'en') as 'en' | 'fr'

  async function findOne(companyId: number, id: number, kind?: DocumentKind): Promise<DocumentRow> {
    const conditions: SQL[] = [eq(documents.id, id), eq(documents.companyId, companyId)]
    if (kind) conditions.push(eq(documents.kind, kind))
    const [row] = await db
      .select()
      .from(documents)
      .where(and(...conditions))
    if (!row) throw new HttpError(404, 'Document not found')
    return row
  }

  const idOf = (raw: string) => parsePathId(raw, 'Document not found')

  /** Streams the upload, authorises, and commits record + log entry + job in one transaction. */
  async function upload(
    c: Context<CompanyEnv>,
    describe: (fields: Record<string, string>) => { kind: DocumentKind; category: string },
    typeField: string,
  ) {
    const user = c.var.user
    // Checked before the file is stored when `company_id` comes first, and once the body is read
    // (it may come after the file); the second check reuses the first for the same company.
    let checked: { companyId: number; access: CompanyAccess } | null = null
    const authorize = async (fields: Record<string, string>) => {
      const companyId = parseCompanyId(fields.company_id)
      if (checked?.companyId === companyId) return checked.access
      const access = await findCompanyAccess(db, user, companyId)
      if (!access) throw new HttpError(404, COMPANY_NOT_FOUND)
      checked = { companyId, access }
      return access
    }
    let received: ReceivedUpload | null = null
    try {
      received = await receiveUpload(c, {
        storage,
        maxBytes: deps.maxUploadBytes,
        authorize: async (fields) => {
          await authorize(fields)
        },
        checkType: (sniffed, fields) => {
          if (fields[typeField] === undefined) return
          let kind: DocumentKind
          try {
            kind = describe(fields).kind
          } catch {
            return // bad fields: reported with the others once the body is read
          }
          if (kind !== 'document' && !acceptsType(kind, sniffed)) throw unsupportedType(kind)
        },
      })
      const { fields, file } = received
      const { kind, category } = describe(fields)
      const access = await authorize(fields)
      if (!file)
        throw new HttpError(400, contractMessages.invalidInput, [
          { field: 'file', message: 'A file is required' },
        ])
      if (kind !== 'document' && !acceptsType(kind, file.sniffed)) throw unsupportedType(kind)
      if (file.size === 0) throw emptyFile()
      const [created] = (await commitIngested(db, queue, {
        target: { companyId: access.companyId, kind, category },
        origin: { source: 'upload', userId: user.id },
        files: [file],
        rejected: [],
        now: clock(),
      }))!
      const { id, status } = created!
      logger.info({ documentId: id, kind, size: file.size, companyId: access.companyId }, 'document uploaded')
      return c.json({ id, status }, 201)
    } catch (error) {
      if (received?.file) await storage.delete(received.file.key).catch(() => {})
      throw error
    }
  }

  const describeDocumentUpload = (fields: Record<string, string>) => {
    const parsed = parse(DocumentUploadFields, {
      documentType: fields.documentType,
      category: fields.category,
    })
    return parsed.documentType === 'invoice'
      ? { kind: 'invoice' as const, category: FINANCIAL_KIND.invoice.category }
      : { kind: 'document' as const, category: parsed.category }
  }
  const describeExpenseUpload = (fields: Record<string, string>) => {
    parse(ExpenseUploadFields, { document_type: fields.document_type })
    return { kind: 'expense' as const, category: FINANCIAL_KIND.expense.category }
  }

  async function download(c: Context, row: DocumentRow) {
    const file = await storage.get(row.storageKey).catch(() => {
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

  function financialRoutes(kind: FinancialKind) {
    const view: (row: DocumentRow) => object = kind === 'invoice' ? toInvoice : toExpense
    /**
     * The company's documents of this kind as one JSON array, streamed a batch at a time (the
     * first read before the answer starts, so that a refusal still answers its status).
     */
    const byCompany = async (c: Context<CompanyEnv>, status?: (typeof DOCUMENT_STATUSES)[number]) => {
      const batches = documentBatches(
        db,
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
    return new Hono<CompanyEnv>()
      .get('/company', member, (c) => byCompany(c))
      .get('/status/:status/company_id/:company_id', member, (c) =>
        byCompany(c, parse(StatusParam, c.req.param('status'))),
      )
      .get('/status/:status', member, (c) => byCompany(c, parse(StatusParam, c.req.param('status'))))
      .get(`/${kind}/:id/download`, member, async (c) =>
        download(c, await findOne(c.var.company.companyId, idOf(c.req.param('id')), kind)),
      )
      .get('/:id/quality-data', member, async (c) =>
        c.json(toQualityData(await findOne(c.var.company.companyId, idOf(c.req.param('id')), kind), lang(c))),
      )
      .get('/:id', member, async (c) =>
        c.json(view(await findOne(c.var.company.companyId, idOf(c.req.param('id')), kind))),
      )
      .delete('/:id', member, async (c) => {
        await remove(await findOne(c.var.company.companyId, idOf(c.req.param('id')), kind))
        return c.json({ message: 'Deleted' })
      })
  }

  async function remove(row: DocumentRow) {
    await deleteDocument(db, { id: row.id, companyId: row.companyId })
    // After the commit: a failed file delete leaves an orphan file, never a record without file.
    await storage.delete(row.storageKey).catch((error) => logger.warn({ err: error }, 'file delete failed'))
  }

  return new Hono<CompanyEnv>()
    .use('/documents/*', requireUser(sessions))
    .use('/documents', requireUser(sessions))
    .use('/expenses/*', requireUser(sessions))
    .use('/invoices/*', requireUser(sessions))
    .use('/api/*', requireUser(sessions))
    .post('/documents/upload', (c) => upload(c, describeDocumentUpload, 'documentType'))
    .post('/expenses/upload', (c) => upload(c, describeExpenseUpload, 'document_type'))
    .get('/documents', member, async (c) => {
      const { page, limit } = parse(Paging, { page: c.req.query('page'), limit: c.req.query('limit') })
      const where = eq(documents.companyId, c.var.company.companyId)
      const rows = await db
        .select()
        .from(documents)
        .where(where)
        .orderBy(desc(documents.id))
        .limit(limit)
        .offset((page - 1) * limit)
      const [total] = await db.select({ n: count() }).from(documents).where(where)
      return c.json({ items: rows.map(toDocument), page, limit, total: total?.n ?? 0 })
    })
    .get('/documents/:id', member, async (c) =>
      c.json(toDocument(await findOne(c.var.company.companyId, idOf(c.req.param('id'))))),
    )
    .get('/documents/:id/download', member, async (c) =>
      download(c, await findOne(c.var.company.companyId, idOf(c.req.param('id')))),
    )
    .delete('/documents/:id', member, async (c) => {
      await remove(await findOne(c.var.company.companyId, idOf(c.req.param('id'))))
      return c.json({ message: 'Deleted' })
    })
    .get('/api/document/:type/:id/status', member, async (c) => {
      const kind = parse(Kind, c.req.param('type'))
      return c.json(toStatus(await findOne(c.var.company.companyId, idOf(c.req.param('id')), kind), lang(c)))
    })
    .get('/api/documents/status', member, async (c) => {
      const kind = parse(Kind, c.req.query('kind'))
      const raw = c.req.queries('document_ids') ?? c.req.queries('document_ids[]') ?? []
      const ids = parse(
        v.pipe(v.array(IdParam), v.minLength(1, 'At least one id'), v.maxLength(200)),
        raw.flatMap((s) => s.split(',')),
      )
      const rows = await db
        .select()
        .from(documents)
        .where(
          and(
            eq(documents.companyId, c.var.company.companyId),
            eq(documents.kind, kind),
            inArray(documents.id, ids as number[]),
          ),
        )
      return c.json(rows.map((row) => toStatus(row, lang(c))))
    })
    .get('/api/documents/processing', member, async (c) => {
      const rows = await db
        .select()
        .from(documents)
        .where(and(eq(documents.companyId, c.var.company.companyId), eq(documents.status, 'PROCESSING')))
        .orderBy(desc(documents.id))
      return c.json(rows.map((row) => ({ ...toDocument(row), errors: row.errors })))
    })
    .route('/expenses', financialRoutes('expense'))
    .route('/invoices', financialRoutes('invoice'))
}

/**
 * Uploads (invoices, expenses, general documents), documents, processing status, and the invoice
 * and expense reads: paths, validators and what each answers. Every call is scoped by
 * `company_id`; another company's ids answer 404.
 */
import { Hono } from 'hono'
import * as v from 'valibot'
import {
  BulkStatusQuery,
  DocumentPage,
  DocumentRecord,
  DocumentUploadForm,
  ExpenseUploadForm,
  KindParam,
  Paging,
  ProcessingDocument,
  QualityData,
  StatusParam,
  UploadHeaders,
} from '../../../contract/document-calls.ts'
import {
  FinancialDocument,
  type FinancialKind,
  MessageResult,
  ProcessingStatus,
  UploadAnswer,
} from '../../../contract/index.ts'
import { requireUser } from '../../http/auth.ts'
import { type CompanyEnv, requireCompanyMember } from '../../http/company-access.ts'
import { binary, describe, documentedInput, json, pathId, pathParam, validate } from '../../http/openapi.ts'
import { toDocument } from '../../services/documents/views.ts'
import {
  bulkStatus,
  byCompany,
  type DocumentRouteDeps,
  documentStatus,
  documentUpload,
  download,
  expenseUpload,
  financialView,
  findOwn,
  listDocuments,
  processing,
  qualityData,
  remove,
  reprocess,
  upload,
} from './documents.handlers.ts'
import { DOCUMENT_NOT_FOUND } from './documents.queries.ts'

export type { DocumentRouteDeps } from './documents.handlers.ts'

const documentId = () => pathId(DOCUMENT_NOT_FOUND)
const multipart = (schema: v.GenericSchema) => documentedInput('form', schema)
const deleted = json(MessageResult, 'Deleted')

function financialRoutes(deps: DocumentRouteDeps, kind: FinancialKind) {
  const member = requireCompanyMember(deps.db)
  const tags = [kind === 'invoice' ? 'Invoices' : 'Expenses']
  const list = json(v.array(FinancialDocument))
  const status = pathParam('status', StatusParam)
  return new Hono<CompanyEnv>()
    .get(
      '/company',
      describe({ tags, summary: `The company's ${kind}s`, responses: { 200: list } }),
      member,
      (c) => byCompany(deps, c, kind),
    )
    .get(
      '/status/:status/company_id/:company_id',
      describe({ tags, summary: `The company's ${kind}s of a status`, responses: { 200: list } }),
      requireCompanyMember(deps.db, { documentedIn: 'path' }),
      status,
      (c) => byCompany(deps, c, kind, c.req.valid('param').status),
    )
    .get(
      '/status/:status',
      describe({ tags, summary: `The company's ${kind}s of a status`, responses: { 200: list } }),
      member,
      status,
      (c) => byCompany(deps, c, kind, c.req.valid('param').status),
    )
    .get(
      `/${kind}/:id/download`,
      describe({
        tags,
        summary: `The ${kind}'s original file`,
        responses: { 200: binary('application/octet-stream', 'The file, with its own type') },
      }),
      member,
      documentId(),
      async (c) => download(deps, c, await findOwn(deps, c, kind)),
    )
    .get(
      '/:id/quality-data',
      describe({ tags, summary: `The ${kind}'s quality findings`, responses: { 200: json(QualityData) } }),
      member,
      documentId(),
      (c) => qualityData(deps, c, kind),
    )
    .get(
      '/:id',
      describe({ tags, summary: `One ${kind}`, responses: { 200: json(FinancialDocument) } }),
      member,
      documentId(),
      async (c) => c.json(financialView(kind)(await findOwn(deps, c, kind))),
    )
    .post(
      '/:id/reprocess',
      describe({
        tags,
        summary: `Reads the ${kind} again from its original (the values a user corrected are kept)`,
        responses: { 202: json(UploadAnswer, 'Queued: the record and its status') },
      }),
      member,
      documentId(),
      async (c) => c.json(await reprocess(deps, await findOwn(deps, c, kind)), 202),
    )
    .delete(
      '/:id',
      describe({ tags, summary: `Deletes the ${kind}`, responses: { 200: deleted } }),
      member,
      documentId(),
      async (c) => {
        await remove(deps, await findOwn(deps, c, kind))
        return c.json({ message: 'Deleted' })
      },
    )
}

function uploadRoutes(deps: DocumentRouteDeps) {
  const created = {
    200: json(UploadAnswer, 'Received before with this Idempotency-Key: that record and its status'),
    201: json(UploadAnswer, 'Received: the new record and its status'),
  }
  const idempotencyKey = documentedInput('header', UploadHeaders)
  return new Hono<CompanyEnv>()
    .post(
      '/documents/upload',
      describe({
        tags: ['Documents'],
        summary: 'Uploads an invoice or a general document',
        responses: created,
      }),
      idempotencyKey,
      multipart(DocumentUploadForm),
      (c) => upload(deps, c, documentUpload),
    )
    .post(
      '/expenses/upload',
      describe({ tags: ['Expenses'], summary: 'Uploads an expense', responses: created }),
      idempotencyKey,
      multipart(ExpenseUploadForm),
      (c) => upload(deps, c, expenseUpload),
    )
}

function generalRoutes(deps: DocumentRouteDeps) {
  const member = requireCompanyMember(deps.db)
  const tags = ['Documents']
  return new Hono<CompanyEnv>()
    .get(
      '/documents',
      describe({
        tags,
        summary: "A page of the company's documents",
        responses: { 200: json(DocumentPage) },
      }),
      member,
      validate('query', Paging),
      (c) => listDocuments(deps, c),
    )
    .get(
      '/documents/:id',
      describe({ tags, summary: 'One document', responses: { 200: json(DocumentRecord) } }),
      member,
      documentId(),
      async (c) => c.json(toDocument(await findOwn(deps, c))),
    )
    .get(
      '/documents/:id/download',
      describe({
        tags,
        summary: "The document's original file",
        responses: { 200: binary('application/octet-stream', 'The file, with its own type') },
      }),
      member,
      documentId(),
      async (c) => download(deps, c, await findOwn(deps, c)),
    )
    .delete(
      '/documents/:id',
      describe({ tags, summary: 'Deletes the document', responses: { 200: deleted } }),
      member,
      documentId(),
      async (c) => {
        await remove(deps, await findOwn(deps, c))
        return c.json({ message: 'Deleted' })
      },
    )
}

function statusRoutes(deps: DocumentRouteDeps) {
  const member = requireCompanyMember(deps.db)
  const tags = ['Processing']
  return new Hono<CompanyEnv>()
    .get(
      '/api/document/:type/:id/status',
      describe({
        tags,
        summary: "A document's processing status",
        responses: { 200: json(ProcessingStatus) },
      }),
      member,
      pathParam('type', KindParam),
      documentId(),
      (c) => documentStatus(deps, c),
    )
    .get(
      '/api/documents/status',
      describe({
        tags,
        summary: 'The processing status of several documents',
        responses: { 200: json(v.array(ProcessingStatus)) },
      }),
      member,
      documentedInput('query', BulkStatusQuery),
      (c) => bulkStatus(deps, c),
    )
    .get(
      '/api/documents/processing',
      describe({
        tags,
        summary: "The company's documents still processing",
        responses: { 200: json(v.array(ProcessingDocument)) },
      }),
      member,
      (c) => processing(deps, c),
    )
}

export function documentRoutes(deps: DocumentRouteDeps) {
  const signedIn = requireUser(deps.sessions)
  return new Hono<CompanyEnv>()
    .use('/documents/*', signedIn)
    .use('/documents', signedIn)
    .use('/expenses/*', signedIn)
    .use('/invoices/*', signedIn)
    .use('/api/*', signedIn)
    .route('/', uploadRoutes(deps))
    .route('/', generalRoutes(deps))
    .route('/', statusRoutes(deps))
    .route('/expenses', financialRoutes(deps, 'expense'))
    .route('/invoices', financialRoutes(deps, 'invoice'))
}

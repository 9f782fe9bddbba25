/**
 * The one way a document enters the pipeline, whatever brought it (the upload form, a scanner
 * address's mail): `storeFile` streams it into the storage while hashing it, sniffing its type
 * from its first bytes and counting its size; `commitIngested` then writes, in one transaction,
 * each stored file's document + dashboard row + processing job (through the document service, the
 * owner of its status) and the rows of the refused ones, which keep a status of their own.
 */
import { createHash } from 'node:crypto'
import { type Readable, Transform } from 'node:stream'
import {
  cleanText,
  contractMessages,
  type DocumentKind,
  type DocumentStatus,
  FINANCIAL_KIND,
  TEXT_LIMITS,
} from '../../../contract/index.ts'
import type { AppDatabase } from '../../db/client.ts'
import { type LogSource, logs } from '../../db/schema.ts'
import { HttpError } from '../../http/errors.ts'
import type { JobQueue } from '../../jobs/queue.ts'
import { sniffInvoiceRoot } from '../einvoice/index.ts'
import type { FileStorage } from '../storage/index.ts'
import { storeDocument } from './lifecycle/document-service.ts'

export type SniffedType =
  | 'application/pdf'
  | 'image/jpeg'
  | 'image/png'
  | 'image/gif'
  | 'application/xml'
  | null

/** Text that starts like XML (after a byte-order mark and blanks): its root decides what it is. */
const looksLikeXml = (head: Uint8Array) =>
  /^(\uFEFF|\xEF\xBB\xBF)?\s*</.test(Buffer.from(head.subarray(0, 64)).toString('latin1'))

/**
 * The file type by its first bytes; the client's name and MIME type are never trusted. XML is
 * `application/xml` only when its root element and namespace are a UBL or CII e-invoice's.
 */
export function sniff(head: Uint8Array): SniffedType {
  const b = Buffer.from(head)
  if (looksLikeXml(head)) return sniffInvoiceRoot(b.toString('utf8')) ? 'application/xml' : null
  if (b.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf'
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg'
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png'
  if (/^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1'))) return 'image/gif'
  return null
}

/** Whether a file of this detected type may be a document of this kind (general documents: any). */
export function acceptsType(kind: DocumentKind, sniffed: SniffedType): boolean {
  if (kind === 'document') return true
  return FINANCIAL_KIND[kind].accepted.some((t) => t.mime === sniffed)
}

/** The refusal of a file whose type this kind does not accept (415, the contract's message). */
export const unsupportedType = (kind: 'invoice' | 'expense'): HttpError =>
  new HttpError(415, FINANCIAL_KIND[kind].refusal)

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, `File too large (limit ${Math.round(maxBytes / 1024 / 1024)} MB)`)
}

export const emptyFile = (): HttpError =>
  new HttpError(400, contractMessages.invalidInput, [{ field: 'file', message: contractMessages.fileEmpty }])

export interface StoredFile {
  key: string
  size: number
  sha256: string
  sniffed: SniffedType
  originalName: string
}

export interface StoreOptions {
  maxBytes: number
  /** The sender's file name (cleaned here). */
  name: string
  /** Called once with the type of the first bytes: throw to refuse before the rest is stored. */
  checkType?: (sniffed: SniffedType) => void
}

const HEAD_BYTES = 8
/** XML is judged by its root element, which may follow a long prolog (comments, licence text). */
const XML_HEAD_BYTES = 16 * 1024

/** Hashes, sniffs (calling `checkType`) and counts what passes; more than `maxBytes` fails it. */
function inspector(options: StoreOptions) {
  const hash = createHash('sha256')
  let head = Buffer.alloc(0)
  let size = 0
  const found: { sniffed: SniffedType; checked: boolean } = { sniffed: null, checked: false }
  const check = () => {
    found.checked = true
    found.sniffed = sniff(head)
    options.checkType?.(found.sniffed)
  }
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk)
      size += chunk.length
      if (size > options.maxBytes) return callback(tooLarge(options.maxBytes))
      if (!found.checked) {
        head = Buffer.concat([head, chunk.subarray(0, XML_HEAD_BYTES - head.length)])
        if (head.length >= HEAD_BYTES && !(looksLikeXml(head) && head.length < XML_HEAD_BYTES)) {
          try {
            check()
          } catch (error) {
            return callback(error as Error)
          }
        }
      }
      callback(null, chunk)
    },
    flush(callback) {
      try {
        if (!found.checked) check()
        callback()
      } catch (error) {
        callback(error as Error)
      }
    },
  })
  // Data may flow (and be refused) before the storage attaches its own listeners.
  stream.on('error', () => {})
  return { stream, found, digest: () => hash.digest('hex') }
}

/**
 * Streams `source` into the storage under a new key. Rejects (leaving nothing stored) when the
 * type check refuses the first bytes, past `maxBytes`, or when the source fails or is destroyed.
 */
export async function storeFile(
  storage: FileStorage,
  source: Readable,
  options: StoreOptions,
): Promise<StoredFile> {
  const key = storage.newKey()
  const inspect = inspector(options)
  source.on('error', (error) => inspect.stream.destroy(error))
  // A source destroyed without an error (an interrupted upload) never ends.
  source.on('close', () => {
    if (!source.readableEnded) inspect.stream.destroy(new HttpError(400, 'Upload interrupted'))
  })
  source.pipe(inspect.stream)
  const { size } = await storage.put(key, inspect.stream)
  return {
    key,
    size,
    sha256: inspect.digest(),
    sniffed: inspect.found.sniffed,
    originalName: cleanName(options.name),
  }
}

/**
 * A sender's file name, for display only: no path, cleaned by the text rule (no control,
 * bidirectional or invisible format character: `inv\u202Efdp.exe` cannot pose as a PDF; NFC, so a
 * macOS name in decomposed form is found by the same search), at most 255 characters.
 */
export function cleanName(name: string, fallback = 'file'): string {
  return cleanText(name.split(/[\\/]/).pop() ?? '', { max: TEXT_LIMITS.fileName, fallback })
}

/**
 * Where a row came from: the upload form (by a user; one file, with the request's
 * `Idempotency-Key` when it sent one) or a scanner address's mail.
 */
type Origin =
  | { source: Extract<LogSource, 'upload'>; userId: number; uploadKey?: string }
  | { source: Extract<LogSource, 'email'>; sender: string; subject: string | null; messageId: string | null }

interface IngestTarget {
  companyId: number
  kind: DocumentKind
  category: string
}

export type Executor = Parameters<Parameters<AppDatabase['transaction']>[0]>[0]

const LOG_TYPE = { invoice: 'Invoice', expense: 'Expense', document: 'Document' } as const

function originColumns(origin: Origin) {
  return origin.source === 'upload'
    ? { source: origin.source, userId: origin.userId }
    : {
        source: origin.source,
        userId: null,
        sender: origin.sender,
        subject: origin.subject,
        messageId: origin.messageId,
      }
}

/** One stored file's document, dashboard row and (invoices, expenses) processing job. */
function recordDocument(
  tx: Executor,
  queue: JobQueue,
  entry: { target: IngestTarget; file: StoredFile; origin: Origin; now: Date },
): Promise<{ id: number; status: DocumentStatus }> {
  const { target, file, origin, now } = entry
  return storeDocument(tx, queue, {
    document: {
      companyId: target.companyId,
      kind: target.kind,
      category: target.category,
      uploadedBy: origin.source === 'upload' ? origin.userId : null,
      // In the same insert: the unique index refuses a second document for the key at once.
      uploadKey: origin.source === 'upload' ? (origin.uploadKey ?? null) : null,
      originalName: file.originalName,
      contentType: file.sniffed ?? 'application/octet-stream',
      sizeBytes: file.size,
      sha256: file.sha256,
      storageKey: file.key,
      createdAt: now,
      updatedAt: now,
    },
    row: {
      name: file.originalName,
      type: LOG_TYPE[target.kind],
      category: target.category,
      ...originColumns(origin),
      createdAt: now,
      updatedAt: now,
    },
  })
}

export interface Ingestion {
  target: IngestTarget
  origin: Origin
  /** The files stored for this target, and the ones refused (named, with the reason). */
  files: StoredFile[]
  rejected: { name: string; reason: string }[]
  now: Date
  /**
   * Runs first in the transaction; answering false commits nothing (a message already received).
   */
  claim?: (tx: Executor) => Promise<boolean>
}

/**
 * Commits an ingestion in one transaction: documents + rows + jobs of the stored files, `rejected`
 * rows of the refused ones. Answers the new documents, or null when `claim` declined (the caller
 * then deletes the stored files, as it does when this throws).
 */
export async function commitIngested(
  db: AppDatabase,
  queue: JobQueue,
  ingestion: Ingestion,
): Promise<{ id: number; status: DocumentStatus }[] | null> {
  const { target, origin, now } = ingestion
  return db.transaction(async (tx) => {
    if (ingestion.claim && !(await ingestion.claim(tx))) return null
    const created = []
    for (const file of ingestion.files)
      created.push(await recordDocument(tx, queue, { target, file, origin, now }))
    for (const refused of ingestion.rejected) {
      await tx.insert(logs).values({
        companyId: target.companyId,
        name: refused.name,
        type: LOG_TYPE[target.kind],
        status: 'rejected',
        category: target.category,
        reason: refused.reason,
        ...originColumns(origin),
        createdAt: now,
        updatedAt: now,
      })
    }
    return created
  })
}

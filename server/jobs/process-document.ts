/**
 * The processing job of one invoice or expense: read the stored file, extract the fields, check
 * quality, and report the outcome to the document service (`processing.finish`, or
 * `processing.fail` when nothing was read), which decides and stores the status. Idempotent: a
 * document whose state no longer takes a job's report (finished, deleted) is left alone, so a job
 * run twice after a crash changes nothing the second time. What it stores follows the text rule (field-rule.ts): a
 * value that breaks it fails the document at once, naming the field. Only failures another
 * attempt may get past are retried: a value the database refuses would be refused again.
 */
import { and, eq, lt } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { DocumentStatus } from '../../contract/index.ts'
import type { AppDatabase } from '../db/client.ts'
import { type DocumentRow, documents, type FieldEvidence, type FieldSource } from '../db/schema.ts'
import { databaseError, failsAgain } from '../db/sql-state.ts'
import { HttpError } from '../http/errors.ts'
import { keepCorrections } from '../services/documents/corrections.ts'
import { findDuplicate } from '../services/documents/duplicates.ts'
import { type ExtractionExtras, extractionExtras } from '../services/documents/einvoice-outcome.ts'
import { checkExtraction, type Refusal } from '../services/documents/field-rule.ts'
import type { LifecycleEvent } from '../services/documents/lifecycle/document-lifecycle.machine.ts'
import {
  accepts,
  IllegalTransitionError,
  transitionDocument,
} from '../services/documents/lifecycle/document-service.ts'
import { storePageWords } from '../services/documents/page-words.ts'
import { assessQuality, type QualityCode, qualityMessage } from '../services/documents/quality.ts'
import { previousIban, recallSupplier } from '../services/documents/supplier-memory.ts'
import {
  type ExtractedFields,
  extractDocument,
  type OcrPool,
  type PageWords,
  UnreadableFileError,
} from '../services/extraction/index.ts'
import { type ExtractionSandbox, SandboxError } from '../services/extraction/sandbox.ts'
import type { FileStorage } from '../services/storage/index.ts'
import type { JobContext, ProcessJob } from './queue.ts'

export interface ProcessorDeps {
  db: AppDatabase
  storage: FileStorage
  /** Where documents are extracted: child processes that may die without taking this one along. */
  sandbox?: Pick<ExtractionSandbox, 'extract'>
  /** In-process extraction (tests, with `extract`), when there is no sandbox. */
  ocr?: OcrPool
  logger: Logger
  clock: () => Date
  /** Replaceable in tests (a poison file, a crash); runs in this process with `ocr`. */
  extract?: typeof extractDocument
}

/** What a run records on its document: the fields read (none when it failed) and the findings. */
interface Outcome {
  fields?: ExtractedFields
  pages?: number
  errors: QualityCode[]
  warnings: QualityCode[]
  failureReason?: string | null
  extras?: ExtractionExtras
  fieldSources?: Record<string, FieldSource>
  fieldEvidence?: Record<string, FieldEvidence>
  qualityDetails?: Record<string, Record<string, unknown>>
  /** Each page's words as read, kept for the review screens. */
  words?: PageWords[]
}

type Finish = (documentId: number, outcome: Outcome) => Promise<DocumentStatus | null>

/** The document's columns as an outcome sets them. */
function outcomeColumns(outcome: Outcome, now: Date) {
  const f = outcome.fields
  return {
    errors: outcome.errors,
    warnings: outcome.warnings,
    failureReason: outcome.failureReason ?? null,
    processedAt: now,
    updatedAt: now,
    pages: outcome.pages ?? null,
    ...(outcome.fieldSources && { fieldSources: outcome.fieldSources }),
    fieldEvidence: outcome.fieldEvidence ?? {},
    qualityDetails: outcome.qualityDetails ?? {},
    ...(f && {
      invoiceNumber: f.invoice_number,
      documentDate: f.document_date,
      businessName: f.business_name,
      businessAddress: f.business_address,
      vatNumber: f.vat_number,
      iban: f.iban,
      currency: f.currency,
      hasVat: f.has_vat,
      totalVatAmount: f.total_vat_amount,
      totalChargeExcludingVat: f.total_charge_excluding_vat,
      totalInvoiceIncludingVat: f.total_invoice_including_vat,
    }),
    ...(outcome.extras && { einvoice: outcome.extras.einvoice, dueDate: outcome.extras.dueDate }),
  }
}

/** Records an outcome through the document's lifecycle; the status it ends in, or null when it was not ours to record. */
function documentFinisher(db: AppDatabase, clock: () => Date): Finish {
  return async (documentId, outcome) => {
    const event: LifecycleEvent =
      outcome.fields === undefined
        ? { type: 'processing.fail' }
        : { type: 'processing.finish', errors: outcome.errors }
    try {
      const { row } = await db.transaction(async (tx) => {
        const done = await transitionDocument(tx, { id: documentId }, event, outcomeColumns(outcome, clock()))
        if (outcome.words) await storePageWords(tx, documentId, outcome.words)
        return done
      })
      return row?.status ?? null
    } catch (error) {
      // Only the first run to finish records anything (exactly-once outcome): a document already
      // finished, or deleted meanwhile, is left as it is.
      if (error instanceof IllegalTransitionError || (error instanceof HttpError && error.status === 404))
        return null
      throw error
    }
  }
}

type Extraction = Awaited<ReturnType<typeof extractDocument>>

/** Checks what was read against the company's memory, earlier documents and the quality rules, and records it. */
async function recordExtraction(
  { db, clock, logger }: ProcessorDeps,
  finish: Finish,
  doc: DocumentRow,
  result: Extraction,
  started: number,
): Promise<void> {
  const kind = doc.kind as 'invoice' | 'expense'
  const today = clock().toISOString().slice(0, 10)
  // The company's supplier memory wins over what the page prints for the supplier, and a user's
  // correction (a document read again) over both.
  const recalled = await recallSupplier(db, doc.companyId, result.fields)
  const kept = keepCorrections(doc, recalled.fields)
  const { fields } = kept
  const sources = { ...recalled.sources, ...kept.sources }
  const duplicate = await findDuplicate(db, doc, fields)
  const quality = assessQuality(kind, fields, { today, duplicate: duplicate !== null })
  const previous = kind === 'invoice' ? await previousIban(db, doc, fields) : null
  if (previous) quality.warnings.push('iban_changed')
  const read = extractionExtras(result, kind)
  const extras = kept.dueDate ? { ...read, dueDate: kept.dueDate.value } : read
  const qualityDetails = {
    ...extras.details,
    ...(duplicate && { duplicate: { ...duplicate } }),
    ...(previous && { iban_changed: { previous_iban: previous } }),
  }
  const errors = [...quality.errors, ...extras.errors]
  const warnings = [...quality.warnings, ...extras.warnings]
  const status = await finish(doc.id, {
    fields,
    // A bare XML e-invoice has no pages.
    pages: result.pages || undefined,
    errors,
    warnings,
    extras,
    fieldSources: { ...extras.fieldSources, ...sources },
    // A value the supplier memory or a user replaced was not read where the page shows it.
    fieldEvidence: Object.fromEntries(
      Object.entries(extras.fieldEvidence).filter(([field]) => !(field in sources)),
    ),
    qualityDetails,
    words: result.words,
  })
  logger.info(
    {
      documentId: doc.id,
      status,
      errors,
      warnings,
      pages: result.pages,
      einvoice: result.einvoice?.syntax,
      ocrPages: result.ocrPages,
      ms: Math.round(performance.now() - started),
    },
    'document processed',
  )
}

/** A failed attempt: retried (rethrown) unless it was the last, or another would fail the same way. */
async function recordFailure(
  logger: Logger,
  finish: Finish,
  doc: DocumentRow,
  error: unknown,
  ctx: JobContext,
): Promise<void> {
  const refused = databaseError(error)
  const permanent = refused !== null && failsAgain(refused.code)
  const last = permanent || ctx.retryCount >= ctx.retryLimit
  logger.warn(
    { documentId: doc.id, err: error, attempt: ctx.retryCount + 1, last, sqlstate: refused?.code },
    permanent
      ? 'document refused by the database'
      : last
        ? 'document processing gave up'
        : 'document processing failed, will retry',
  )
  if (!last) throw error
  // A file that outran its time or memory budget on every attempt is too big for us, not broken.
  const tooLarge = error instanceof SandboxError && error.kind !== 'crash'
  await finish(doc.id, {
    errors: [permanent ? 'invalid_data' : tooLarge ? 'file_too_large_to_process' : 'processing_failed'],
    warnings: [],
    // The database's own message, never the query's parameters (the document's values).
    failureReason: (permanent
      ? `The database refused a value read from the file (${refused.code}: ${refused.message})`
      : String((error as Error).message ?? error)
    ).slice(0, 500),
  })
}

export function createDocumentProcessor(deps: ProcessorDeps) {
  const { db, storage, logger, clock } = deps
  const { sandbox, ocr } = deps
  if (!sandbox && !ocr) throw new Error('createDocumentProcessor needs a sandbox or an OCR pool')
  const extract = (data: Uint8Array, contentType: string) =>
    deps.extract || !sandbox
      ? (deps.extract ?? extractDocument)(data, contentType, ocr!)
      : sandbox.extract(data, contentType)
  const finish = documentFinisher(db, clock)

  /** A document whose values break the text rule: FAILED at once, the field named in its details. */
  async function refuse(documentId: number, refusal: Refusal, words?: PageWords[]): Promise<void> {
    await finish(documentId, {
      // The page was read: its words help the user fill the refused field.
      words,
      errors: [refusal.code],
      warnings: [],
      failureReason: qualityMessage(refusal.code, 'en', refusal.detail),
      qualityDetails: { [refusal.code]: { ...refusal.detail } },
    })
    logger.info({ documentId, code: refusal.code, ...refusal.detail }, 'document refused by the text rule')
  }

  /**
   * The job handler. Throws to have the job retried; on the last attempt, or when another attempt
   * would fail the same way (a value the database refuses), records FAILED instead.
   */
  async function process(job: ProcessJob, ctx: JobContext): Promise<void> {
    const [doc] = await db.select().from(documents).where(eq(documents.id, job.documentId))
    if (!doc || !accepts(doc, { type: 'processing.start' })) return
    const started = performance.now()
    try {
      const data = await storage.read(doc.storageKey)
      let result: Extraction
      try {
        result = await extract(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), doc.contentType)
      } catch (error) {
        if (!(error instanceof UnreadableFileError)) throw error
        await finish(doc.id, {
          errors: [error.code],
          warnings: [],
          failureReason: error.message,
        })
        logger.info({ documentId: doc.id, code: error.code }, 'document unreadable')
        return
      }
      const checked = checkExtraction(result)
      if (checked.refusal) return await refuse(doc.id, checked.refusal, checked.extraction.words)
      await recordExtraction(deps, finish, doc, checked.extraction, started)
    } catch (error) {
      await recordFailure(logger, finish, doc, error, ctx)
    }
  }

  /** A job that exhausted its retries without the handler recording anything (crash, timeout). */
  async function dead(job: ProcessJob): Promise<void> {
    const finished = await finish(job.documentId, {
      errors: ['processing_failed'],
      warnings: [],
      failureReason: 'Processing did not finish after its retries',
    })
    if (finished !== null) logger.warn({ documentId: job.documentId }, 'document failed after its retries')
  }

  /** Safety net: nothing stays PROCESSING for ever, even if a job was lost. */
  async function failStale(olderThanMs: number): Promise<number> {
    const now = clock()
    const stale = await db
      .select({ id: documents.id })
      .from(documents)
      .where(
        and(
          eq(documents.status, 'PROCESSING'),
          lt(documents.updatedAt, new Date(now.getTime() - olderThanMs)),
        ),
      )
    let n = 0
    for (const { id } of stale) {
      const finished = await finish(id, {
        errors: ['processing_failed'],
        warnings: [],
        failureReason: 'Processing timed out',
      })
      if (finished !== null) n++
    }
    return n
  }

  return { process, dead, failStale }
}

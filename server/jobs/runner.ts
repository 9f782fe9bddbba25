/**
 * Starts document workers: in the server process by default (WORKERS, default 1) or in
 * separate `npm run worker` processes against PostgreSQL.
 */
import type { Logger } from 'pino'
import type { Config } from '../config.ts'
import type { AppDatabase } from '../db/client.ts'
import { createOcrPool, type extractDocument } from '../services/extraction/index.ts'
import { createExtractionSandbox } from '../services/extraction/sandbox.ts'
import type { FileStorage } from '../services/storage/index.ts'
import { createDocumentProcessor } from './process-document.ts'
import type { JobQueue } from './queue.ts'

const SWEEP_INTERVAL_MS = 60_000

export async function startWorkers(options: {
  db: AppDatabase
  driver: 'pglite' | 'postgres'
  config: Config
  logger: Logger
  storage: FileStorage
  queue: JobQueue
  concurrency: number
  clock?: () => Date
  /** How often documents stuck in PROCESSING are looked for (default one minute). */
  sweepIntervalMs?: number
  /** Age past which a PROCESSING document has lost its job (default: longer than every attempt). */
  staleAfterMs?: number
  /** Replaceable in tests (a file that never finishes). */
  extract?: typeof extractDocument
}) {
  const { db, config, logger, storage, queue } = options
  const clock = options.clock ?? (() => new Date())
  // Extraction runs in child processes, one per concurrent job, started now so the first
  // document finds them warm. A document's budget stays inside its job's (expireInSeconds).
  const sandbox = createExtractionSandbox({
    ...config.extraction,
    size: options.concurrency,
    ocrWorkers: config.ocrWorkers,
    documentTimeoutMs: Math.min(
      config.extraction.documentTimeoutMs,
      Math.max(1000, queue.options.expireInSeconds * 900),
    ),
    logger,
  })
  // A test's replacement extraction runs in this process, with an OCR pool of its own (lazy).
  const ocr = options.extract ? createOcrPool(1) : undefined
  const processor = createDocumentProcessor({
    db,
    storage,
    sandbox,
    ocr,
    logger,
    clock,
    extract: options.extract,
  })
  await queue.start()
  // With PGlite only this process can have run the jobs: active ones were cut by a stop.
  if (options.driver === 'pglite') {
    const n = await queue.requeueOrphans()
    if (n > 0) logger.info({ jobs: n }, 'requeued jobs interrupted by the last stop')
  }
  if (!options.extract) await sandbox.warm()
  await queue.work(options.concurrency, processor.process, processor.dead)
  // Longer than every attempt could take (its time budget, or its lease after a crash, plus the
  // retry delay): a document still PROCESSING then has lost its job.
  const { expireInSeconds, leaseSeconds, retryLimit } = queue.options
  const staleMs =
    options.staleAfterMs ?? (Math.max(expireInSeconds, leaseSeconds) + 60) * 1000 * (retryLimit + 2)
  const sweep = setInterval(() => {
    processor
      .failStale(staleMs)
      .then((n) => {
        if (n > 0) logger.warn({ documents: n }, 'documents stuck in PROCESSING failed')
      })
      .catch((error) => logger.error({ err: error }, 'stale sweep failed'))
  }, options.sweepIntervalMs ?? SWEEP_INTERVAL_MS)
  sweep.unref()
  logger.info({ concurrency: options.concurrency, ocrWorkers: config.ocrWorkers }, 'document workers started')
  return {
    /** The extraction processes (tests and diagnostics look at their pids and memory). */
    sandbox,
    async stop() {
      clearInterval(sweep)
      await queue.stop()
      await sandbox.close()
      await ocr?.close()
    },
  }
}

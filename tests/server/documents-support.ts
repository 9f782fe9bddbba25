/** Building blocks of the document pipeline tests: an app with its storage, queue and workers. */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { vi } from 'vitest'
import { createApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import type { AppDatabase } from '../../server/db/client.ts'
import { companies, userCompanies } from '../../server/db/schema.ts'
import { createDocumentProcessor } from '../../server/jobs/process-document.ts'
import { createJobQueue, type QueueOptions } from '../../server/jobs/queue.ts'
import { createLogger } from '../../server/logger.ts'
import { createOcrPool, type extractDocument } from '../../server/services/extraction/index.ts'
import { createExtractionSandbox, type ExtractionSandbox } from '../../server/services/extraction/sandbox.ts'
import { createLocalStorage } from '../../server/services/storage/index.ts'
import { createCookieJar, createLogCapture, insertUser, jsonBody } from './helpers.ts'

/** The shared corpus beside the checkout, or CORPUS_DIR (as the benches take it) from a worktree. */
export const CORPUS = process.env.CORPUS_DIR
  ? join(process.env.CORPUS_DIR, 'files')
  : join(import.meta.dirname, '../../../shared/corpus/files')
export const corpusFile = (name: string) => readFile(join(CORPUS, name))

export const FAST_QUEUE: Partial<QueueOptions> = {
  retryLimit: 1,
  retryDelaySeconds: 1,
  expireInSeconds: 3,
  heartbeatSeconds: 1,
  leaseSeconds: 3,
  maintenanceIntervalSeconds: 1,
  pollingIntervalSeconds: 0.5,
}

export async function createPipelineApp(
  db: AppDatabase,
  root: string,
  options: { env?: Record<string, string>; queue?: Partial<QueueOptions>; clock?: () => Date } = {},
) {
  const config = loadConfig({ DATA_DIR: join(root, 'data'), LOG_LEVEL: 'info', ...options.env })
  const logs = createLogCapture()
  const logger = createLogger(config, logs.stream)
  const storage = createLocalStorage(join(config.dataDir, 'files'))
  const queue = createJobQueue(db, logger, { ...FAST_QUEUE, ...options.queue })
  await queue.start()
  const app = createApp({ db, config, logger, storage, queue, clock: options.clock })
  // A test's replacement `extract` runs in this process with an OCR pool; the real extraction
  // runs in the sandbox's child process, as in production (started with the first workers).
  const ocr = createOcrPool(1)
  let sandbox: ExtractionSandbox | null = null
  const started: { stop: () => Promise<void> }[] = []
  return {
    app,
    config,
    logs: logs.lines,
    storage,
    queue,
    /** Starts processing on a queue of its own (as a worker process would). */
    async startWorkers(extract?: typeof extractDocument, queueOptions: Partial<QueueOptions> = {}) {
      const workerQueue = createJobQueue(db, logger, { ...FAST_QUEUE, ...options.queue, ...queueOptions })
      if (!extract)
        sandbox ??= createExtractionSandbox({ ...config.extraction, size: 1, ocrWorkers: 1, logger })
      const processor = createDocumentProcessor({
        db,
        storage,
        ocr,
        sandbox: extract ? undefined : (sandbox ?? undefined),
        logger,
        clock: options.clock ?? (() => new Date()),
        extract,
      })
      await workerQueue.start()
      await workerQueue.work(1, processor.process, processor.dead)
      const handle = { stop: () => workerQueue.stop({ graceful: false }), queue: workerQueue, processor }
      started.push(handle)
      return handle
    },
    async close() {
      for (const s of started) await s.stop().catch(() => {})
      await queue.stop({ graceful: false }).catch(() => {})
      await sandbox?.close()
      await ocr.close()
    },
    /** Every file under the storage directory (temporary ones included). */
    async storedFiles(): Promise<string[]> {
      const dir = join(config.dataDir, 'files')
      try {
        return (await readdir(dir, { recursive: true, withFileTypes: true }))
          .filter((e) => e.isFile())
          .map((e) => join(e.parentPath, e.name))
      } catch {
        return []
      }
    },
  }
}

let companyCounter = 0

export async function insertCompany(db: AppDatabase, name = `Company ${++companyCounter}`) {
  const [row] = await db.insert(companies).values({ name }).returning()
  return row!
}

export async function memberOf(
  db: AppDatabase,
  app: { request: (path: string, init?: RequestInit) => Response | Promise<Response> },
  companyId: number | null,
  role: 'SAAS_ADMIN' | 'INTERNAL_USER' = 'INTERNAL_USER',
) {
  const user = await insertUser(db, { role })
  if (companyId !== null)
    await db.insert(userCompanies).values({ userId: user.id, companyId, role: 'COMPANY_USER' })
  const jar = createCookieJar()
  const res = await jar.request(
    app,
    '/api/auth/login',
    jsonBody({ email: user.email, password: user.password }),
  )
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`)
  return { user, jar }
}

/** A multipart body; `order` puts the file before or after the other fields. */
export function multipart(
  fields: Record<string, string>,
  file: { name: string; data: Uint8Array; type?: string } | null,
  order: 'fields-first' | 'file-first' = 'fields-first',
): RequestInit {
  const form = new FormData()
  const addFile = () => {
    if (file)
      form.append(
        'file',
        new Blob([file.data as Uint8Array<ArrayBuffer>], { type: file.type ?? 'application/octet-stream' }),
        file.name,
      )
  }
  if (order === 'file-first') addFile()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  if (order === 'fields-first') addFile()
  return { method: 'POST', body: form }
}

export async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await probe()
      if (!value) throw new Error('timed out waiting')
      return value
    },
    { timeout: timeoutMs, interval: 150 },
  )
}

/**
 * Processing in a sandbox: files that crashed the server (tesseract throwing in its worker) or
 * froze it for minutes with gigabytes of memory ("bombs": a few hundred bytes or kB declaring
 * gigapixels or thousands of pages) are uploaded through the real app and pipeline (runner,
 * sandbox child processes) and end FAILED with a clear code within seconds, while this process
 * lives on and a good invoice uploaded right after completes. A sandbox process killed mid-job is
 * replaced and its document fails after its retries; a heavy document's process is recycled, so
 * memory goes back to its baseline; the time and memory watchdogs end what the header checks
 * cannot foresee.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/config.ts'
import { createJobQueue, type QueueOptions } from '../../server/jobs/queue.ts'
import { startWorkers } from '../../server/jobs/runner.ts'
import { createLogger } from '../../server/logger.ts'
import {
  blankScanPdf,
  hugeImagePdf,
  jpegLikeGarbage,
  manyPagesPdf,
  tinyJpegDeclaring,
  tinyPngDeclaring,
  whitePng,
} from '../support/bomb-files.ts'
import { corpusFile, FAST_QUEUE, multipart, waitFor } from './documents-support.ts'
import { createLogCapture } from './helpers.ts'
import { pipelineFixture } from './pipeline-fixture.ts'

const f = pipelineFixture('docflow-sandbox-')
const MB = 1024 * 1024
/** A scanned invoice: seconds of OCR, ~350 MB in the sandbox process once read. */
const SCAN = '0032-scan.png'

/** Workers as the server starts them (runner.ts: sandbox processes), with settings of the test's. */
async function startSandboxWorkers(env: Record<string, string> = {}, queue: Partial<QueueOptions> = {}) {
  const config = loadConfig({ DATA_DIR: f.ctx.config.dataDir, LOG_LEVEL: 'info', ...env })
  const capture = createLogCapture()
  const logger = createLogger(config, capture.stream)
  // A long attempt budget: real OCR runs in some of these tests (the sandbox's own budgets are
  // the ones under test).
  const jobQueue = createJobQueue(f.database.db, logger, { ...FAST_QUEUE, expireInSeconds: 120, ...queue })
  const workers = await startWorkers({
    db: f.database.db,
    driver: f.database.driver,
    config,
    logger,
    storage: f.ctx.storage,
    queue: jobQueue,
    concurrency: 1,
  })
  return { workers, sandbox: workers.sandbox, logs: capture.lines }
}

async function upload(name: string, data: Uint8Array): Promise<number> {
  const res = await f.member.jar.request(
    f.ctx.app,
    '/api/documents/upload',
    multipart({ documentType: 'invoice', company_id: String(f.companyId) }, { name, data }),
  )
  expect(res.status).toBe(201)
  return (await res.json()).id
}

const settled = (id: number, timeoutMs: number) =>
  waitFor(async () => {
    const row = await f.row(id)
    return row.status === 'PROCESSING' ? null : row
  }, timeoutMs)

async function qualityOf(id: number) {
  const res = await f.member.jar.request(
    f.ctx.app,
    `/api/invoices/${id}/quality-data?company_id=${f.companyId}`,
  )
  expect(res.status).toBe(200)
  return res.json()
}

/** A clean text-layer invoice goes through after whatever came before. */
async function goodInvoiceCompletes() {
  const id = await upload('facture.pdf', await corpusFile('0016-facture.pdf'))
  expect(await settled(id, 30_000)).toMatchObject({ status: 'COMPLETED', errors: [] })
}

describe('files over a limit or broken, refused before decoding', () => {
  let ctx: Awaited<ReturnType<typeof startSandboxWorkers>>
  let firstPid: number
  beforeAll(async () => {
    ctx = await startSandboxWorkers()
    firstPid = ctx.sandbox.children()[0]!.pid
  })
  afterAll(() => ctx?.workers.stop())

  const cases: [string, string, () => Promise<Uint8Array> | Uint8Array, string, RegExp][] = [
    ['a 62-byte file that starts like a JPEG', 'x.jpg', jpegLikeGarbage, 'unreadable_file', /cannot be read/],
    [
      'a 49-byte JPEG declaring 65 500² pixels',
      'x.jpg',
      tinyJpegDeclaring,
      'file_too_large_to_process',
      /65500 × 65500/,
    ],
    [
      'a 74-byte PNG declaring 65 500² pixels',
      'x.png',
      tinyPngDeclaring,
      'file_too_large_to_process',
      /65500 × 65500/,
    ],
    [
      'a zlib-compressed PNG of 20 000² pixels',
      'x.png',
      whitePng,
      'file_too_large_to_process',
      /20000 × 20000/,
    ],
    ['a PDF of 20 000 blank pages (one shared page)', 'x.pdf', manyPagesPdf, 'too_many_pages', /20000 pages/],
    ['a PDF showing one 20 000² image', 'x.pdf', hugeImagePdf, 'file_too_large_to_process', /20000 × 20000/],
    ['a 60-page blank scan', 'x.pdf', blankScanPdf, 'too_many_pages', /60 pages have no text layer/],
  ]

  it.each(cases)('%s ends FAILED with its code within seconds', async (_, name, build, code, reason) => {
    const data = await build()
    // Small on disk: the harm is in what the header declares.
    expect(data.length).toBeLessThan(400_000)
    const id = await upload(name, data)
    const done = await settled(id, 15_000)
    expect(done).toMatchObject({ status: 'FAILED', errors: [code], warnings: [] })
    expect(done.failureReason).toMatch(reason)
    const quality = await qualityOf(id)
    expect(quality.details.errors[0].messages.en).not.toBe(code)
    expect(quality.details.errors[0].messages.fr).not.toBe(quality.details.errors[0].messages.en)
    // Refused from its header, never retried: one attempt, no process killed or recycled.
    expect(
      ctx.logs.some((l) => l.documentId === id && l.msg === 'document processing failed, will retry'),
    ).toBe(false)
    expect(ctx.sandbox.children().map((c) => c.pid)).toEqual([firstPid])
  })

  it('stays up and processes a good invoice right after the bombs, in the same warm process', async () => {
    const health = await f.ctx.app.request('/api/health')
    expect(health.status).toBe(200)
    await goodInvoiceCompletes()
    const [child] = ctx.sandbox.children()
    expect(child?.pid).toBe(firstPid)
    // Nothing was decoded: the sandbox process is still near its start-up size.
    expect(child!.rss).toBeLessThan(300 * MB)
  })
})

describe('a sandbox process that dies', () => {
  it('is replaced, and a document whose process is killed on every attempt ends FAILED after its retries', async () => {
    const ctx = await startSandboxWorkers({}, { retryLimit: 1, retryDelaySeconds: 1 })
    try {
      // A scan: OCR keeps the sandbox process busy for seconds, time to kill it mid-job.
      const id = await upload('scan.png', await corpusFile(SCAN))
      const killed: number[] = []
      for (let attempt = 0; attempt < 2; attempt++) {
        const pid = await waitFor(
          async () => ctx.sandbox.children().find((c) => c.busy && !killed.includes(c.pid))?.pid,
          30_000,
        )
        process.kill(pid, 'SIGKILL')
        killed.push(pid)
      }
      const done = await settled(id, 30_000)
      expect(done).toMatchObject({ status: 'FAILED', errors: ['processing_failed'] })
      expect(done.failureReason).toMatch(/extraction process died \(signal SIGKILL\)/)
      expect(
        ctx.logs.filter((l) => l.documentId === id && l.msg === 'document processing failed, will retry'),
      ).toHaveLength(1)
      // A fresh process took over and works.
      const fresh = await waitFor(async () => ctx.sandbox.children()[0], 30_000)
      expect(killed).not.toContain(fresh.pid)
      await goodInvoiceCompletes()
    } finally {
      await ctx.workers.stop()
    }
  })
})

describe('memory and time', () => {
  it('recycles the process after a heavy document: memory back to its baseline', async () => {
    const ctx = await startSandboxWorkers({ EXTRACTION_RECYCLE_MB: '200' })
    try {
      const [before] = ctx.sandbox.children()
      expect(before!.rss).toBeLessThan(200 * MB)
      const id = await upload('scan.png', await corpusFile(SCAN))
      const done = await settled(id, 60_000)
      expect(done.errors).not.toContain('processing_failed')
      expect(done.errors).not.toContain('file_too_large_to_process')
      // OCR grew the process past the threshold (tesseract's WASM heap, the decoded page)…
      const recycled = ctx.logs.find((l) => l.msg === 'extraction process recycled')
      expect(recycled?.pid).toBe(before!.pid)
      expect(recycled?.rssMb).toBeGreaterThan(200)
      // …and a fresh process holds the baseline again.
      const after = await waitFor(
        async () => ctx.sandbox.children().find((c) => c.pid !== before!.pid),
        30_000,
      )
      expect(after.rss).toBeLessThan(before!.rss + 50 * MB)
    } finally {
      await ctx.workers.stop()
    }
  })

  it('kills a page that outruns its time budget; the document ends FAILED as too large to process', async () => {
    const ctx = await startSandboxWorkers({ EXTRACTION_PAGE_TIMEOUT_SECONDS: '1' }, { retryLimit: 0 })
    try {
      const id = await upload('scan.png', await corpusFile(SCAN))
      const done = await settled(id, 30_000)
      expect(done).toMatchObject({ status: 'FAILED', errors: ['file_too_large_to_process'] })
      expect(done.failureReason).toMatch(/A page took longer than 1 s/)
      expect(
        ctx.logs.some((l) => l.kind === 'timeout' && /extraction process killed/.test(String(l.msg))),
      ).toBe(true)
      await goodInvoiceCompletes()
    } finally {
      await ctx.workers.stop()
    }
  })

  it('kills a process that outgrows its memory ceiling mid-document', async () => {
    const ctx = await startSandboxWorkers({ EXTRACTION_MEMORY_MB: '200' }, { retryLimit: 0 })
    try {
      const id = await upload('scan.png', await corpusFile(SCAN))
      const done = await settled(id, 30_000)
      expect(done).toMatchObject({ status: 'FAILED', errors: ['file_too_large_to_process'] })
      expect(done.failureReason).toMatch(/more than 200 MB of memory/)
      await goodInvoiceCompletes()
    } finally {
      await ctx.workers.stop()
    }
  })
})

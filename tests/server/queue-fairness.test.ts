/**
 * How the job queue serves documents: companies in turn (one company's batch does not hold
 * another company's single upload), and workers that do not wait for their polling interval
 * when there is work (woken by the enqueue's notification, fetching again after a job).
 * Orders and outcomes only: the figures are printed by `npm run bench:load`.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { documents } from '../../server/db/schema.ts'
import { createDocumentProcessor } from '../../server/jobs/process-document.ts'
import { createJobQueue, type QueueOptions } from '../../server/jobs/queue.ts'
import { createLogger } from '../../server/logger.ts'
import { createOcrPool } from '../../server/services/extraction/index.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import {
  corpusFile,
  createPipelineApp,
  FAST_QUEUE,
  insertCompany,
  memberOf,
  multipart,
  waitFor,
} from './documents-support.ts'

let database: TestDatabase
let root: string
let ctx: Awaited<ReturnType<typeof createPipelineApp>>
let pdf: Uint8Array
const running: { stop: () => Promise<void> }[] = []

beforeAll(async () => {
  database = await createTestDatabase()
  root = await mkdtemp(join(tmpdir(), 'docflow-fairness-'))
  ctx = await createPipelineApp(database.db, root)
  pdf = await corpusFile('0016-facture.pdf')
})
afterEach(async () => {
  for (const w of running.splice(0)) await w.stop()
})
afterAll(async () => {
  await ctx?.close()
  await database?.close()
  if (root) await rm(root, { recursive: true, force: true })
})

async function companyMember() {
  const companyId = (await insertCompany(database.db)).id
  const member = await memberOf(database.db, ctx.app, companyId)
  return {
    companyId,
    async upload(): Promise<number> {
      const res = await member.jar.request(
        ctx.app,
        '/api/documents/upload',
        multipart({ documentType: 'invoice', company_id: String(companyId) }, { name: 'f.pdf', data: pdf }),
      )
      expect(res.status).toBe(201)
      return (await res.json()).id
    },
  }
}

const finalRow = (id: number) =>
  waitFor(async () => {
    const [row] = await database.db.select().from(documents).where(eq(documents.id, id))
    return row && row.status !== 'PROCESSING' ? row : null
  }, 60_000)

/** One worker on a queue of its own (as a worker process), recording the order it takes jobs in. */
async function startRecordingWorker(queueOptions: Partial<QueueOptions> = {}) {
  const order: number[] = []
  const queue = createJobQueue(database.db, createLogger(ctx.config), { ...FAST_QUEUE, ...queueOptions })
  const ocr = createOcrPool(1)
  const processor = createDocumentProcessor({
    db: database.db,
    storage: ctx.storage,
    ocr,
    logger: createLogger(ctx.config),
    clock: () => new Date(),
  })
  await queue.work(
    1,
    async (job, jobContext) => {
      order.push(job.documentId)
      await processor.process(job, jobContext)
    },
    processor.dead,
  )
  running.push({
    stop: async () => {
      await queue.stop({ graceful: false })
      await ocr.close()
    },
  })
  return order
}

describe('job queue', () => {
  it("serves another company's single upload before the rest of a company's batch", async () => {
    const a = await companyMember()
    const b = await companyMember()
    // Company A's batch is queued first, then company B uploads one invoice.
    const batch: number[] = []
    for (let i = 0; i < 6; i++) batch.push(await a.upload())
    const single = await b.upload()

    // One worker, started once everything waits: the order it takes jobs in is the queue's.
    const order = await startRecordingWorker()
    const rows = await Promise.all([...batch, single].map(finalRow))
    expect(rows.map((r) => r.status)).not.toContain('PROCESSING')
    // Each company's first waiting document first (A's came earlier), then A's others: B's single
    // upload does not wait for A's batch.
    expect(order).toEqual([batch[0], single, ...batch.slice(1)])
  })

  it('interleaves two companies that both queued a batch', async () => {
    const a = await companyMember()
    const b = await companyMember()
    const batchA: number[] = []
    const batchB: number[] = []
    for (let i = 0; i < 3; i++) batchA.push(await a.upload())
    for (let i = 0; i < 3; i++) batchB.push(await b.upload())

    const order = await startRecordingWorker()
    await Promise.all([...batchA, ...batchB].map(finalRow))
    expect(order).toEqual([batchA[0], batchB[0], batchA[1], batchB[1], batchA[2], batchB[2]])
  })

  it('starts an upload at once on an idle queue: the enqueue wakes the sleeping worker', async () => {
    const a = await companyMember()
    // A polling interval of an hour: once the worker has found the queue empty, only the
    // notification sent at the upload's commit can get the next job to it.
    const first = await a.upload()
    const order = await startRecordingWorker({ pollingIntervalSeconds: 3600 })
    await finalRow(first)
    const second = await a.upload()
    expect((await finalRow(second)).status).not.toBe('PROCESSING')
    expect(order).toEqual([first, second])
  })

  it('takes the next job right after one ends, without waiting for the polling interval', async () => {
    const a = await companyMember()
    const ids: number[] = []
    for (let i = 0; i < 3; i++) ids.push(await a.upload())
    // Started after the uploads (their notifications went to nobody), polling every hour: only a
    // worker that fetches again after finding work gets past the first job.
    const order = await startRecordingWorker({ pollingIntervalSeconds: 3600 })
    const rows = await Promise.all(ids.map(finalRow))
    expect(rows.map((r) => r.status)).not.toContain('PROCESSING')
    expect(order).toEqual(ids)
  })
})

// PostgreSQL only (TEST_DATABASE_URL): PGlite delivers notifications in-process, without a connection.
if (process.env.TEST_DATABASE_URL) {
  describe('job notifications on PostgreSQL', () => {
    it('survives the server dropping the listening connection', async () => {
      const pool = (database.db as unknown as { $client: import('pg').Pool }).$client
      const queue = createJobQueue(database.db, createLogger(ctx.config), FAST_QUEUE)
      running.push({ stop: () => queue.stop({ graceful: false }) })
      await queue.work(
        1,
        async () => {},
        async () => {},
      )
      const listening = () =>
        pool.query(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen %'",
        )
      expect((await listening()).rows[0].n).toBe(1)
      const before = pool.totalCount
      // The server ends the connection (as a restart or `drop database … with (force)` does): the
      // client reports more than one error for it, and it must go back to the pool only once
      // (pg-pool throws on a second release, outside any caller: an unhandled error fails this file).
      await pool.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen %'",
      )
      await vi.waitFor(() => expect(pool.totalCount).toBeLessThan(before), { timeout: 10_000 })
      expect((await pool.query('select 1 as one')).rows[0].one).toBe(1)
    })
  })
}

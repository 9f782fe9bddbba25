/**
 * The safety nets of processing: the periodic check that fails documents stuck in PROCESSING
 * past their deadline, and the dead-letter handler of jobs that never finished.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documents, logs } from '../../server/db/schema.ts'
import { createJobQueue, DEAD_QUEUE, PROCESS_QUEUE } from '../../server/jobs/queue.ts'
import { startWorkers } from '../../server/jobs/runner.ts'
import { createLogger } from '../../server/logger.ts'
import type { extractDocument } from '../../server/services/extraction/index.ts'
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
import { createLogCapture } from './helpers.ts'

let database: TestDatabase
let root: string
let ctx: Awaited<ReturnType<typeof createPipelineApp>>
let member: Awaited<ReturnType<typeof memberOf>>
let companyId: number

beforeAll(async () => {
  database = await createTestDatabase()
  root = await mkdtemp(join(tmpdir(), 'docflow-stuck-'))
  ctx = await createPipelineApp(database.db, root)
  companyId = (await insertCompany(database.db)).id
  member = await memberOf(database.db, ctx.app, companyId)
})
afterAll(async () => {
  await ctx?.close()
  await database?.close()
  await rm(root, { recursive: true, force: true })
})

async function upload(): Promise<number> {
  const res = await member.jar.request(
    ctx.app,
    '/api/documents/upload',
    multipart(
      { documentType: 'invoice', company_id: String(companyId) },
      { name: 'f.pdf', data: await corpusFile('0016-facture.pdf') },
    ),
  )
  expect(res.status).toBe(201)
  return (await res.json()).id
}

const row = async (id: number) => (await database.db.select().from(documents).where(eq(documents.id, id)))[0]!
const logOf = async (id: number) => (await database.db.select().from(logs).where(eq(logs.documentId, id)))[0]!
const settled = (id: number, timeoutMs = 30_000) =>
  waitFor(async () => ((await row(id)).status === 'PROCESSING' ? null : row(id)), timeoutMs)
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('documents stuck in PROCESSING', () => {
  it('fails a document whose job was lost once it is past its deadline, with a reason', async () => {
    const id = await upload()
    // The job is lost (e.g. deleted by hand, or a queue restored from an older backup): nothing
    // will ever process the document.
    await database.db.execute(sql`delete from pgboss.job where name = ${PROCESS_QUEUE}`)
    expect((await row(id)).status).toBe('PROCESSING')

    let offsetMs = 0
    const clock = () => new Date(Date.now() + offsetMs)
    const capture = createLogCapture()
    const logger = createLogger(ctx.config, capture.stream)
    const queue = createJobQueue(database.db, logger, FAST_QUEUE)
    const workers = await startWorkers({
      db: database.db,
      driver: database.driver,
      config: ctx.config,
      logger,
      storage: ctx.storage,
      queue,
      concurrency: 1,
      clock,
      sweepIntervalMs: 100,
    })
    try {
      // Before its deadline (default: longer than every attempt could take) it is left alone.
      await pause(800)
      expect((await row(id)).status).toBe('PROCESSING')

      offsetMs = 2 * 60 * 60 * 1000
      const done = await settled(id, 10_000)
      expect(done).toMatchObject({
        status: 'FAILED',
        errors: ['processing_failed'],
        failureReason: 'Processing timed out',
      })
      expect(done.processedAt?.getTime()).toBeGreaterThan(Date.now() + offsetMs / 2)
      expect((await logOf(id)).status).toBe('failed')
      expect(capture.lines.some((l) => l.msg === 'documents stuck in PROCESSING failed')).toBe(true)
    } finally {
      await workers.stop()
    }
  })

  it('sends a job that never finishes to the dead-letter queue, whose handler fails the document', async () => {
    let started = 0
    // Extraction that never returns: the queue's handler timeout (expireInSeconds) ends each
    // attempt without the handler recording anything.
    const hanging: typeof extractDocument = () => {
      started++
      return new Promise(() => {})
    }
    const workers = await ctx.startWorkers(hanging, { retryLimit: 0, expireInSeconds: 1 })
    try {
      const id = await upload()
      const done = await settled(id, 30_000)
      expect(started).toBe(1)
      expect(done).toMatchObject({
        status: 'FAILED',
        errors: ['processing_failed'],
        failureReason: 'Processing did not finish after its retries',
      })
      expect((await logOf(id)).status).toBe('failed')
      const status = await (
        await member.jar.request(ctx.app, `/api/api/document/invoice/${id}/status?company_id=${companyId}`)
      ).json()
      expect(status).toMatchObject({ status: 'FAILED', errors: ['processing_failed'] })
      // The dead letter carried the document id and was consumed.
      const { rows } = (await database.db.execute(
        sql`select data, state from pgboss.job where name = ${DEAD_QUEUE}`,
      )) as unknown as { rows: { data: { documentId: number }; state: string }[] }
      expect(rows.some((r) => r.data.documentId === id && r.state === 'completed')).toBe(true)
    } finally {
      await workers.stop()
    }
  })

  it('leaves a document alone when the dead letter arrives after it finished (idempotent)', async () => {
    const workers = await ctx.startWorkers(undefined, { retryLimit: 1 })
    try {
      const id = await upload()
      const done = await settled(id, 60_000)
      expect(done.status).toBe('COMPLETED')
      await workers.processor.dead({ documentId: id })
      expect(await row(id)).toMatchObject({ status: 'COMPLETED', failureReason: null })
      expect((await logOf(id)).status).toBe('completed')
    } finally {
      await workers.stop()
    }
  })
})

/**
 * The safety nets of processing: the periodic check that fails documents stuck in PROCESSING
 * past their deadline, and the dead-letter handler of jobs that never finished.
 */
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { logs } from '../../server/db/schema.ts'
import { createJobQueue, DEAD_QUEUE, PROCESS_QUEUE } from '../../server/jobs/queue.ts'
import { startWorkers } from '../../server/jobs/runner.ts'
import { createLogger } from '../../server/logger.ts'
import { dashboardRows } from '../../server/services/documents/lifecycle/document-service.ts'
import type { extractDocument } from '../../server/services/extraction/index.ts'
import { FAST_QUEUE, waitFor } from './documents-support.ts'
import { createLogCapture } from './helpers.ts'
import { pipelineFixture } from './pipeline-fixture.ts'

const f = pipelineFixture('docflow-stuck-')
const { upload, row } = f
const logOf = async (id: number) => (await dashboardRows(f.database.db).where(eq(logs.documentId, id)))[0]!
const settled = (id: number, timeoutMs = 30_000) =>
  waitFor(async () => ((await row(id)).status === 'PROCESSING' ? null : row(id)), timeoutMs)

describe('documents stuck in PROCESSING', () => {
  it('fails a document whose job was lost once it is past its deadline, with a reason', async () => {
    const id = await upload()
    // The job is lost (e.g. deleted by hand, or a queue restored from an older backup): nothing
    // will ever process the document.
    await f.database.db.execute(sql`delete from pgboss.job where name = ${PROCESS_QUEUE}`)
    expect((await row(id)).status).toBe('PROCESSING')

    let offsetMs = 0
    let readings = 0
    const clock = () => {
      readings++
      return new Date(Date.now() + offsetMs)
    }
    const capture = createLogCapture()
    const logger = createLogger(f.ctx.config, capture.stream)
    const queue = createJobQueue(f.database.db, logger, FAST_QUEUE)
    const workers = await startWorkers({
      db: f.database.db,
      driver: f.database.driver,
      config: f.ctx.config,
      logger,
      storage: f.ctx.storage,
      queue,
      concurrency: 1,
      clock,
      sweepIntervalMs: 100,
    })
    try {
      // Before its deadline (default: longer than every attempt could take) it is left alone.
      // The sweeper reads the clock on each pass: after several passes it is still processing.
      await waitFor(async () => (readings >= 5 ? true : null), 10_000)
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
    const workers = await f.ctx.startWorkers(hanging, { retryLimit: 0, expireInSeconds: 1 })
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
        await f.member.jar.request(
          f.ctx.app,
          `/api/api/document/invoice/${id}/status?company_id=${f.companyId}`,
        )
      ).json()
      expect(status).toMatchObject({ status: 'FAILED', errors: ['processing_failed'] })
      // The dead letter carried the document id and was consumed.
      const { rows } = (await f.database.db.execute(
        sql`select data, state from pgboss.job where name = ${DEAD_QUEUE}`,
      )) as unknown as { rows: { data: { documentId: number }; state: string }[] }
      expect(rows.some((r) => r.data.documentId === id && r.state === 'completed')).toBe(true)
    } finally {
      await workers.stop()
    }
  })

  it('leaves a document alone when the dead letter arrives after it finished (idempotent)', async () => {
    const workers = await f.ctx.startWorkers(undefined, { retryLimit: 1 })
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

import { eq, sql } from 'drizzle-orm'
import PgBoss from 'pg-boss'
import { describe, expect, it } from 'vitest'
import { logs } from '../../server/db/schema.ts'
import { executorAdapter, PROCESS_QUEUE } from '../../server/jobs/queue.ts'
import { dashboardRows } from '../../server/services/documents/lifecycle/document-service.ts'
import { extractDocument } from '../../server/services/extraction/index.ts'
import { waitFor } from './documents-support.ts'
import { pipelineFixture } from './pipeline-fixture.ts'

const f = pipelineFixture('docflow-queue-')
const { upload, row } = f

/** The document once it is no longer PROCESSING. */
const finished = (id: number) =>
  waitFor(async () => ((await row(id)).status === 'PROCESSING' ? null : row(id)), 30_000)
/** The document's status as the API answers it. */
const statusOf = async (id: number) =>
  (
    await f.member.jar.request(f.ctx.app, `/api/api/document/invoice/${id}/status?company_id=${f.companyId}`)
  ).json()

const FINAL_STATES = ['completed', 'failed', 'cancelled']
/** The state of every processing job. */
async function jobStates(): Promise<string[]> {
  const { rows } = (await f.database.db.execute(
    sql`select state from pgboss.job where name = ${PROCESS_QUEUE}`,
  )) as unknown as { rows: { state: string }[] }
  return rows.map((r) => r.state)
}

describe('job queue', () => {
  it('finishes a job exactly once after its worker died in the middle of it', async () => {
    const id = await upload()
    // A worker takes the job (state active) and dies: no completion, no failure, nothing.
    const dying = new PgBoss({
      db: executorAdapter(f.database.db),
      supervise: false,
      schedule: false,
      migrate: false,
    })
    await dying.start()
    const [taken] = await dying.fetch(PROCESS_QUEUE)
    expect(taken?.data).toEqual({ documentId: id })
    expect((await row(id)).status).toBe('PROCESSING')

    // The restarted process: orphans are requeued at once on PGlite (only one process can have
    // run them), found by expiry on PostgreSQL.
    let runs = 0
    const counting: typeof extractDocument = (...args) => {
      runs++
      return extractDocument(...args)
    }
    const restarted = await f.ctx.startWorkers(counting)
    if (f.database.driver === 'pglite') expect(await restarted.queue.requeueOrphans()).toBe(1)
    const done = await finished(id)
    expect(done).toMatchObject({ status: 'COMPLETED', invoiceNumber: expect.any(String) })
    // A second (wrong) run would need a job of this queue still able to run: wait until every
    // one of them has reached a final state, then check there was only one run.
    const final = await waitFor(async () => {
      const all = await jobStates()
      return all.length > 0 && all.every((s) => FINAL_STATES.includes(s)) ? all : null
    }, 30_000)
    expect(final).toContain('completed')
    expect(runs).toBe(1)
    const [log] = await dashboardRows(f.database.db).where(eq(logs.documentId, id))
    expect(log?.status).toBe('completed')
    await restarted.stop()
  })

  it('ends a poison file FAILED with a reason after its retries', async () => {
    let attempts = 0
    const poison: typeof extractDocument = async () => {
      attempts++
      throw new Error('decoder crashed')
    }
    const workers = await f.ctx.startWorkers(poison, { retryLimit: 1, retryDelaySeconds: 1 })
    const id = await upload()
    const done = await finished(id)
    expect(done).toMatchObject({
      status: 'FAILED',
      errors: ['processing_failed'],
      failureReason: 'decoder crashed',
    })
    expect(attempts).toBe(2)
    const status = await statusOf(id)
    expect(status).toMatchObject({ status: 'FAILED', errors: ['processing_failed'] })
    const [log] = await dashboardRows(f.database.db).where(eq(logs.documentId, id))
    expect(log?.status).toBe('failed')
    await workers.stop()
  })

  it('ends a document whose value the database refuses FAILED at the first attempt, with the database’s reason', async () => {
    let attempts = 0
    // A reading the database cannot store (there is no 30 February): every attempt would meet it.
    const impossibleDate: typeof extractDocument = async (...args) => {
      attempts++
      const result = await extractDocument(...args)
      return { ...result, fields: { ...result.fields, document_date: '2024-02-30' } }
    }
    const workers = await f.ctx.startWorkers(impossibleDate, { retryLimit: 2, retryDelaySeconds: 1 })
    const id = await upload()
    const done = await finished(id)
    expect(done).toMatchObject({
      status: 'FAILED',
      errors: ['invalid_data'],
      documentDate: null,
      failureReason: expect.stringMatching(
        /^The database refused a value read from the file \(22008: .*out of range/,
      ),
    })
    // Nothing of the query (its parameters are the document's values) is kept as the reason.
    expect(done.failureReason).not.toMatch(/Failed query|params/)
    await waitFor(async () => (await jobStates()).every((s) => FINAL_STATES.includes(s)), 30_000)
    expect(attempts).toBe(1)
    const status = await statusOf(id)
    expect(status).toMatchObject({
      status: 'FAILED',
      errors: ['invalid_data'],
      messages: ['A value read from the file cannot be stored'],
    })
    await workers.stop()
  })
})

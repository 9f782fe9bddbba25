import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import PgBoss from 'pg-boss'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documents, logs } from '../../server/db/schema.ts'
import { executorAdapter, PROCESS_QUEUE } from '../../server/jobs/queue.ts'
import { extractDocument } from '../../server/services/extraction/index.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import {
  corpusFile,
  createPipelineApp,
  insertCompany,
  memberOf,
  multipart,
  waitFor,
} from './documents-support.ts'

let database: TestDatabase
let root: string
let ctx: Awaited<ReturnType<typeof createPipelineApp>>
let member: Awaited<ReturnType<typeof memberOf>>
let companyId: number

beforeAll(async () => {
  database = await createTestDatabase()
  root = await mkdtemp(join(tmpdir(), 'docflow-queue-'))
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

describe('job queue', () => {
  it('finishes a job exactly once after its worker died in the middle of it', async () => {
    const id = await upload()
    // A worker takes the job (state active) and dies: no completion, no failure, nothing.
    const dying = new PgBoss({
      db: executorAdapter(database.db),
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
    const restarted = await ctx.startWorkers(counting)
    if (database.driver === 'pglite') expect(await restarted.queue.requeueOrphans()).toBe(1)
    const done = await waitFor(async () => ((await row(id)).status === 'PROCESSING' ? null : row(id)), 30_000)
    expect(done).toMatchObject({ status: 'COMPLETED', invoiceNumber: expect.any(String) })
    // Give a second (wrong) run the time to happen, then check there was none.
    await new Promise((r) => setTimeout(r, 2500))
    expect(runs).toBe(1)
    const [log] = await database.db.select().from(logs).where(eq(logs.documentId, id))
    expect(log?.status).toBe('completed')
    await restarted.stop()
  })

  it('ends a poison file FAILED with a reason after its retries', async () => {
    let attempts = 0
    const poison: typeof extractDocument = async () => {
      attempts++
      throw new Error('decoder crashed')
    }
    const workers = await ctx.startWorkers(poison, { retryLimit: 1, retryDelaySeconds: 1 })
    const id = await upload()
    const done = await waitFor(async () => ((await row(id)).status === 'PROCESSING' ? null : row(id)), 30_000)
    expect(done).toMatchObject({
      status: 'FAILED',
      errors: ['processing_failed'],
      failureReason: 'decoder crashed',
    })
    expect(attempts).toBe(2)
    const status = await (
      await member.jar.request(ctx.app, `/api/api/document/invoice/${id}/status?company_id=${companyId}`)
    ).json()
    expect(status).toMatchObject({ status: 'FAILED', errors: ['processing_failed'] })
    const [log] = await database.db.select().from(logs).where(eq(logs.documentId, id))
    expect(log?.status).toBe('failed')
    await workers.stop()
  })
})

/**
 * PostgreSQL only (TEST_DATABASE_URL): `server/worker.ts` as a separate process processes the
 * uploads of a web process that runs no workers. Without TEST_DATABASE_URL this file registers
 * no test; scripts/test.sh runs it in the PostgreSQL run only. A worker killed (kill -9) in the
 * middle of a job has that job finished by another worker within a minute.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DatabaseHandle, migrateDatabase, openPostgres } from '../../server/db/client.ts'
import { documents, logs } from '../../server/db/schema.ts'
import { DEFAULT_QUEUE_OPTIONS, PROCESS_QUEUE } from '../../server/jobs/queue.ts'
import { dashboardRows } from '../../server/services/documents/lifecycle/document-service.ts'
import { createScratchDatabase } from '../support/db.ts'
import { repoRoot } from '../support/server-process.ts'
import {
  corpusFile,
  createPipelineApp,
  insertCompany,
  memberOf,
  multipart,
  waitFor,
} from './documents-support.ts'

const serverUrl = process.env.TEST_DATABASE_URL

if (serverUrl) {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>
  let handle: DatabaseHandle
  let root: string
  let ctx: Awaited<ReturnType<typeof createPipelineApp>>
  let worker: ChildProcess | null = null
  const children: ChildProcess[] = []
  let output = ''

  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl)
    handle = await openPostgres(scratch.url)
    await migrateDatabase(handle)
    root = await mkdtemp(join(tmpdir(), 'docflow-worker-'))
    // The web process: its own queue to enqueue jobs, no workers, the default settings (the
    // leases of the jobs it creates are the ones the worker processes keep alive).
    ctx = await createPipelineApp(handle.db, root, { env: { WORKERS: '0' }, queue: DEFAULT_QUEUE_OPTIONS })
  })
  /** `npm run worker` (default settings) against the scratch database; resolves once it runs. */
  async function startWorker(): Promise<ChildProcess> {
    output = ''
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/worker.ts'], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATABASE_URL: scratch.url,
        DATA_DIR: ctx.config.dataDir,
        LOG_LEVEL: 'info',
        WORKERS: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.push(child)
    child.stdout?.on('data', (d) => {
      output += d
    })
    child.stderr?.on('data', (d) => {
      output += d
    })
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`worker exited early:\n${output}`)
      return output.includes('document workers started')
    }, 60_000)
    return child
  }

  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await ctx?.close()
    await handle?.close()
    await scratch?.drop()
    await rm(root, { recursive: true, force: true })
  })

  const row = async (id: number) => (await handle.db.select().from(documents).where(eq(documents.id, id)))[0]!

  describe('worker process on PostgreSQL', () => {
    it('processes uploads made through the API of a web process without workers', async () => {
      const companyId = (await insertCompany(handle.db)).id
      const member = await memberOf(handle.db, ctx.app, companyId)
      const upload = async (name: string, documentType: string) => {
        const res = await member.jar.request(
          ctx.app,
          documentType === 'expense' ? '/api/expenses/upload' : '/api/documents/upload',
          multipart({ documentType, company_id: String(companyId) }, { name, data: await corpusFile(name) }),
        )
        expect(res.status).toBe(201)
        return (await res.json()).id as number
      }

      // Uploaded before any worker exists: the jobs wait in PostgreSQL.
      const pdf = await upload('0016-facture.pdf', 'invoice')
      expect((await row(pdf)).status).toBe('PROCESSING')
      const { rows: waiting } = (await handle.db.execute(
        sql`select state from pgboss.job where name = ${PROCESS_QUEUE} and data->>'documentId' = ${String(pdf)}`,
      )) as unknown as { rows: { state: string }[] }
      expect(waiting.map((r) => r.state)).toEqual(['created'])

      worker = await startWorker()
      const exited = new Promise<number | null>((resolve) => worker!.once('exit', (code) => resolve(code)))

      // One more upload while the worker runs: an image, read through OCR in the worker.
      const image = await upload('0032-scan.png', 'invoice')
      const settled = async (id: number) => ((await row(id)).status === 'PROCESSING' ? null : row(id))
      const first = await waitFor(() => settled(pdf), 60_000)
      const second = await waitFor(() => settled(image), 90_000)
      expect(first).toMatchObject({ status: 'COMPLETED', invoiceNumber: expect.any(String) })
      expect(second).toMatchObject({ status: 'COMPLETED', totalInvoiceIncludingVat: expect.any(Number) })
      for (const id of [pdf, image]) {
        const [log] = await dashboardRows(handle.db).where(eq(logs.documentId, id))
        expect(log?.status).toBe('completed')
      }
      // The processing happened in the worker process, not in this one.
      expect(output).toContain('document processed')
      const status = await (
        await member.jar.request(ctx.app, `/api/api/document/invoice/${pdf}/status?company_id=${companyId}`)
      ).json()
      expect(status).toMatchObject({ status: 'COMPLETED' })

      // A clean stop on SIGTERM.
      worker.kill('SIGTERM')
      expect(await exited).toBe(0)
    }, 180_000)

    it('finishes, in another worker within a minute, a document whose worker was killed (kill -9) while processing it', async () => {
      const companyId = (await insertCompany(handle.db)).id
      const member = await memberOf(handle.db, ctx.app, companyId)
      const res = await member.jar.request(
        ctx.app,
        '/api/documents/upload',
        multipart(
          { documentType: 'invoice', company_id: String(companyId) },
          { name: 'f.pdf', data: await corpusFile('0016-facture.pdf') },
        ),
      )
      expect(res.status).toBe(201)
      const id = (await res.json()).id as number

      // Holds the documents table so that the first worker, once it has taken the job, waits to
      // read its document: it is caught in the middle of its job, deterministically.
      const blocker = new pg.Client({ connectionString: scratch.url })
      await blocker.connect()
      let second: ChildProcess | undefined
      try {
        await blocker.query('begin')
        await blocker.query('lock table documents in access exclusive mode')
        const first = await startWorker()
        const jobState = async () =>
          (
            await blocker.query(`select state from pgboss.job where name = $1 and data->>'documentId' = $2`, [
              PROCESS_QUEUE,
              String(id),
            ])
          ).rows[0]?.state as string | undefined
        await waitFor(async () => {
          if ((await jobState()) !== 'active') return false
          // The worker's connection waits on the lock: it is reading the job's document.
          const { rows } = await blocker.query(
            `select count(*)::int as n from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock' and query ilike '%"documents"%'`,
          )
          return rows[0].n > 0
        }, 60_000)
        // Another worker, running all along: the minute is the recovery's, not the start-up of a
        // process (which, with the extraction sandbox warmed, takes seconds on a loaded machine).
        second = await startWorker()
        const killed = new Promise((resolve) => first.once('exit', resolve))
        first.kill('SIGKILL')
        await killed
      } finally {
        await blocker.query('rollback').catch(() => {})
        await blocker.end()
      }
      const killedAt = Date.now()
      expect((await row(id)).status).toBe('PROCESSING')

      // It takes the job over once the dead process's heartbeat is stale.
      const exited = new Promise<number | null>((resolve) => second!.once('exit', (code) => resolve(code)))
      const done = await waitFor(
        async () => ((await row(id)).status === 'PROCESSING' ? null : row(id)),
        60_000 - (Date.now() - killedAt),
      )
      expect(done).toMatchObject({ status: 'COMPLETED', invoiceNumber: expect.any(String) })
      expect(output).toContain('document processed')
      const [log] = await dashboardRows(handle.db).where(eq(logs.documentId, id))
      expect(log?.status).toBe('completed')
      second!.kill('SIGTERM')
      expect(await exited).toBe(0)
    }, 240_000)
  })
}

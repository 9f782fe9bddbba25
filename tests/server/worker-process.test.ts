/**
 * PostgreSQL only (TEST_DATABASE_URL): `server/worker.ts` as a separate process processes the
 * uploads of a web process that runs no workers. Without TEST_DATABASE_URL this file registers
 * no test; scripts/test.sh runs it in the PostgreSQL run only.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DatabaseHandle, migrateDatabase, openPostgres } from '../../server/db/client.ts'
import { documents, logs } from '../../server/db/schema.ts'
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
  let output = ''

  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl)
    handle = await openPostgres(scratch.url)
    await migrateDatabase(handle)
    root = await mkdtemp(join(tmpdir(), 'docflow-worker-'))
    // The web process: its own queue to enqueue jobs, no workers.
    ctx = await createPipelineApp(handle.db, root, { env: { WORKERS: '0' } })
  })
  afterAll(async () => {
    if (worker && worker.exitCode === null) worker.kill('SIGKILL')
    await ctx?.close()
    await handle?.close()
    await scratch?.drop()
    await rm(root, { recursive: true, force: true })
  })

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
      const row = async (id: number) =>
        (await handle.db.select().from(documents).where(eq(documents.id, id)))[0]!

      // Uploaded before any worker exists: the jobs wait in PostgreSQL.
      const pdf = await upload('0016-facture.pdf', 'invoice')
      await new Promise((r) => setTimeout(r, 1500))
      expect((await row(pdf)).status).toBe('PROCESSING')

      worker = spawn(process.execPath, ['--import', 'tsx', 'server/worker.ts'], {
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
      worker.stdout?.on('data', (d) => {
        output += d
      })
      worker.stderr?.on('data', (d) => {
        output += d
      })
      const exited = new Promise<number | null>((resolve) => worker!.once('exit', (code) => resolve(code)))
      await waitFor(async () => {
        if (worker!.exitCode !== null) throw new Error(`worker exited early:\n${output}`)
        return output.includes('document workers started')
      }, 60_000)

      // One more upload while the worker runs: an image, read through OCR in the worker.
      const image = await upload('0032-scan.png', 'invoice')
      const settled = async (id: number) => ((await row(id)).status === 'PROCESSING' ? null : row(id))
      const first = await waitFor(() => settled(pdf), 60_000)
      const second = await waitFor(() => settled(image), 90_000)
      expect(first).toMatchObject({ status: 'COMPLETED', invoiceNumber: expect.any(String) })
      expect(second).toMatchObject({ status: 'COMPLETED', totalInvoiceIncludingVat: expect.any(Number) })
      for (const id of [pdf, image]) {
        const [log] = await handle.db.select().from(logs).where(eq(logs.documentId, id))
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
  })
}

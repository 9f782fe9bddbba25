/**
 * Uploads that do not finish leave nothing: a connection dropped mid-body, a refusal on the first
 * bytes (415) or over the size limit (413) close the storage's file handle and remove the partial
 * file at once, for invoices, expenses, documents and company logos. At start-up the server
 * removes partial files older than an hour (those of a crash) and keeps recent ones.
 *
 * The uploads go over a raw socket to a real listening server in this process, so that the
 * process's open file descriptors (`/proc/self/fd`) can be counted.
 */
import { mkdir, mkdtemp, readdir, readlink, rm, utimes, writeFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAdaptorServer } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { startServer } from '../support/server-process.ts'
import { createPipelineApp, insertCompany, memberOf } from './documents-support.ts'

let database: TestDatabase
let root: string
let ctx: Awaited<ReturnType<typeof createPipelineApp>>
let server: Server
let port: number
let member: Awaited<ReturnType<typeof memberOf>>
let admin: Awaited<ReturnType<typeof memberOf>>
let companyId: number
let storageDir: string

beforeAll(async () => {
  database = await createTestDatabase()
  root = await mkdtemp(join(tmpdir(), 'docflow-upload-cleanup-'))
  ctx = await createPipelineApp(database.db, root, { env: { MAX_UPLOAD_MB: '1' } })
  storageDir = join(ctx.config.dataDir, 'files')
  companyId = (await insertCompany(database.db)).id
  member = await memberOf(database.db, ctx.app, companyId)
  admin = await memberOf(database.db, ctx.app, null, 'SAAS_ADMIN')
  server = createAdaptorServer({ fetch: ctx.app.fetch }) as Server
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
})
afterAll(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  await ctx?.close()
  await database?.close()
  await rm(root, { recursive: true, force: true })
})

/** Descriptors of this process open on a file of the storage. */
async function openStorageHandles(): Promise<string[]> {
  const targets = await Promise.all(
    (await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
  )
  return targets.filter((target) => target.startsWith(storageDir))
}

const partialFiles = async () => (await ctx.storedFiles()).filter((f) => f.endsWith('.part'))
const storedFiles = async () => (await ctx.storedFiles()).filter((f) => !f.endsWith('.part'))

const PDF_START = Buffer.from('%PDF-1.7\n')

interface RawUpload {
  socket: Socket
  /** Everything the server answered so far. */
  answer: () => string
}

/**
 * Opens a socket and sends the request head, the fields and the start of the file part, then
 * `first` bytes of `fileStart` + filler; the announced length is that of `total` file bytes.
 */
async function startUpload(
  path: string,
  fields: Record<string, string>,
  fileStart: Buffer,
  first: number,
  total: number,
  cookie: string,
): Promise<RawUpload> {
  const boundary = `----cleanup${Date.now()}`
  let head = ''
  for (const [name, value] of Object.entries(fields))
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.pdf"\r\nContent-Type: application/octet-stream\r\n\r\n`
  const tail = `\r\n--${boundary}--\r\n`
  const length = Buffer.byteLength(head) + total + Buffer.byteLength(tail)
  const socket = connect(port, '127.0.0.1')
  let received = ''
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1')
  })
  socket.on('error', () => {})
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  const filler = Buffer.alloc(first, 0x41)
  fileStart.copy(filler)
  socket.write(
    `POST /api${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n`,
  )
  socket.write(head)
  socket.write(filler)
  return { socket, answer: () => received }
}

/** Nothing of the upload left: no descriptor on the storage, no partial file, no stored file. */
async function expectNothingLeft(storedBefore: string[]) {
  await vi.waitFor(
    async () => {
      expect(await openStorageHandles()).toEqual([])
      expect(await partialFiles()).toEqual([])
    },
    { timeout: 5000, interval: 50 },
  )
  expect(await storedFiles()).toEqual(storedBefore)
}

describe('aborted uploads', () => {
  const cases = [
    {
      what: 'an invoice',
      path: () => '/documents/upload',
      fields: () => ({ documentType: 'invoice', company_id: String(companyId) }),
      start: PDF_START,
      cookie: () => member.jar.header(),
    },
    {
      what: 'an expense',
      path: () => '/expenses/upload',
      fields: () => ({ document_type: 'expense', company_id: String(companyId) }),
      start: PDF_START,
      cookie: () => member.jar.header(),
    },
    {
      what: 'a document',
      path: () => '/documents/upload',
      fields: () => ({ documentType: 'document', category: 'Administration', company_id: String(companyId) }),
      start: Buffer.from('plain text'),
      cookie: () => member.jar.header(),
    },
    {
      what: 'a company logo',
      path: () => `/companies/company/logo/${companyId}`,
      fields: () => ({}),
      start: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      cookie: () => admin.jar.header(),
    },
  ]

  for (const c of cases) {
    it(`closes the file and removes the partial file of ${c.what} when the connection drops`, async () => {
      const before = await storedFiles()
      const upload = await startUpload(c.path(), c.fields(), c.start, 200_000, 900_000, c.cookie())
      // The upload is under way: its partial file exists and is open.
      await vi.waitFor(
        async () => {
          expect(await partialFiles()).toHaveLength(1)
          expect(await openStorageHandles()).toHaveLength(1)
        },
        { timeout: 5000, interval: 20 },
      )
      upload.socket.destroy()
      await expectNothingLeft(before)
    })
  }
})

describe('refused uploads', () => {
  it('answers 415 on the first bytes and leaves nothing while the client is still sending', async () => {
    const before = await storedFiles()
    const upload = await startUpload(
      '/expenses/upload',
      { document_type: 'expense', company_id: String(companyId) },
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      64_000,
      900_000,
      member.jar.header(),
    )
    await vi.waitFor(() => expect(upload.answer()).toMatch(/^HTTP\/1\.1 415 /), {
      timeout: 5000,
      interval: 20,
    })
    await expectNothingLeft(before)
    upload.socket.destroy()
  })

  it('answers 413 over the size limit and leaves nothing', async () => {
    const before = await storedFiles()
    const total = 1024 * 1024 + 200_000
    const upload = await startUpload(
      '/documents/upload',
      { documentType: 'invoice', company_id: String(companyId) },
      PDF_START,
      total,
      total,
      member.jar.header(),
    )
    await vi.waitFor(() => expect(upload.answer()).toMatch(/^HTTP\/1\.1 413 /), {
      timeout: 5000,
      interval: 20,
    })
    await expectNothingLeft(before)
    upload.socket.destroy()
  })
})

describe('start-up sweep', () => {
  it('removes partial files older than an hour and keeps recent ones', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'docflow-sweep-'))
    const tmp = join(dataDir, 'files', '.tmp')
    await mkdir(tmp, { recursive: true })
    const old = join(tmp, '00000000-0000-4000-8000-000000000001.part')
    const fresh = join(tmp, '00000000-0000-4000-8000-000000000002.part')
    await writeFile(old, 'cut by a crash')
    await writeFile(fresh, 'being written')
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000)
    await utimes(old, twoHoursAgo, twoHoursAgo)
    const running = await startServer({ DATA_DIR: dataDir })
    try {
      expect((await readdir(tmp)).sort()).toEqual(['00000000-0000-4000-8000-000000000002.part'])
    } finally {
      await running.stop()
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 90_000)
})

/**
 * Idempotent uploads: the browser's upload queue sends the same `Idempotency-Key` with every
 * attempt of one file, so a retry whose first attempt was committed (its answer lost with the
 * connection) answers that document (200) instead of creating a second one, and keeps no second
 * file. The key belongs to the company; a malformed one is refused (400) before anything is
 * stored, and one sent before with another file (other content, another kind) is refused (409)
 * rather than answered with a document that file is not; without one, uploads behave as before. Two attempts at once still make one document.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { contractMessages } from '../../contract/index.ts'
import { documents, logs, userCompanies } from '../../server/db/schema.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { createPipelineApp, insertCompany, memberOf, multipart } from './documents-support.ts'

type Member = Awaited<ReturnType<typeof memberOf>>

let database: TestDatabase
let root: string
let ctx: Awaited<ReturnType<typeof createPipelineApp>>
let companyA: { id: number }
let companyB: { id: number }
let alice: Member
let bob: Member
let keys = 0

beforeAll(async () => {
  database = await createTestDatabase()
  root = await mkdtemp(join(tmpdir(), 'docflow-idempotency-'))
  // No workers: an invoice stays PROCESSING unless a test sets its status.
  ctx = await createPipelineApp(database.db, root)
  companyA = await insertCompany(database.db)
  companyB = await insertCompany(database.db)
  alice = await memberOf(database.db, ctx.app, companyA.id)
  // A member of both companies: the same key in each is a different upload.
  bob = await memberOf(database.db, ctx.app, companyB.id)
  await database.db
    .insert(userCompanies)
    .values({ userId: bob.user.id, companyId: companyA.id, role: 'COMPANY_USER' })
})
afterAll(async () => {
  await ctx?.close()
  await database?.close()
  await rm(root, { recursive: true, force: true })
})

/** A key no other test uses, in the browser's form. */
const newKey = () => `upload:${Date.now().toString(36)}-${++keys}`

const pdf = (text: string) => Buffer.from(`%PDF-1.7\n% ${text}\n`)

type Kind = 'invoice' | 'expense' | 'document'

const FIELDS: Record<Kind, { path: string; fields: Record<string, string> }> = {
  invoice: { path: '/api/documents/upload', fields: { documentType: 'invoice', category: 'Invoices' } },
  expense: { path: '/api/expenses/upload', fields: { document_type: 'expense' } },
  document: {
    path: '/api/documents/upload',
    fields: { documentType: 'document', category: 'Administration' },
  },
}

function upload(
  options: { kind?: Kind; key?: string; jar?: Member['jar']; companyId?: number; name?: string } = {},
) {
  const { kind = 'invoice', key, jar = alice.jar, companyId = companyA.id, name = 'retried.pdf' } = options
  const { path, fields } = FIELDS[kind]
  const init = multipart({ ...fields, company_id: String(companyId) }, { name, data: pdf(name) })
  return jar.request(ctx.app, path, {
    ...init,
    headers: key === undefined ? {} : { 'Idempotency-Key': key },
  })
}

const storedFiles = async () => (await ctx.storedFiles()).filter((f) => !f.endsWith('.part'))

async function countRows(companyId: number) {
  const [docs] = await database.db
    .select({ n: count() })
    .from(documents)
    .where(eq(documents.companyId, companyId))
  const [rows] = await database.db.select({ n: count() }).from(logs).where(eq(logs.companyId, companyId))
  return { documents: docs!.n, logs: rows!.n }
}

const withKey = (companyId: number, key: string) =>
  database.db
    .select({ id: documents.id, uploadKey: documents.uploadKey })
    .from(documents)
    .where(and(eq(documents.companyId, companyId), eq(documents.uploadKey, key)))

const retriedLogs = () => ctx.logs.filter((line) => line.msg === 'upload retried')

describe('an upload sent again with the same Idempotency-Key', () => {
  for (const kind of ['invoice', 'expense', 'document'] as const) {
    it(`answers the first ${kind} (200, same id) and keeps no second document, row or file`, async () => {
      const key = newKey()
      const first = await upload({ kind, key })
      expect(first.status).toBe(201)
      const created = await first.json()
      const filesBefore = await storedFiles()
      const rowsBefore = await countRows(companyA.id)
      const logged = retriedLogs().length

      const again = await upload({ kind, key })
      expect(again.status).toBe(200)
      expect(await again.json()).toEqual(created)
      expect(await storedFiles()).toEqual(filesBefore)
      expect(await countRows(companyA.id)).toEqual(rowsBefore)
      expect(await withKey(companyA.id, key)).toEqual([{ id: created.id, uploadKey: key }])
      const [line] = retriedLogs().slice(logged)
      expect(line).toMatchObject({ level: 30, documentId: created.id, companyId: companyA.id })
    })
  }

  it('answers the earlier document with its current status', async () => {
    const key = newKey()
    const { id, status } = await (await upload({ key })).json()
    expect(status).toBe('PROCESSING')
    await database.db.update(documents).set({ status: 'FAILED' }).where(eq(documents.id, id))
    const again = await upload({ key })
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual({ id, status: 'FAILED' })
    const general = newKey()
    const stored = await (await upload({ kind: 'document', key: general })).json()
    expect(stored.status).toBe('COMPLETED')
    expect(await (await upload({ kind: 'document', key: general })).json()).toEqual(stored)
  })

  it('refuses (409) a key sent before with another file or as another kind, keeping nothing of it', async () => {
    const key = newKey()
    const first = await upload({ key, name: 'first.pdf' })
    expect(first.status).toBe(201)
    const created = await first.json()
    const filesBefore = await storedFiles()
    const rowsBefore = await countRows(companyA.id)
    // Other content under the same key; the same content as another kind.
    for (const other of [{ name: 'second.pdf' }, { name: 'first.pdf', kind: 'document' as const }]) {
      const res = await upload({ key, ...other })
      expect(res.status, JSON.stringify(other)).toBe(409)
      expect(await res.json()).toEqual({ message: contractMessages.uploadKeyReused })
    }
    expect(await storedFiles()).toEqual(filesBefore)
    expect(await countRows(companyA.id)).toEqual(rowsBefore)
    expect(await withKey(companyA.id, key)).toEqual([{ id: created.id, uploadKey: key }])
    // The file it was sent with still answers as before.
    const again = await upload({ key, name: 'first.pdf' })
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual(created)
  })

  it('is another upload in another company', async () => {
    const key = newKey()
    const inA = await upload({ key, jar: bob.jar, companyId: companyA.id })
    const inB = await upload({ key, jar: bob.jar, companyId: companyB.id })
    expect([inA.status, inB.status]).toEqual([201, 201])
    const a = await inA.json()
    const b = await inB.json()
    expect(a.id).not.toBe(b.id)
    expect(await withKey(companyA.id, key)).toEqual([{ id: a.id, uploadKey: key }])
    expect(await withKey(companyB.id, key)).toEqual([{ id: b.id, uploadKey: key }])
  })

  it('makes one document when two attempts run at once', async () => {
    const key = newKey()
    const filesBefore = await storedFiles()
    const rowsBefore = await countRows(companyA.id)
    const answers = await Promise.all([upload({ key }), upload({ key }), upload({ key })])
    const bodies = await Promise.all(answers.map((res) => res.json()))
    expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 201])
    expect(new Set(bodies.map((body) => body.id)).size).toBe(1)
    expect(await withKey(companyA.id, key)).toEqual([{ id: bodies[0].id, uploadKey: key }])
    expect(await countRows(companyA.id)).toEqual({
      documents: rowsBefore.documents + 1,
      logs: rowsBefore.logs + 1,
    })
    expect(await storedFiles()).toHaveLength(filesBefore.length + 1)
  })

  it('answers the document of an attempt that committed after this one looked the key up', async () => {
    // Both attempts look the key up, find nothing and only then commit (each transaction waits for
    // the other's to be asked for): the second insert meets the unique index.
    const key = newKey()
    const rowsBefore = await countRows(companyA.id)
    const transaction = database.db.transaction.bind(database.db)
    let waiting = 0
    let release = () => {}
    const bothAsked = new Promise<void>((resolve) => {
      release = resolve
    })
    const held = vi.spyOn(database.db, 'transaction').mockImplementation(async (...args) => {
      if (++waiting === 2) release()
      await Promise.race([bothAsked, new Promise((resolve) => setTimeout(resolve, 10_000))])
      return transaction(...args)
    })
    try {
      const answers = await Promise.all([upload({ key }), upload({ key })])
      expect(waiting).toBe(2)
      expect(answers.map((res) => res.status).sort()).toEqual([200, 201])
      const [one, two] = await Promise.all(answers.map((res) => res.json()))
      expect(one).toEqual(two)
    } finally {
      held.mockRestore()
    }
    expect(await countRows(companyA.id)).toEqual({
      documents: rowsBefore.documents + 1,
      logs: rowsBefore.logs + 1,
    })
  })
})

describe('Idempotency-Key', () => {
  it('is refused (400, naming the header) when malformed, and nothing is stored', async () => {
    const filesBefore = await storedFiles()
    const rowsBefore = await countRows(companyA.id)
    for (const key of ['', 'with space', 'x'.repeat(101), 'a/b', 'clé']) {
      const res = await upload({ key })
      expect(res.status, JSON.stringify(key)).toBe(400)
      const body = await res.json()
      expect(body.message).toBe(contractMessages.invalidInput)
      expect(body.detail).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }])
    }
    expect(await storedFiles()).toEqual(filesBefore)
    expect(await countRows(companyA.id)).toEqual(rowsBefore)
  })

  it('takes 100 characters of letters, digits and _ . : -', async () => {
    const key = `${newKey()}_.:-`.padEnd(100, 'Z')
    expect((await upload({ key })).status).toBe(201)
    expect((await upload({ key })).status).toBe(200)
  })

  it('changes nothing when absent: two uploads make two documents', async () => {
    const rowsBefore = await countRows(companyA.id)
    const first = await upload()
    const second = await upload()
    expect([first.status, second.status]).toEqual([201, 201])
    expect((await first.json()).id).not.toBe((await second.json()).id)
    expect(await countRows(companyA.id)).toEqual({
      documents: rowsBefore.documents + 2,
      logs: rowsBefore.logs + 2,
    })
  })

  it('is described as an optional header of both upload calls', async () => {
    const api = await (await ctx.app.request('/api/openapi.json')).json()
    for (const path of ['/api/documents/upload', '/api/expenses/upload']) {
      const operation = api.paths[path].post
      expect(operation.parameters).toContainEqual(
        expect.objectContaining({ in: 'header', name: 'Idempotency-Key' }),
      )
      expect(
        operation.parameters.find((p: { name: string }) => p.name === 'Idempotency-Key').required,
      ).toBeFalsy()
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '201']))
    }
  })
})

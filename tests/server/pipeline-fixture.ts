import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect } from 'vitest'
import { type DocumentRow, documents } from '../../server/db/schema.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { corpusFile, createPipelineApp, insertCompany, memberOf, multipart } from './documents-support.ts'

/**
 * The setup the pipeline's queue tests share: a database, an app with its queue (not started:
 * each test drives the workers it needs), one company and a member of it, torn down after the file.
 */
export function pipelineFixture(tmpPrefix: string) {
  const f = {} as {
    database: TestDatabase
    ctx: Awaited<ReturnType<typeof createPipelineApp>>
    member: Awaited<ReturnType<typeof memberOf>>
    companyId: number
    /** Uploads a clean corpus invoice as the member; its document id. */
    upload(): Promise<number>
    /** The document row. */
    row(id: number): Promise<DocumentRow>
  }
  let root: string
  beforeAll(async () => {
    f.database = await createTestDatabase()
    root = await mkdtemp(join(tmpdir(), tmpPrefix))
    f.ctx = await createPipelineApp(f.database.db, root)
    f.companyId = (await insertCompany(f.database.db)).id
    f.member = await memberOf(f.database.db, f.ctx.app, f.companyId)
  })
  afterAll(async () => {
    await f.ctx?.close()
    await f.database?.close()
    if (root) await rm(root, { recursive: true, force: true })
  })
  f.upload = async () => {
    const res = await f.member.jar.request(
      f.ctx.app,
      '/api/documents/upload',
      multipart(
        { documentType: 'invoice', company_id: String(f.companyId) },
        { name: 'f.pdf', data: await corpusFile('0016-facture.pdf') },
      ),
    )
    expect(res.status).toBe(201)
    return (await res.json()).id
  }
  f.row = async (id) => (await f.database.db.select().from(documents).where(eq(documents.id, id)))[0]!
  return f
}

/**
 * Reading a document again (`POST /{invoices|expenses}/{id}/reprocess`): the document goes back to
 * processing and is read from its original by the real engine, the values a user corrected keep
 * their value and source (`user`) with no outline of the page, the rest is read afresh (with where
 * it was read); refused while the document is being read (409), for another kind or another
 * company (404), and documented. On PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
import { beforeAll, expect, it } from 'vitest'
import { documents } from '../../server/db/schema.ts'
import { insertCompany, memberOf, waitFor } from './documents-support.ts'
import { pipelineFixture } from './pipeline-fixture.ts'
import { patchJson } from './review-support.ts'

const f = pipelineFixture('docflow-reprocess-')
const q = () => `company_id=${f.companyId}`
let id = 0

type Invoice = {
  status: string
  business_name: string | null
  invoice_number: string | null
  field_sources: Record<string, string>
  field_evidence: Record<string, unknown>
  reviewed_at: string | null
}

const processed = (doc: number) =>
  waitFor(async () => (/^(PENDING|PROCESSING)$/.test((await f.row(doc)).status) ? null : true), 60_000)
const invoice = async (doc: number): Promise<Invoice> =>
  (await f.member.jar.request(f.ctx.app, `/api/invoices/${doc}?${q()}`)).json()
const reprocess = (path: string, jar = f.member.jar) => jar.request(f.ctx.app, path, { method: 'POST' })

beforeAll(async () => {
  await f.ctx.startWorkers(undefined, { expireInSeconds: 120 })
  id = await f.upload()
  await processed(id)
}, 120_000)

it('reads the invoice again, keeping what a user corrected', async () => {
  const first = await invoice(id)
  expect(first.invoice_number).not.toBeNull()
  expect(first.field_evidence.invoice_number).toBeDefined()
  const patched = await f.member.jar.request(
    f.ctx.app,
    `/api/invoices/${id}?${q()}`,
    patchJson({ business_name: 'Corrected Supplier SARL' }),
  )
  expect(patched.status).toBe(200)
  // As a document read by an older engine: no outlines, and the number missed.
  await f.database.db.update(documents).set({ invoiceNumber: null, fieldEvidence: {} })

  const res = await reprocess(`/api/invoices/${id}/reprocess?${q()}`)
  expect(res.status).toBe(202)
  expect(await res.json()).toEqual({ id, status: 'PROCESSING' })
  // Once queued, it cannot be queued again until read.
  const again = await reprocess(`/api/invoices/${id}/reprocess?${q()}`)
  expect([202, 409]).toContain(again.status)
  await processed(id)

  const read = await invoice(id)
  expect(read.status).toBe(first.status)
  expect(read.business_name).toBe('Corrected Supplier SARL')
  expect(read.field_sources.business_name).toBe('user')
  expect(read.field_evidence.business_name).toBeUndefined()
  // What the user did not correct is read afresh, with where it was read.
  expect(read.invoice_number).toBe(first.invoice_number)
  expect(read.field_evidence.invoice_number).toBeDefined()
  // Read again: out of the review's record until someone looks at it again.
  expect(read.reviewed_at).toBeNull()
}, 120_000)

it('refuses a document being read (409), another kind or company (404), and bad ids (400/404)', async () => {
  await f.database.db.update(documents).set({ status: 'PROCESSING' })
  const busy = await reprocess(`/api/invoices/${id}/reprocess?${q()}`)
  expect(busy.status).toBe(409)
  expect(await busy.json()).toHaveProperty('message')
  await f.database.db.update(documents).set({ status: 'COMPLETED' })

  expect((await reprocess(`/api/expenses/${id}/reprocess?${q()}`)).status).toBe(404)
  const other = await insertCompany(f.database.db)
  const stranger = await memberOf(f.database.db, f.ctx.app, other.id)
  expect((await reprocess(`/api/invoices/${id}/reprocess?company_id=${other.id}`, stranger.jar)).status).toBe(
    404,
  )
  // A company the user is not a member of is not found either.
  expect(
    (await reprocess(`/api/invoices/${id}/reprocess?company_id=${f.companyId}`, stranger.jar)).status,
  ).toBe(404)
  expect((await reprocess(`/api/invoices/abc/reprocess?${q()}`)).status).toBeGreaterThanOrEqual(400)
})

it('is documented in the OpenAPI description', async () => {
  const spec = await (await f.ctx.app.request('/api/openapi.json')).json()
  expect(Object.keys(spec.paths)).toEqual(
    expect.arrayContaining(['/api/invoices/{id}/reprocess', '/api/expenses/{id}/reprocess']),
  )
})

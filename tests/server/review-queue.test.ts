/**
 * The review queue: a processed invoice or expense needs review when it is FAILED, carries a
 * warning or has a field read with a confidence under REVIEW_CONFIDENCE, until a user confirms
 * (`POST /{invoices|expenses}/{id}/confirm`) or corrects it; processing it again starts over.
 * The dashboard lists the queue (`GET /logs?review=needed`) and counts it (`to_review`). Real
 * processing of corpus files in the sandbox, on PGlite (or PostgreSQL with TEST_DATABASE_URL).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { CONFIRMED_FIELD } from '../../contract/document-calls.ts'
import { REVIEW_CONFIDENCE } from '../../contract/index.ts'
import { userCompanies } from '../../server/db/schema.ts'
import { reprocessDocument } from '../../server/services/documents/lifecycle/document-service.ts'
import { corpusFile, insertCompany, memberOf, multipart, waitFor } from './documents-support.ts'
import { pipelineFixture } from './pipeline-fixture.ts'
import { insertProcessed, patchJson } from './review-support.ts'

const f = pipelineFixture('docflow-review-queue-')
const q = () => `company_id=${f.companyId}`
/** FAILED (no invoice number), COMPLETED with a warning (a date in the future), and a clean one. */
const ids = { failed: 0, warned: 0, clean: 0 }

type Invoice = {
  id: number
  status: string
  warnings: string[]
  needs_review: boolean
  reviewed_at: string | null
  field_evidence: Record<string, { confidence: number }>
}

async function upload(name: string): Promise<number> {
  const res = await f.member.jar.request(
    f.ctx.app,
    '/api/documents/upload',
    multipart(
      { documentType: 'invoice', category: 'Invoices', company_id: String(f.companyId) },
      { name, data: await corpusFile(name) },
    ),
  )
  expect(res.status).toBe(201)
  return (await res.json()).id
}

const processed = (id: number) =>
  waitFor(async () => ((await f.row(id)).status === 'PROCESSING' ? null : true), 60_000)

const getJson = async (path: string, jar = f.member.jar) => (await jar.request(f.ctx.app, path)).json()
const invoice = (id: number): Promise<Invoice & { warnings?: string[] }> =>
  getJson(`/api/invoices/${id}?${q()}`)
const quality = async (id: number): Promise<string[]> =>
  (await getJson(`/api/invoices/${id}/quality-data?${q()}`)).warnings
const queue = async (): Promise<number[]> =>
  ((await getJson(`/api/logs?${q()}&review=needed`)) as { document_id: number }[]).map((r) => r.document_id)
const toReview = async (): Promise<number> => (await getJson(`/api/logs/summary?${q()}`)).to_review
const confirm = (id: number, jar = f.member.jar, kind = 'invoices', companyId = f.companyId) =>
  jar.request(f.ctx.app, `/api/${kind}/${id}/confirm?company_id=${companyId}`, { method: 'POST' })

/** What the queue's rule says of an invoice answer, computed apart from the server's flag. */
const flagged = (doc: Invoice, warnings: string[]) =>
  doc.status === 'FAILED' ||
  warnings.length > 0 ||
  Object.values(doc.field_evidence ?? {}).some((e) => e.confidence < REVIEW_CONFIDENCE)

beforeAll(async () => {
  await f.ctx.startWorkers(undefined, { expireInSeconds: 120 })
  ids.failed = await upload('0001-facture.pdf')
  ids.warned = await upload('0063-invoice.pdf')
  ids.clean = await upload('0002-facture.pdf')
  for (const id of Object.values(ids)) await processed(id)
}, 120_000)

describe('the review queue', () => {
  it('holds the FAILED and the warned documents, and a clean one only for a field under the threshold', async () => {
    expect((await invoice(ids.failed)).status).toBe('FAILED')
    expect(await quality(ids.warned)).toContain('date_in_future')
    const expected: number[] = []
    for (const id of Object.values(ids)) {
      const doc = await invoice(id)
      const inQueue = flagged(doc, await quality(id))
      expect(doc.needs_review, `document ${id}`).toBe(inQueue)
      expect(doc.reviewed_at).toBeNull()
      if (inQueue) expected.push(id)
    }
    expect(expected).toEqual(expect.arrayContaining([ids.failed, ids.warned]))
    expect((await queue()).sort()).toEqual(expected.sort())
    expect(await toReview()).toBe(expected.length)
    // Every row says whether it is in the queue; the whole list still has them all.
    const rows = (await getJson(`/api/logs?${q()}`)) as { document_id: number; needs_review: boolean }[]
    expect(rows.length).toBe(3)
    for (const row of rows) expect(row.needs_review).toBe(expected.includes(row.document_id))
    const all = (await getJson(`/api/logs?${q()}&review=all`)) as unknown[]
    expect(all.length).toBe(3)
  })

  it('refuses an unknown review filter with the contract error body', async () => {
    const res = await f.member.jar.request(f.ctx.app, `/api/logs?${q()}&review=maybe`)
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.message).toEqual(expect.any(String))
    expect(body.detail).toEqual([expect.objectContaining({ field: 'review' })])
  })

  it('takes a confirmed document out, records who and when, and keeps its status', async () => {
    const before = await toReview()
    const at = Date.now()
    const res = await confirm(ids.warned)
    expect(res.status).toBe(200)
    const body = (await res.json()) as Invoice
    expect(body).toMatchObject({ id: ids.warned, status: 'COMPLETED', needs_review: false })
    expect(Date.parse(body.reviewed_at!)).toBeGreaterThanOrEqual(at - 1000)
    expect(body.warnings).toContain('date_in_future')
    expect(await queue()).not.toContain(ids.warned)
    expect(await toReview()).toBe(before - 1)
    const history = await getJson(`/api/invoices/${ids.warned}/history?${q()}`)
    expect(history[0]).toMatchObject({
      field: CONFIRMED_FIELD,
      old_value: null,
      new_value: 'COMPLETED',
      user: { id: f.member.user.id, email: f.member.user.email },
    })
    expect(Date.parse(history[0].at)).toBeGreaterThanOrEqual(at - 1000)
    const row = (await f.row(ids.warned))!
    expect(row.reviewedBy).toBe(f.member.user.id)
  })

  it('takes a corrected document out, but not a save that changes nothing', async () => {
    const before = await toReview()
    const nothing = await f.member.jar.request(f.ctx.app, `/api/invoices/${ids.failed}?${q()}`, patchJson({}))
    expect(nothing.status).toBe(200)
    expect(await queue()).toContain(ids.failed)
    expect(await toReview()).toBe(before)
    const fixed = await f.member.jar.request(
      f.ctx.app,
      `/api/invoices/${ids.failed}?${q()}`,
      patchJson({ invoice_number: 'F-2025-001' }),
    )
    expect(fixed.status).toBe(200)
    expect(await fixed.json()).toMatchObject({ needs_review: false, reviewed_at: expect.any(String) })
    expect(await queue()).not.toContain(ids.failed)
    expect(await toReview()).toBe(before - 1)
  })

  it('puts a confirmed document back when it is processed again and its warning remains', async () => {
    expect((await invoice(ids.warned)).needs_review).toBe(false)
    await reprocessDocument(f.database.db, f.ctx.queue, {
      id: ids.warned,
      companyId: f.companyId,
      now: new Date(),
    })
    // Being read again: out of the queue until the new reading is in.
    expect((await f.row(ids.warned)).needsReview).toBe(false)
    await processed(ids.warned)
    const doc = await invoice(ids.warned)
    expect(await quality(ids.warned)).toContain('date_in_future')
    expect(doc).toMatchObject({ status: 'COMPLETED', needs_review: true, reviewed_at: null })
    expect(await queue()).toContain(ids.warned)
  })

  it('answers 409 while a document is processed, 404 for another kind, company or document', async () => {
    const busy = await insertProcessed(f.database.db, f.companyId, { status: 'PROCESSING' })
    expect((await confirm(busy.id)).status).toBe(409)
    const expense = await insertProcessed(f.database.db, f.companyId, { kind: 'expense' })
    const wrongKind = await confirm(expense.id)
    expect(wrongKind.status).toBe(404)
    expect(await wrongKind.json()).toEqual({ message: 'Document not found' })
    expect((await confirm(expense.id, f.member.jar, 'expenses')).status).toBe(200)
    expect((await confirm(2_000_000_000)).status).toBe(404)
    expect((await confirm(Number.NaN)).status).toBe(400)
    const other = await insertCompany(f.database.db)
    const outsider = await memberOf(f.database.db, f.ctx.app, other.id)
    // Not the outsider's company; nor is the document in the outsider's own.
    expect(await (await confirm(ids.clean, outsider.jar)).json()).toEqual({ message: 'Company not found' })
    expect((await confirm(ids.clean, outsider.jar, 'invoices', other.id)).status).toBe(404)
    // Without a session.
    expect(
      (await f.ctx.app.request(`/api/invoices/${ids.clean}/confirm?${q()}`, { method: 'POST' })).status,
    ).toBe(401)
    expect((await f.row(ids.clean)).reviewedAt).toBeNull()
  })

  it('lets every role of the company confirm, as it lets them correct, and a platform administrator', async () => {
    const admin = await memberOf(f.database.db, f.ctx.app, null, 'SAAS_ADMIN')
    const companyAdmin = await memberOf(f.database.db, f.ctx.app, null)
    await f.database.db
      .insert(userCompanies)
      .values({ userId: companyAdmin.user.id, companyId: f.companyId, role: 'COMPANY_ADMIN' })
    for (const who of [f.member, companyAdmin, admin]) {
      const doc = await insertProcessed(f.database.db, f.companyId, { warnings: ['date_in_future'] })
      const res = await confirm(doc.id, who.jar)
      expect(res.status).toBe(200)
      expect((await f.row(doc.id)).reviewedBy).toBe(who.user.id)
    }
  })
})

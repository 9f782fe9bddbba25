/**
 * One source of status: through a document's whole life (upload, processing, completed, corrected
 * to failed and back, reprocessed, failed, deleted) its dashboard row (`GET /api/logs`, one row,
 * the status filter, the summary) and the status endpoint say the same thing at every step, in
 * the letter case each always answered. Processing is held at a gate, so each step is observed
 * while nothing moves. Runs on PGlite, or on PostgreSQL with TEST_DATABASE_URL.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { LOG_STATUSES } from '../../contract/index.ts'
import { logs } from '../../server/db/schema.ts'
import { reprocessDocument } from '../../server/services/documents/lifecycle/document-service.ts'
import { extractDocument } from '../../server/services/extraction/index.ts'
import { waitFor } from './documents-support.ts'
import { jsonBody } from './helpers.ts'
import { pipelineFixture } from './pipeline-fixture.ts'

const f = pipelineFixture('docflow-lifecycle-')

/** Extraction held until the test opens the gate; `reading` says how to answer then. */
const gate = {
  calls: 0,
  open: () => {},
  reading: 'as-printed' as 'as-printed' | 'without-total',
}
const heldExtract: typeof extractDocument = async (...args) => {
  gate.calls++
  await new Promise<void>((resolve) => {
    gate.open = resolve
  })
  const result = await extractDocument(...args)
  return gate.reading === 'as-printed'
    ? result
    : { ...result, fields: { ...result.fields, total_invoice_including_vat: null } }
}

beforeAll(async () => {
  await f.ctx.startWorkers(heldExtract)
})

const get = async (path: string) => {
  const res = await f.member.jar.request(f.ctx.app, path)
  return { status: res.status, body: await res.json() }
}
const q = () => `company_id=${f.companyId}`

/**
 * What the status endpoint and the dashboard say about the document, checked to agree: its row in
 * the listing and on its own, the status filter (the row under its status and under no other) and
 * the summary. Answers the status, or null once the document and its row are gone.
 */
async function agreed(id: number): Promise<string | null> {
  const single = await get(`/api/api/document/invoice/${id}/status?${q()}`)
  const [bulk] = (await get(`/api/api/documents/status?kind=invoice&document_ids=${id}&${q()}`)).body
  const rows = (await get(`/api/logs?${q()}`)).body as { id: number; document_id: number; status: string }[]
  const row = rows.find((r) => r.document_id === id)
  if (single.status === 404) {
    expect(bulk).toBeUndefined()
    expect(row).toBeUndefined()
    return null
  }
  const status = single.body.status as string
  expect(bulk.status).toBe(status)
  // Documents answer upper case and dashboard rows lower case, as they always have.
  expect(status).toMatch(/^(PROCESSING|COMPLETED|FAILED)$/)
  expect(row?.status).toBe(status.toLowerCase())
  expect((await get(`/api/logs/${row!.id}?${q()}`)).body.status).toBe(row!.status)
  for (const filter of LOG_STATUSES) {
    const listed = (await get(`/api/logs?${q()}&status=${filter}`)).body as { id: number }[]
    expect(
      listed.some((r) => r.id === row!.id),
      `under the ${filter} filter`,
    ).toBe(filter === row!.status)
  }
  const summary = (await get(`/api/logs/summary?${q()}`)).body
  expect(summary.pending).toBe(rows.filter((r) => ['pending', 'processing'].includes(r.status)).length)
  expect(summary.failed).toBe(rows.filter((r) => ['failed', 'rejected'].includes(r.status)).length)
  return status
}

const settled = (id: number) =>
  waitFor(async () => {
    const { body } = await get(`/api/api/document/invoice/${id}/status?${q()}`)
    return body.status === 'PROCESSING' ? null : body.status
  })

const correct = async (id: number, changes: Record<string, unknown>) => {
  const res = await f.member.jar.request(f.ctx.app, `/api/invoices/${id}?${q()}`, {
    ...jsonBody(changes),
    method: 'PATCH',
  })
  return { status: res.status, body: await res.json() }
}

describe('a document’s status, from upload to deletion', () => {
  it('is the same on the dashboard row and the status endpoint at every step', async () => {
    // Uploaded (the upload answers PROCESSING).
    const id = await f.upload()
    expect(await agreed(id)).toBe('PROCESSING')

    // A job is reading it.
    await waitFor(async () => gate.calls === 1)
    expect(await agreed(id)).toBe('PROCESSING')
    // Nothing corrects a document while it is read.
    expect((await correct(id, { invoice_number: 'X-1' })).status).toBe(409)
    gate.open()
    expect(await settled(id)).toBe('COMPLETED')
    expect(await agreed(id)).toBe('COMPLETED')

    // Corrected: a VAT amount that breaks the totals fails it, the printed one completes it again.
    const invoice = (await get(`/api/invoices/${id}?${q()}`)).body
    const broken = await correct(id, { total_vat_amount: String(invoice.total_vat_amount + 1) })
    expect(broken).toMatchObject({ status: 200, body: { status: 'FAILED', errors: ['totals_mismatch'] } })
    expect(await agreed(id)).toBe('FAILED')
    const mended = await correct(id, { total_vat_amount: String(invoice.total_vat_amount) })
    expect(mended).toMatchObject({ status: 200, body: { status: 'COMPLETED' } })
    expect(await agreed(id)).toBe('COMPLETED')

    // Reprocessed: PROCESSING again, with a new job, which this time reads no total.
    gate.reading = 'without-total'
    await reprocessDocument(f.database.db, f.ctx.queue, { id, companyId: f.companyId, now: new Date() })
    expect(await agreed(id)).toBe('PROCESSING')
    await waitFor(async () => gate.calls === 2)
    expect(await agreed(id)).toBe('PROCESSING')
    gate.open()
    expect(await settled(id)).toBe('FAILED')
    expect(await agreed(id)).toBe('FAILED')
    const quality = (await get(`/api/invoices/${id}/quality-data?${q()}`)).body
    expect(quality.errors).toContain('missing_total')

    // The row's status cannot be patched apart from its document's.
    const rows = (await get(`/api/logs?${q()}`)).body as { id: number; document_id: number }[]
    const rowId = rows.find((r) => r.document_id === id)!.id
    const patched = await f.member.jar.request(f.ctx.app, `/api/logs/${rowId}/status?${q()}`, {
      ...jsonBody({ company_id: f.companyId, status: 'completed' }),
      method: 'PATCH',
    })
    expect(patched.status).toBe(409)
    expect(await agreed(id)).toBe('FAILED')

    // Deleted: the document and its row go together.
    const removed = await f.member.jar.request(f.ctx.app, `/api/invoices/${id}?${q()}`, { method: 'DELETE' })
    expect(removed.status).toBe(200)
    expect(await agreed(id)).toBeNull()
  })

  it('refuses a reprocess while the document is still being processed', async () => {
    gate.reading = 'as-printed'
    const id = await f.upload()
    await expect(
      reprocessDocument(f.database.db, f.ctx.queue, { id, companyId: f.companyId, now: new Date() }),
    ).rejects.toMatchObject({ status: 409, from: 'processing', event: 'document.reprocess' })
    await waitFor(async () => gate.calls === 3)
    gate.open()
    expect(await settled(id)).toBe('COMPLETED')
    expect(await agreed(id)).toBe('COMPLETED')
  })
})

describe('rows without a document', () => {
  it('keep a status of their own, which the client may change', async () => {
    const created = await f.member.jar.request(
      f.ctx.app,
      '/api/logs',
      jsonBody({ company_id: f.companyId, name: 'by hand.pdf', type: 'Invoice', status: 'pending' }),
    )
    expect(created.status).toBe(201)
    const row = await created.json()
    expect(row).toMatchObject({ document_id: null, status: 'pending' })
    const patched = await f.member.jar.request(f.ctx.app, `/api/logs/${row.id}/status?${q()}`, {
      ...jsonBody({ company_id: f.companyId, status: 'failed' }),
      method: 'PATCH',
    })
    expect(await patched.json()).toMatchObject({ id: row.id, status: 'failed' })
    expect((await get(`/api/logs/${row.id}?${q()}`)).body.status).toBe('failed')
  })

  it('the database refuses a document’s row with a status of its own, and any other row without one', async () => {
    const [doc] = (await get(`/api/logs?${q()}`)).body.filter(
      (r: { document_id: number | null }) => r.document_id,
    )
    await expect(
      f.database.db.insert(logs).values({
        companyId: f.companyId,
        documentId: doc.document_id,
        name: 'copy',
        type: 'Invoice',
        status: 'failed',
      }),
    ).rejects.toThrow()
    await expect(
      f.database.db.insert(logs).values({ companyId: f.companyId, name: 'no status', type: 'Invoice' }),
    ).rejects.toThrow()
  })
})

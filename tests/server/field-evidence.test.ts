/**
 * `field_evidence` in the invoice and expense answers: for a value a fitted scorer read from the
 * page, where it was read (page, box in fractions of the page) and how sure the engine is; a
 * user's correction removes it (the value is no longer the page's).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { corpusFile, multipart, waitFor } from './documents-support.ts'
import { pipelineFixture } from './pipeline-fixture.ts'
import { patchJson } from './review-support.ts'

const f = pipelineFixture('docflow-evidence-')
let id: number

beforeAll(async () => {
  await f.ctx.startWorkers()
  const res = await f.member.jar.request(
    f.ctx.app,
    '/api/documents/upload',
    multipart(
      { documentType: 'invoice', category: 'Invoices', company_id: String(f.companyId) },
      { name: 'facture.pdf', data: await corpusFile('0002-facture.pdf') },
    ),
  )
  id = (await res.json()).id
  await waitFor(async () => ((await f.row(id)).status === 'PROCESSING' ? null : true))
})

const read = async () =>
  (await f.member.jar.request(f.ctx.app, `/api/invoices/${id}?company_id=${f.companyId}`)).json()

describe('field evidence', () => {
  it('says where the invoice date was read, how sure, and the other dates', async () => {
    const invoice = await read()
    expect(invoice.invoice_date).toBe('2026-07-17')
    expect(invoice.field_sources.invoice_date).toBe('text')
    const e = invoice.field_evidence.invoice_date
    expect(e.page).toBe(1)
    const [x0, y0, x1, y1] = e.box
    for (const v of e.box) expect(v).toBeGreaterThanOrEqual(0)
    for (const v of e.box) expect(v).toBeLessThanOrEqual(1)
    expect(x1).toBeGreaterThan(x0)
    expect(y1).toBeGreaterThan(y0)
    expect(e.confidence).toBeGreaterThan(0.5)
    expect(e.confidence).toBeLessThanOrEqual(1)
    expect(e.alternatives.length).toBeLessThanOrEqual(3)
    for (const a of e.alternatives) {
      expect(a.value).not.toBe('2026-07-17')
      expect(a.confidence).toBeLessThan(e.confidence)
    }
    // The supplier's name was read where the page prints it (the letterhead, or the legal
    // footer that names the company again: the fitted weights decide which of the two places of
    // one value is shown), never in the customer's block in between; its VAT id from the legal
    // footer (the customer's id is an alternative), the totals under the item table; the
    // currency where it is printed.
    expect(invoice.field_evidence.business_name).toMatchObject({ page: 1 })
    const nameTop = invoice.field_evidence.business_name.box[1]
    expect(nameTop < 0.1 || nameTop > 0.85).toBe(true)
    expect(invoice.field_evidence.business_name.confidence).toBeGreaterThan(0.5)
    expect(invoice.field_evidence.vat_number.box[1]).toBeGreaterThan(0.75)
    const gross = invoice.field_evidence.total_invoice_including_vat
    const net = invoice.field_evidence.total_charge_excluding_vat
    expect(gross.box[1]).toBeGreaterThan(y0)
    expect(gross.box[1]).toBeGreaterThan(net.box[1])
    expect(gross.confidence).toBeGreaterThan(0.5)
    const address = invoice.field_evidence.business_address
    // The address under the letterhead's name line (at the top, 4 % down), above the customer's.
    expect(address.box[1]).toBeGreaterThan(0.05)
    expect(address.box[1]).toBeLessThan(0.15)
    expect(invoice.field_evidence.has_vat.confidence).toBeGreaterThan(0.5)
  })

  it('drops the evidence of a corrected field', async () => {
    const res = await f.member.jar.request(
      f.ctx.app,
      `/api/invoices/${id}?company_id=${f.companyId}`,
      patchJson({ invoice_date: '2026-07-18' }),
    )
    expect(res.status).toBe(200)
    const invoice = await read()
    expect(invoice.field_sources.invoice_date).toBe('user')
    expect(invoice.field_evidence.invoice_date).toBeUndefined()
    expect(invoice.field_evidence.invoice_number).toBeDefined()
  })
})

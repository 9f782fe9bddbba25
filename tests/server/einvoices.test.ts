/**
 * E-invoices through the API: a bare UBL / CII XML upload is accepted by its content and read
 * from its XML (field_sources `xml`, the e-invoice data on the invoice answer), a Factur-X PDF too;
 * any other XML is refused with the contract's 415; a hostile XML ends FAILED with a reason.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contractMessages, hasUnsafeCharacter } from '../../contract/index.ts'
import { extractionExtras } from '../../server/services/documents/einvoice-outcome.ts'
import { qualityMessage } from '../../server/services/documents/quality.ts'
import { einvoiceFields, readInvoiceXml } from '../../server/services/einvoice/index.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { generateInvoiceXml, SAMPLE, ublWith } from '../support/einvoices.ts'
import { createPipelineApp, insertCompany, memberOf, multipart, waitFor } from './documents-support.ts'

let database: TestDatabase
let root: string
let ctx: Awaited<ReturnType<typeof createPipelineApp>>
let company: { id: number }
let alice: Awaited<ReturnType<typeof memberOf>>

beforeAll(async () => {
  database = await createTestDatabase()
  root = await mkdtemp(join(tmpdir(), 'docflow-einvoices-'))
  ctx = await createPipelineApp(database.db, root)
  company = await insertCompany(database.db, 'Alpha')
  alice = await memberOf(database.db, ctx.app, company.id)
  await ctx.startWorkers()
})
afterAll(async () => {
  await ctx?.close()
  await database?.close()
  await rm(root, { recursive: true, force: true })
})

const upload = (name: string, data: Uint8Array, type: string, documentType = 'invoice') =>
  alice.jar.request(
    ctx.app,
    documentType === 'expense' ? '/api/expenses/upload' : '/api/documents/upload',
    multipart(
      documentType === 'expense'
        ? { document_type: 'expense', company_id: String(company.id) }
        : { documentType, category: 'Invoices', company_id: String(company.id) },
      { name, data, type },
    ),
  )

const bytes = (s: string) => new TextEncoder().encode(s)

async function finished(id: number) {
  return waitFor(async () => {
    const res = await alice.jar.request(
      ctx.app,
      `/api/api/document/invoice/${id}/status?company_id=${company.id}`,
    )
    const body = await res.json()
    return body.status === 'PROCESSING' ? null : body
  })
}

const invoice = async (id: number) =>
  (await alice.jar.request(ctx.app, `/api/invoices/${id}?company_id=${company.id}`)).json()

describe('XML e-invoice uploads', () => {
  it('a UBL invoice is accepted, COMPLETED from its XML, and downloads as the original', async () => {
    const xml = await generateInvoiceXml('UBL')
    const res = await upload('ubl-invoice.xml', bytes(xml), 'application/xml')
    expect(res.status).toBe(201)
    const { id } = await res.json()
    expect(await finished(id)).toMatchObject({ status: 'COMPLETED', errors: [] })
    const body = await invoice(id)
    expect(body).toMatchObject({
      invoice_number: SAMPLE.number,
      invoice_date: SAMPLE.issueDate,
      due_date: SAMPLE.dueDate,
      business_name: SAMPLE.seller,
      total_invoice_including_vat: SAMPLE.incl,
      content_type: 'application/xml',
      field_sources: {
        invoice_number: 'xml',
        invoice_date: 'xml',
        business_name: 'xml',
        total_invoice_including_vat: 'xml',
        due_date: 'xml',
      },
      einvoice: { syntax: 'UBL', type_code: '380', payment_terms: SAMPLE.terms },
    })
    expect(body.einvoice.lines).toHaveLength(2)
    const download = await alice.jar.request(
      ctx.app,
      `/api/invoices/invoice/${id}/download?company_id=${company.id}`,
    )
    expect(download.headers.get('content-type')).toBe('application/xml')
    expect(await download.text()).toBe(xml)
  })

  it('a CII invoice is recognised by its content, whatever its name and declared type', async () => {
    const res = await upload('export.txt', bytes(await generateInvoiceXml('CII')), 'text/plain')
    expect(res.status).toBe(201)
    const { id } = await res.json()
    expect(await finished(id)).toMatchObject({ status: 'COMPLETED' })
    expect((await invoice(id)).einvoice).toMatchObject({ syntax: 'CII' })
  })

  it('a Factur-X PDF is read from its embedded XML', async () => {
    const pdf = await readFile(
      join(import.meta.dirname, '../../../shared/corpus-einvoices/originals/0001-en-mustang-508.pdf'),
    )
    const { id } = await (await upload('facturx.pdf', new Uint8Array(pdf), 'application/pdf')).json()
    expect(await finished(id)).toMatchObject({ status: 'COMPLETED' })
    const body = await invoice(id)
    expect(body).toMatchObject({
      invoice_number: 'RE-20201121/508',
      due_date: '2020-12-12',
      total_invoice_including_vat: 571.04,
      field_sources: { invoice_number: 'xml', total_invoice_including_vat: 'xml' },
      einvoice: { syntax: 'CII', profile: 'urn:cen.eu:en16931:2017' },
    })
  })

  it('refuses other XML with the contract’s 415, as an invoice and as an expense', async () => {
    const other = bytes('<?xml version="1.0"?><note xmlns="urn:example:notes"><to>Ada</to></note>')
    const res = await upload('note.xml', other, 'application/xml')
    expect(res.status).toBe(415)
    expect((await res.json()).message).toBe(contractMessages.invoiceTypeInvalid)
    expect(contractMessages.invoiceTypeInvalid).toMatch(/XML e-invoice/)
    const asExpense = await upload(
      'ubl.xml',
      bytes(await generateInvoiceXml('UBL')),
      'application/xml',
      'expense',
    )
    expect(asExpense.status).toBe(415)
  })

  it('a hostile XML (external entity) ends FAILED with a reason, its entity never read', async () => {
    const xxe = `<?xml version="1.0"?>
<!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:ID>&xxe;</cbc:ID></Invoice>`
    const res = await upload('xxe.xml', bytes(xxe), 'application/xml')
    expect(res.status).toBe(201)
    const { id } = await res.json()
    expect(await finished(id)).toMatchObject({ status: 'FAILED', errors: ['einvoice_invalid'] })
    const quality = await (
      await alice.jar.request(ctx.app, `/api/invoices/${id}/quality-data?company_id=${company.id}`)
    ).json()
    expect(quality.failure_reason).toMatch(/DOCTYPE/)
    expect((await invoice(id)).invoice_number).toBeNull()
  })
})

const qualityOf = async (id: number) =>
  (await alice.jar.request(ctx.app, `/api/invoices/${id}/quality-data?company_id=${company.id}`)).json()

/** Uploads an XML invoice; its id. */
async function uploaded(xml: string): Promise<number> {
  const res = await upload('invoice.xml', bytes(xml), 'application/xml')
  expect(res.status).toBe(201)
  return (await res.json()).id
}

/** What the worker logged about a document's attempts beyond its first (retries, giving up). */
const retriesOf = (id: number) =>
  ctx.logs.filter(
    (line) => line.documentId === id && /retry|gave up|refused by the database/.test(String(line.msg)),
  )

/** Every text of a value (the stored e-invoice data), to check it against the text rule. */
const textsOf = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(textsOf)
      : value && typeof value === 'object'
        ? Object.values(value).flatMap(textsOf)
        : []

describe('the text rule on e-invoice fields', () => {
  it('ends an 8 KB seller name or invoice number FAILED at the first attempt, naming the term', async () => {
    for (const [values, en, fr] of [
      [
        { seller: 'S'.repeat(8192) },
        'E-invoice: the seller name (BT-27) is longer than 500 characters',
        'Facture électronique : le champ nom du vendeur (BT-27) dépasse 500 caractères',
      ],
      [
        { number: '9'.repeat(8192) },
        'E-invoice: the invoice number (BT-1) is longer than 100 characters',
        'Facture électronique : le champ numéro de facture (BT-1) dépasse 100 caractères',
      ],
    ] as const) {
      const id = await uploaded(await ublWith(values))
      expect(await finished(id)).toMatchObject({
        status: 'FAILED',
        errors: ['einvoice_invalid'],
        messages: [en],
      })
      const quality = await qualityOf(id)
      expect(quality.failure_reason).toBe(en)
      expect(quality.details.errors[0].messages).toEqual({ en, fr })
      // Nothing of the refused e-invoice is kept, and it was never tried again.
      expect(await invoice(id)).toMatchObject({ invoice_number: null, business_name: null, einvoice: null })
      expect(retriesOf(id)).toEqual([])
      expect(ctx.logs.filter((l) => l.documentId === id).map((l) => l.msg)).toContain(
        'document refused by the text rule',
      )
    }
  })

  it('removes NUL, a lone surrogate, bidi overrides and invisible characters, and completes the invoice', async () => {
    const id = await uploaded(
      await ublWith({
        seller: 'Evil\u0000&#xD800;&#x202E;fdp.exe&#1;\u200B SARL',
        terms: 'Payable\u2028within 30&#x200F; days',
        item: 'Design\u202E workshop&#xFEFF;',
      }),
    )
    expect(await finished(id)).toMatchObject({ status: 'COMPLETED', errors: [] })
    const body = await invoice(id)
    expect(body.business_name).toBe('Evilfdp.exe SARL')
    expect(body.einvoice.seller.name).toBe('Evilfdp.exe SARL')
    expect(body.einvoice.payment_terms).toBe('Payable within 30 days')
    expect(body.einvoice.lines[0].description).toBe('Design workshop')
    expect(textsOf(body.einvoice).filter(hasUnsafeCharacter)).toEqual([])
    const rows = await (await alice.jar.request(ctx.app, `/api/logs?company_id=${company.id}`)).json()
    expect(rows.find((r: { document_id: number }) => r.document_id === id).supplier).toBe('Evilfdp.exe SARL')
    expect(retriesOf(id)).toEqual([])
  })

  it('refuses a total beyond what the column holds, and reads an impossible date as none', async () => {
    const id = await uploaded(await ublWith({ total: '1E15' }))
    expect(await finished(id)).toMatchObject({
      status: 'FAILED',
      errors: ['einvoice_invalid'],
      messages: ['E-invoice: the total including VAT (BT-112) is out of range'],
    })
    expect(retriesOf(id)).toEqual([])
    const undated = readInvoiceXml(bytes(await ublWith({ issueDate: '2024-02-30' })))
    expect(undated.issue_date).toBeNull()
  })

  it('refuses e-invoice data larger than 4 MB once read (150 000 empty lines in 8 MB of XML)', {
    timeout: 60_000,
  }, async () => {
    const line = '<cac:InvoiceLine><cbc:ID>1</cbc:ID></cac:InvoiceLine>'
    const xml = (await generateInvoiceXml('UBL')).replace('</Invoice>', `${line.repeat(150_000)}</Invoice>`)
    const id = await uploaded(xml)
    expect(await finished(id)).toMatchObject({
      status: 'FAILED',
      errors: ['einvoice_invalid'],
      messages: ['E-invoice: the data read from the XML is larger than 4 MB'],
    })
    expect((await invoice(id)).einvoice).toBeNull()
    expect(retriesOf(id)).toEqual([])
  })

  it('keeps the list and the export of invoices with a 9 MB street name small: they are refused, the term named', {
    timeout: 120_000,
  }, async () => {
    const xml = await ublWith({ street: 'Rue '.repeat(9 * 256 * 1024) })
    expect(xml.length).toBeGreaterThan(9_000_000)
    const ids = [await uploaded(xml), await uploaded(xml)]
    for (const id of ids)
      expect(await finished(id)).toMatchObject({
        status: 'FAILED',
        messages: ['E-invoice: the seller address (BT-35) is longer than 500 characters'],
      })
    const list = await alice.jar.request(ctx.app, `/api/invoices/company?company_id=${company.id}`)
    expect(list.status).toBe(200)
    const listed = await list.text()
    expect(listed.length).toBeLessThan(100_000)
    expect((JSON.parse(listed) as { id: number }[]).map((r) => r.id)).toEqual(expect.arrayContaining(ids))
    const csv = await alice.jar.request(ctx.app, `/api/invoices/export?company_id=${company.id}&format=csv`)
    expect(csv.status).toBe(200)
    expect((await csv.text()).length).toBeLessThan(20_000)
  })
})

describe('the outcome of an e-invoice extraction', () => {
  const extraction = async () => {
    const einvoice = readInvoiceXml(bytes(await generateInvoiceXml('CII')))
    const fields = einvoiceFields(einvoice)
    return { fields, einvoice, pages: 1, textPages: 1, ocrPages: 0, textMs: 1, ocrMs: 0 }
  }

  it('warns einvoice_mismatch when the page prints another total, number or date', async () => {
    const base = await extraction()
    const same = {
      invoice_number: 'FX 2026 0042',
      document_date: SAMPLE.issueDate,
      total_invoice_including_vat: 180,
    }
    expect(extractionExtras({ ...base, visual: same }).warnings).toEqual([])
    for (const visual of [
      { ...same, total_invoice_including_vat: 18 },
      { ...same, invoice_number: 'FX-2026-0043' },
      { ...same, document_date: '2026-11-03' },
    ])
      expect(extractionExtras({ ...base, visual }).warnings).toEqual(['einvoice_mismatch'])
    // Nothing read on the page: nothing to compare.
    expect(extractionExtras({ ...base, visual: null }).warnings).toEqual([])
  })

  it('details which fields differ, and says so in both languages', async () => {
    const base = await extraction()
    const visual = {
      invoice_number: 'FX 2026 0042',
      document_date: '2026-11-03',
      total_invoice_including_vat: 1800.5,
    }
    const { details } = extractionExtras({ ...base, visual })
    expect(details).toEqual({
      einvoice_mismatch: {
        fields: [
          { field: 'document_date', page: '2026-11-03', xml: SAMPLE.issueDate },
          { field: 'total_invoice_including_vat', page: 1800.5, xml: 180 },
        ],
      },
    })
    expect(qualityMessage('einvoice_mismatch', 'en', details.einvoice_mismatch)).toBe(
      `The page differs from the e-invoice data: date 2026-11-03 on the page, ${SAMPLE.issueDate} in the XML; total including VAT 1,800.50 on the page, 180.00 in the XML`,
    )
    expect(qualityMessage('einvoice_mismatch', 'fr', details.einvoice_mismatch)).toMatch(
      /^La page diffère des données de la facture électronique : date .* ; total TTC 1\s800,50 sur la page, 180,00 dans le XML$/,
    )
    // Without details (a document processed before they were kept), the general message.
    expect(qualityMessage('einvoice_mismatch', 'en')).toMatch(/^The invoice number, date or total printed/)
    expect(qualityMessage('einvoice_mismatch', 'en', { fields: [{ field: 'unknown' }] })).toMatch(
      /^The invoice number, date or total printed/,
    )
    expect(qualityMessage('iban_changed', 'en', { previous_iban: 'DE89370400440532013000' })).toContain(
      'before (DE89 3704 0044 0532 0130 00):',
    )
    expect(extractionExtras({ ...base, visual: null }).details).toEqual({})
  })

  it('records the text layer or OCR as the source of a visual reading', async () => {
    const { fields } = await extraction()
    expect(
      extractionExtras({ fields, pages: 1, textPages: 1, ocrPages: 0, textMs: 1, ocrMs: 0 }).fieldSources
        .business_name,
    ).toBe('text')
    expect(
      extractionExtras({ fields, pages: 1, textPages: 0, ocrPages: 1, textMs: 1, ocrMs: 1 }).fieldSources
        .business_name,
    ).toBe('ocr')
  })
})

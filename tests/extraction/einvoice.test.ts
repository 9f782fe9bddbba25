/**
 * E-invoices read from their XML: every public Factur-X / ZUGFeRD original of the e-invoice set
 * at 100 % of its truth fields with no OCR, UBL and CII made by a maintained generator, and the
 * hostile inputs (external entity, entity expansion, 50 MB) refused fast, reading nothing.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkRules, readInvoiceXml, sniffInvoiceRoot } from '../../server/services/einvoice/index.ts'
import { extractDocument, type OcrPool, UnreadableFileError } from '../../server/services/extraction/index.ts'
import { generateCreditNoteXml, generateInvoiceXml, SAMPLE } from '../support/einvoices.ts'
import { CORPORA, FIELDS, fieldMatches, isScored, loadTruth } from './corpus.ts'

/** E-invoices never need OCR: a pool that fails the test if asked. */
const noOcr: OcrPool = {
  recognize: () => Promise.reject(new Error('OCR must not run for an e-invoice')),
  close: async () => {},
}

const bytes = (s: string) => new TextEncoder().encode(s)

async function refusal(xml: string | Uint8Array) {
  const data = typeof xml === 'string' ? bytes(xml) : xml
  const error = await extractDocument(data, 'application/xml', noOcr).then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(UnreadableFileError)
  expect((error as UnreadableFileError).code).toBe('einvoice_invalid')
  return error as UnreadableFileError
}

describe('e-invoice set: the originals read from their embedded XML', () => {
  const lines = loadTruth(CORPORA.einvoices)
  it.each(lines.map((l) => [l.file, l] as const))('%s', async (_file, truth) => {
    const data = readFileSync(join(truth.dir, (truth as unknown as { original: string }).original))
    const result = await extractDocument(new Uint8Array(data), 'application/pdf', noOcr)
    expect(result.einvoice).toBeDefined()
    expect(result.ocrPages).toBe(0)
    for (const field of FIELDS.filter((f) => isScored(f, truth))) {
      const expected = field === 'date' ? truth.fields.invoice_date : truth.fields[field]
      const actual = field === 'date' ? result.fields.document_date : result.fields[field]
      expect(fieldMatches(field, expected, actual ?? null, truth), `${field}: ${String(actual)}`).toBe(true)
    }
    // The public samples pass the EN 16931 rules we check.
    expect(checkRules(result.einvoice!)).toEqual([])
  })

  it('reads the stripped copies (no XML) with the visual engine, not as e-invoices', async () => {
    const truth = lines[0]!
    const pool: OcrPool = { recognize: () => Promise.reject(new Error('no OCR')), close: async () => {} }
    const result = await extractDocument(
      new Uint8Array(readFileSync(join(truth.dir, 'files', truth.file))),
      'application/pdf',
      pool,
    )
    expect(result.einvoice).toBeUndefined()
  })

  it('keeps the sign of a credit note and compares the page with the data', async () => {
    const truth = lines.find((l) => l.variant === 'credit_note')!
    const data = readFileSync(join(truth.dir, (truth as unknown as { original: string }).original))
    const result = await extractDocument(new Uint8Array(data), 'application/pdf', noOcr)
    expect(result.fields.total_invoice_including_vat).toBeLessThan(0)
    expect(result.visual).not.toBeNull()
  })
})

describe('generated e-invoices (@e-invoice-eu/core)', () => {
  it.each(['UBL', 'CII'] as const)('%s: fields, lines, due date and payment terms', async (format) => {
    const xml = await generateInvoiceXml(format)
    const result = await extractDocument(bytes(xml), 'application/xml', noOcr)
    expect(result.fields).toMatchObject({
      invoice_number: SAMPLE.number,
      document_date: SAMPLE.issueDate,
      business_name: SAMPLE.seller,
      business_address: `${SAMPLE.street}, ${SAMPLE.postcode} ${SAMPLE.city}`,
      vat_number: SAMPLE.sellerVat,
      iban: SAMPLE.iban,
      currency: 'EUR',
      has_vat: true,
      total_charge_excluding_vat: SAMPLE.excl,
      total_vat_amount: SAMPLE.vat,
      total_invoice_including_vat: SAMPLE.incl,
    })
    const inv = result.einvoice!
    expect(inv.syntax).toBe(format)
    expect(inv.due_date).toBe(SAMPLE.dueDate)
    expect(inv.payment_terms).toBe(SAMPLE.terms)
    expect(inv.buyer.name).toBe(SAMPLE.buyer)
    expect(inv.lines.map((l) => [l.description, l.quantity, l.unit_price, l.net_amount, l.vat_rate])).toEqual(
      SAMPLE.lines.map((l) => [l.description, l.quantity, l.price, l.net, 20]),
    )
    expect(checkRules(inv)).toEqual([])
  })

  it('a UBL CreditNote is a credit note', async () => {
    const inv = readInvoiceXml(bytes(await generateCreditNoteXml()))
    expect(inv).toMatchObject({ credit_note: true, type_code: '381', number: SAMPLE.number })
    expect(inv.lines).toHaveLength(2)
  })

  it('breaking the arithmetic and the mandatory terms gives the rules’ codes', async () => {
    const xml = (await generateInvoiceXml('CII'))
      .replace(/<ram:GrandTotalAmount>180.00</, '<ram:GrandTotalAmount>181.00<')
      .replace(/<ram:TaxTotalAmount currencyID="EUR">30.00</, '<ram:TaxTotalAmount currencyID="EUR">31.00<')
      .replace(
        /<ram:LineTotalAmount>150.00<\/ram:LineTotalAmount>\s*<ram:TaxBasis/,
        '<ram:LineTotalAmount>149.00</ram:LineTotalAmount><ram:TaxBasis',
      )
      .replace(/<ram:BuyerTradeParty>\s*<ram:Name>[^<]*<\/ram:Name>/, '<ram:BuyerTradeParty>')
    const codes = checkRules(readInvoiceXml(bytes(xml)))
    expect(codes).toEqual(
      expect.arrayContaining([
        'einvoice_br_07',
        'einvoice_br_co_10',
        'einvoice_br_co_13',
        'einvoice_br_co_14',
      ]),
    )
  })

  it('recognises an e-invoice by its root element and namespace, not by anything else', async () => {
    expect(sniffInvoiceRoot(await generateInvoiceXml('UBL'))).toBe('ubl-invoice')
    expect(sniffInvoiceRoot(await generateInvoiceXml('CII'))).toBe('cii')
    expect(sniffInvoiceRoot('<?xml version="1.0"?><Invoice><ID>1</ID></Invoice>')).toBeNull()
    expect(sniffInvoiceRoot('<svg xmlns="http://www.w3.org/2000/svg"></svg>')).toBeNull()
    expect(sniffInvoiceRoot('%PDF-1.7')).toBeNull()
  })
})

const UBL_OPEN =
  '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">'

describe('hostile XML is refused before parsing', () => {
  it('an external entity (XXE) reads no file', async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${UBL_OPEN}<cbc:ID>&xxe;</cbc:ID></Invoice>`
    const error = await refusal(xxe)
    expect(error.message).toMatch(/DOCTYPE/)
    expect(error.message).not.toMatch(/root:/)
  })

  it('entity expansion (billion laughs) is refused in milliseconds', async () => {
    const defs = ['<!ENTITY lol "lol">']
    for (let i = 1; i <= 9; i++) defs.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`)
    const bomb = `<?xml version="1.0"?><!DOCTYPE Invoice [${defs.join('')}]>${UBL_OPEN}<cbc:ID>&lol9;</cbc:ID></Invoice>`
    const started = performance.now()
    await refusal(bomb)
    expect(performance.now() - started).toBeLessThan(200)
  })

  it('a 50 MB XML is refused by its size without being decoded', async () => {
    const filler = Buffer.alloc(50 * 1024 * 1024, 'a')
    const data = new Uint8Array(Buffer.concat([Buffer.from(`${UBL_OPEN}<cbc:Note>`), filler]))
    const heapBefore = process.memoryUsage().heapUsed
    const started = performance.now()
    const error = await refusal(data)
    expect(error.message).toMatch(/larger than 10 MB/)
    expect(performance.now() - started).toBeLessThan(200)
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(20 * 1024 * 1024)
  })

  it('malformed XML and other XML are refused with a reason', async () => {
    expect((await refusal(`${UBL_OPEN}<cbc:ID>1</cbc:ID>`)).message).toMatch(/malformed|content/)
    expect((await refusal('<?xml version="1.0"?><note>hello</note>')).message).toMatch(/not a UBL or CII/)
  })
})

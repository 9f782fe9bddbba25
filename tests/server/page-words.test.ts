/**
 * `GET /api/documents/{id}/pages/{n}/words`: the words of a processed page with their boxes (the
 * text layer of a PDF, OCR on a scanned PDF and on a PNG), stored when processing finishes;
 * company-scoped, 400 for a page that is no number, 404 for a page the document does not have.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getDocumentProxy } from 'unpdf'
import { beforeAll, describe, expect, it } from 'vitest'
import { storePageWords } from '../../server/services/documents/page-words.ts'
import { corpusFile, insertCompany, memberOf, multipart, waitFor } from './documents-support.ts'
import { pipelineFixture } from './pipeline-fixture.ts'
import { insertProcessed } from './review-support.ts'

const f = pipelineFixture('docflow-words-')
type Box = [number, number, number, number]
type Words = { width: number; height: number; words: { text: string; box: Box }[] }

const ids = { text: 0, scan: 0, png: 0, facturx: 0 }
/** A Factur-X PDF (its fields come from its XML; its page still has a text layer). */
const FACTURX = join(
  import.meta.dirname,
  '../../../shared/corpus-einvoices/originals/0001-en-mustang-508.pdf',
)

async function upload(name: string, data?: Uint8Array): Promise<number> {
  const res = await f.member.jar.request(
    f.ctx.app,
    '/api/documents/upload',
    multipart(
      { documentType: 'invoice', category: 'Invoices', company_id: String(f.companyId) },
      { name, data: data ?? (await corpusFile(name)) },
    ),
  )
  expect(res.status).toBe(201)
  return (await res.json()).id
}

const get = (path: string, jar = f.member.jar) => jar.request(f.ctx.app, path)
const wordsOf = (id: number, page: number | string = 1, companyId = f.companyId) =>
  get(`/api/documents/${id}/pages/${page}/words?company_id=${companyId}`)
const invoice = async (id: number) =>
  (await get(`/api/invoices/${id}?company_id=${f.companyId}`)).json() as Promise<{
    invoice_number: string
    field_evidence: Record<string, { page: number; box: Box }>
  }>

const inside = (box: Box, x: number, y: number, slack = 0.005) =>
  x >= box[0] - slack && x <= box[2] + slack && y >= box[1] - slack && y <= box[3] + slack
const centre = (box: Box) => [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2] as const

beforeAll(async () => {
  // OCR takes seconds on a busy machine: a job is given time enough not to expire.
  await f.ctx.startWorkers(undefined, { expireInSeconds: 120 })
  ids.text = await upload('0002-facture.pdf')
  ids.scan = await upload('0017-invoice-scan.pdf')
  ids.png = await upload('0032-scan.png')
  ids.facturx = await upload('facturx.pdf', await readFile(FACTURX))
  for (const id of Object.values(ids))
    await waitFor(async () => ((await f.row(id)).status === 'PROCESSING' ? null : true), 120_000)
  for (const id of Object.values(ids)) expect((await f.row(id)).status).toBe('COMPLETED')
}, 180_000)

describe('the words of a page', () => {
  it("places a text-layer PDF's words where pdf.js prints them, the invoice number on its evidence", async () => {
    const res = await wordsOf(ids.text)
    expect(res.status).toBe(200)
    const page = (await res.json()) as Words
    // A4 in points.
    expect(page.width).toBeCloseTo(595.28, 0)
    expect(page.height).toBeCloseTo(841.89, 0)
    expect(page.words.length).toBeGreaterThan(50)
    for (const w of page.words) {
      expect(w.text).not.toMatch(/\s/)
      expect(w.box[2]).toBeGreaterThan(w.box[0])
      expect(w.box[3]).toBeGreaterThan(w.box[1])
      for (const v of w.box) expect(v).toBeGreaterThanOrEqual(0)
      for (const v of w.box) expect(v).toBeLessThanOrEqual(1)
    }
    const record = await invoice(ids.text)
    const number = record.invoice_number
    expect(number).toBeTruthy()
    const word = page.words.find((w) => w.text === number)
    expect(word).toBeDefined()
    // The word covers the value's evidence box, and the evidence covers the word.
    const evidence = record.field_evidence.invoice_number!
    expect(evidence.page).toBe(1)
    expect(inside(evidence.box, ...centre(word!.box))).toBe(true)
    expect(inside(word!.box, ...centre(evidence.box))).toBe(true)

    // Where pdf.js itself prints the number: the middle of its text item, just above the baseline.
    const pdf = await getDocumentProxy(new Uint8Array(await corpusFile('0002-facture.pdf')))
    const pdfPage = await pdf.getPage(1)
    const viewport = pdfPage.getViewport({ scale: 1 })
    const items = (await pdfPage.getTextContent()).items.filter(
      (i): i is typeof i & { str: string; transform: number[]; width: number; height: number } =>
        'str' in i && i.str.includes(number),
    )
    expect(items.length).toBeGreaterThan(0)
    const item = items[0]!
    const start = item.str.indexOf(number)
    const perChar = item.width / item.str.length
    const x = (item.transform[4]! + perChar * (start + number.length / 2)) / viewport.width
    const y = (viewport.height - item.transform[5]! - item.height * 0.3) / viewport.height
    expect(inside(word!.box, x, y)).toBe(true)
    await pdf.destroy()
  })

  it("gives a scanned PDF's OCR words in points, the invoice number among them", async () => {
    const res = await wordsOf(ids.scan)
    expect(res.status).toBe(200)
    const page = (await res.json()) as Words
    expect(page.width).toBeCloseTo(595.28, 0)
    expect(page.height).toBeCloseTo(841.89, 0)
    const record = await invoice(ids.scan)
    expect(record.invoice_number).toBe('INV-2025-8930')
    const word = page.words.find((w) => w.text.includes('INV-2025-8930'))
    expect(word).toBeDefined()
    const evidence = record.field_evidence.invoice_number
    expect(evidence).toBeDefined()
    expect(inside(evidence!.box, ...centre(word!.box), 0.02)).toBe(true)
    // In the top half of the page, in its right half or left: the header, not the totals.
    expect(word!.box[1]).toBeLessThan(0.5)
  })

  it("gives a PNG's OCR words with the image's size in pixels", async () => {
    const png = await corpusFile('0032-scan.png')
    const res = await wordsOf(ids.png)
    expect(res.status).toBe(200)
    const page = (await res.json()) as Words
    expect(page.width).toBe(png.readUInt32BE(16))
    expect(page.height).toBe(png.readUInt32BE(20))
    expect(page.words.length).toBeGreaterThan(20)
    const record = await invoice(ids.png)
    expect(record.invoice_number).toBe('INV-38035')
    const word = page.words.find((w) => w.text.includes('INV-38035'))
    expect(word).toBeDefined()
    expect(word!.box[1]).toBeLessThan(0.5)
  })

  it("gives an e-invoice PDF's text-layer words, though its fields come from its XML", async () => {
    const res = await wordsOf(ids.facturx)
    expect(res.status).toBe(200)
    const page = (await res.json()) as Words
    expect(page.width).toBeGreaterThan(500)
    expect(page.words.length).toBeGreaterThan(20)
    const record = await invoice(ids.facturx)
    expect(page.words.map((w) => w.text).join(' ')).toContain(record.invoice_number)
  })

  it('answers 404 for a page the document does not have, and 400 for a page that is no number', async () => {
    const beyond = await wordsOf(ids.text, 2)
    expect(beyond.status).toBe(404)
    expect(await beyond.json()).toEqual({ message: 'Page not found' })
    for (const bad of ['0', 'abc', '-1', '1.5']) {
      const res = await wordsOf(ids.text, bad)
      expect(res.status, bad).toBe(400)
      expect((await res.json()).message).toEqual(expect.any(String))
    }
    const noDocument = await wordsOf(2_000_000_000)
    expect(noDocument.status).toBe(404)
    const badId = await get(`/api/documents/abc/pages/1/words?company_id=${f.companyId}`)
    expect(badId.status).toBe(400)
    const noCompany = await get(`/api/documents/${ids.text}/pages/1/words`)
    expect(noCompany.status).toBe(400)
    expect((await noCompany.json()).detail).toEqual([
      { field: 'company_id', message: 'Company ID is required' },
    ])
  })

  it("answers 404 for another company's document, to its members and with its own company_id", async () => {
    const other = await insertCompany(f.database.db)
    const outsider = await memberOf(f.database.db, f.ctx.app, other.id)
    // The outsider's own company: the document is not there.
    const own = await wordsOf(ids.text, 1, other.id)
    expect(own.status).toBe(404)
    const asOutsider = await get(
      `/api/documents/${ids.text}/pages/1/words?company_id=${other.id}`,
      outsider.jar,
    )
    expect(asOutsider.status).toBe(404)
    expect(await asOutsider.json()).toEqual({ message: 'Document not found' })
    // The document's company, which the outsider does not belong to.
    const theirs = await get(
      `/api/documents/${ids.text}/pages/1/words?company_id=${f.companyId}`,
      outsider.jar,
    )
    expect(theirs.status).toBe(404)
    expect(await theirs.json()).toEqual({ message: 'Company not found' })
  })

  it('answers 404, saying why, for a document processed before words were kept', async () => {
    const old = await insertProcessed(f.database.db, f.companyId, { pages: 1 })
    const res = await wordsOf(old.id)
    expect(res.status).toBe(404)
    expect((await res.json()).message).toMatch(/No words are stored/)
    // The same document with its words stored answers them.
    await f.database.db.transaction((tx) =>
      storePageWords(tx, old.id, [
        { page: 1, width: 100, height: 200, words: [{ text: 'Total\u0000', box: [0.1, 0.2, 0.3, 0.25] }] },
      ]),
    )
    const stored = await wordsOf(old.id)
    expect(stored.status).toBe(200)
    // What the file held is stored under the text rule (PostgreSQL cannot hold a NUL).
    expect(await stored.json()).toEqual({
      width: 100,
      height: 200,
      words: [{ text: 'Total', box: [0.1, 0.2, 0.3, 0.25] }],
    })
  })
})

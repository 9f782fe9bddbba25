import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documents, logs } from '../../server/db/schema.ts'
import { dashboardRows } from '../../server/services/documents/lifecycle/document-service.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import {
  corpusFile,
  createPipelineApp,
  insertCompany,
  memberOf,
  multipart,
  waitFor,
} from './documents-support.ts'
import { jsonBody } from './helpers.ts'

let database: TestDatabase
let root: string
let ctx: Awaited<ReturnType<typeof createPipelineApp>>
let companyA: { id: number }
let companyB: { id: number }
let alice: Awaited<ReturnType<typeof memberOf>>
let bob: Awaited<ReturnType<typeof memberOf>>
let admin: Awaited<ReturnType<typeof memberOf>>
let invoicePdf: Buffer
let expensePdf: Buffer

beforeAll(async () => {
  database = await createTestDatabase()
  root = await mkdtemp(join(tmpdir(), 'docflow-docs-'))
  ctx = await createPipelineApp(database.db, root, { env: { MAX_UPLOAD_MB: '1' } })
  companyA = await insertCompany(database.db, 'Alpha')
  companyB = await insertCompany(database.db, 'Beta')
  alice = await memberOf(database.db, ctx.app, companyA.id)
  bob = await memberOf(database.db, ctx.app, companyB.id)
  admin = await memberOf(database.db, ctx.app, null, 'SAAS_ADMIN')
  invoicePdf = await corpusFile('0002-facture.pdf')
  expensePdf = await corpusFile('0004-ticket.pdf')
  await ctx.startWorkers()
})
afterAll(async () => {
  await ctx?.close()
  await database?.close()
  await rm(root, { recursive: true, force: true })
})

const uploadInvoice = (
  jar = alice.jar,
  companyId = companyA.id,
  data: Uint8Array = invoicePdf,
  order?: 'file-first',
) =>
  jar.request(
    ctx.app,
    '/api/documents/upload',
    multipart(
      { documentType: 'invoice', category: 'Invoices', company_id: String(companyId) },
      { name: 'facture.pdf', data },
      order,
    ),
  )

async function finished(kind: 'invoice' | 'expense', id: number, jar = alice.jar, companyId = companyA.id) {
  return waitFor(async () => {
    const res = await jar.request(ctx.app, `/api/api/document/${kind}/${id}/status?company_id=${companyId}`)
    const body = await res.json()
    return body.status === 'PROCESSING' ? null : body
  })
}

describe('uploads', () => {
  it('answers 401 to an anonymous upload and stores nothing', async () => {
    const before = await ctx.storedFiles()
    const res = await ctx.app.request(
      '/api/documents/upload',
      multipart(
        { documentType: 'invoice', company_id: String(companyA.id) },
        { name: 'a.pdf', data: invoicePdf },
      ),
    )
    expect(res.status).toBe(401)
    expect(await ctx.storedFiles()).toEqual(before)
  })

  it('processes an invoice: PROCESSING, then COMPLETED with its fields, log entry following', async () => {
    const res = await uploadInvoice()
    expect(res.status).toBe(201)
    const { id, status } = await res.json()
    expect(status).toBe('PROCESSING')
    const [log] = await dashboardRows(database.db).where(eq(logs.documentId, id))
    expect(log).toMatchObject({ type: 'Invoice', category: 'Invoices', name: 'facture.pdf' })
    const done = await finished('invoice', id)
    expect(done).toMatchObject({ id, status: 'COMPLETED', errors: [] })
    const invoice = await (
      await alice.jar.request(ctx.app, `/api/invoices/${id}?company_id=${companyA.id}`)
    ).json()
    expect(invoice).toMatchObject({
      id,
      invoice_number: 'FA-2026-0621',
      invoice_date: '2026-07-17',
      business_name: 'Alpinea Expertise SARL',
      vat_number: 'FR87799693148',
      currency: 'EUR',
      total_invoice_including_vat: 12508.2,
      original_file_name: 'facture.pdf',
    })
    const [after] = await dashboardRows(database.db).where(eq(logs.documentId, id))
    expect(after?.status).toBe('completed')
  })

  it('accepts the file before company_id in the multipart body', async () => {
    const res = await uploadInvoice(alice.jar, companyA.id, invoicePdf, 'file-first')
    expect(res.status).toBe(201)
  })

  it('warns on the second upload of the same invoice (duplicate), not on the first', async () => {
    const company = await insertCompany(database.db)
    const carol = await memberOf(database.db, ctx.app, company.id)
    const first = (await (await uploadInvoice(carol.jar, company.id)).json()).id
    await finished('invoice', first, carol.jar, company.id)
    const second = (await (await uploadInvoice(carol.jar, company.id)).json()).id
    await finished('invoice', second, carol.jar, company.id)
    const q1 = await (
      await carol.jar.request(ctx.app, `/api/invoices/${first}/quality-data?company_id=${company.id}`)
    ).json()
    const q2 = await (
      await carol.jar.request(ctx.app, `/api/invoices/${second}/quality-data?company_id=${company.id}`)
    ).json()
    expect(q1.warnings).toEqual([])
    expect(q2).toMatchObject({ invoice_id: second, status: 'COMPLETED', errors: [], warnings: ['duplicate'] })
    expect(q2.details.warnings[0].messages.fr).toMatch(/Doublon/)
  })

  it("answers 404 for another company's company_id and leaves nothing stored", async () => {
    const before = await ctx.storedFiles()
    for (const order of [undefined, 'file-first'] as const) {
      const res = await uploadInvoice(bob.jar, companyA.id, invoicePdf, order)
      expect(res.status).toBe(404)
    }
    expect(await ctx.storedFiles()).toEqual(before)
  })

  it('refuses by content: a text file as invoice, a PNG as expense (415); a document takes anything', async () => {
    const text = new TextEncoder().encode('hello, not a pdf at all')
    const bad = await uploadInvoice(alice.jar, companyA.id, text)
    expect(bad.status).toBe(415)
    expect((await bad.json()).message).toMatch(/PDF/)
    const png = await corpusFile('0032-scan.png')
    const expense = await alice.jar.request(
      ctx.app,
      '/api/expenses/upload',
      multipart({ document_type: 'expense', company_id: String(companyA.id) }, { name: 'x.pdf', data: png }),
    )
    expect(expense.status).toBe(415)
    expect(await expense.json()).toEqual({ message: 'Only PDF files are supported for expenses' })
    const doc = await alice.jar.request(
      ctx.app,
      '/api/documents/upload',
      multipart(
        { documentType: 'document', category: 'RH', company_id: String(companyA.id) },
        { name: 'notes.txt', data: text },
      ),
    )
    expect(doc.status).toBe(201)
    expect(await doc.json()).toMatchObject({ status: 'COMPLETED' })
  })

  it('answers 413 above MAX_UPLOAD_MB and removes the partial file', async () => {
    const before = await ctx.storedFiles()
    const big = new Uint8Array(1.5 * 1024 * 1024)
    big.set(new TextEncoder().encode('%PDF-1.7\n'))
    const res = await uploadInvoice(alice.jar, companyA.id, big)
    expect(res.status).toBe(413)
    expect(await ctx.storedFiles()).toEqual(before)
  })

  it('answers 400 naming the fields for bad input', async () => {
    const noFile = await alice.jar.request(
      ctx.app,
      '/api/documents/upload',
      multipart({ documentType: 'invoice', company_id: String(companyA.id) }, null),
    )
    expect(noFile.status).toBe(400)
    expect((await noFile.json()).detail).toEqual([{ field: 'file', message: expect.any(String) }])
    const badCategory = await alice.jar.request(
      ctx.app,
      '/api/documents/upload',
      multipart(
        { documentType: 'document', category: 'Nope', company_id: String(companyA.id) },
        { name: 'a', data: invoicePdf },
      ),
    )
    expect(badCategory.status).toBe(400)
    const noCompany = await alice.jar.request(
      ctx.app,
      '/api/documents/upload',
      multipart({ documentType: 'invoice' }, { name: 'a.pdf', data: invoicePdf }),
    )
    expect(noCompany.status).toBe(400)
    expect((await noCompany.json()).detail).toEqual([{ field: 'company_id', message: expect.any(String) }])
  })

  it('marks an unreadable PDF FAILED with a reason', async () => {
    const broken = new TextEncoder().encode('%PDF-1.4\nthis is not really a pdf\n%%EOF')
    const { id } = await (await uploadInvoice(alice.jar, companyA.id, broken)).json()
    const done = await finished('invoice', id)
    expect(done).toMatchObject({ status: 'FAILED', errors: ['unreadable_file'] })
  })
})

describe('expenses, invoices and documents reads', () => {
  let expenseId: number
  let invoiceId: number
  beforeAll(async () => {
    const res = await alice.jar.request(
      ctx.app,
      '/api/expenses/upload',
      multipart(
        { document_type: 'expense', company_id: String(companyA.id) },
        { name: 'ticket.pdf', data: expensePdf },
      ),
    )
    expenseId = (await res.json()).id
    await finished('expense', expenseId)
    invoiceId = (await (await uploadInvoice()).json()).id
    await finished('invoice', invoiceId)
  })

  it('reads an expense, its quality data, its file, lists by company and by status', async () => {
    const q = `company_id=${companyA.id}`
    const expense = await (await alice.jar.request(ctx.app, `/api/expenses/${expenseId}?${q}`)).json()
    expect(expense).toMatchObject({
      id: expenseId,
      status: 'COMPLETED',
      expense_date: '2026-11-01',
      total_invoice_including_vat: 175.3,
    })
    const quality = await (
      await alice.jar.request(ctx.app, `/api/expenses/${expenseId}/quality-data?${q}`)
    ).json()
    expect(quality).toMatchObject({ expense_id: expenseId, errors: [], warnings: [] })
    const file = await alice.jar.request(ctx.app, `/api/expenses/expense/${expenseId}/download?${q}`)
    expect(file.headers.get('content-type')).toBe('application/pdf')
    expect(Buffer.from(await file.arrayBuffer()).equals(expensePdf)).toBe(true)
    const list = await (await alice.jar.request(ctx.app, `/api/expenses/company?${q}`)).json()
    expect(list.map((e: { id: number }) => e.id)).toContain(expenseId)
    const completed = await (await alice.jar.request(ctx.app, `/api/expenses/status/COMPLETED?${q}`)).json()
    expect(completed.map((e: { id: number }) => e.id)).toContain(expenseId)
    const bad = await alice.jar.request(ctx.app, `/api/expenses/status/WHATEVER?${q}`)
    expect(bad.status).toBe(400)
  })

  it('reads invoices: detail, download, by company, by status with company_id in the path', async () => {
    const q = `company_id=${companyA.id}`
    expect((await alice.jar.request(ctx.app, `/api/invoices/${invoiceId}?${q}`)).status).toBe(200)
    const file = await alice.jar.request(ctx.app, `/api/invoices/invoice/${invoiceId}/download?${q}`)
    expect(Buffer.from(await file.arrayBuffer()).equals(invoicePdf)).toBe(true)
    const list = await (await alice.jar.request(ctx.app, `/api/invoices/company?${q}`)).json()
    expect(list.every((i: { company_id: number }) => i.company_id === companyA.id)).toBe(true)
    const byStatus = await alice.jar.request(
      ctx.app,
      `/api/invoices/status/COMPLETED/company_id/${companyA.id}`,
    )
    expect((await byStatus.json()).map((i: { id: number }) => i.id)).toContain(invoiceId)
    expect(
      (await bob.jar.request(ctx.app, `/api/invoices/status/COMPLETED/company_id/${companyA.id}`)).status,
    ).toBe(404)
  })

  it("answers 404 for another company's ids and for the wrong kind, 401 anonymous", async () => {
    const paths = [
      `/api/expenses/${expenseId}`,
      `/api/expenses/${expenseId}/quality-data`,
      `/api/expenses/expense/${expenseId}/download`,
      `/api/invoices/${invoiceId}`,
      `/api/invoices/invoice/${invoiceId}/download`,
      `/api/documents/${invoiceId}`,
      `/api/api/document/invoice/${invoiceId}/status`,
    ]
    for (const path of paths) {
      // Bob asks with his own company: the id belongs to another company.
      expect((await bob.jar.request(ctx.app, `${path}?company_id=${companyB.id}`)).status, path).toBe(404)
      // Bob asks with Alice's company: not his.
      expect((await bob.jar.request(ctx.app, `${path}?company_id=${companyA.id}`)).status, path).toBe(404)
      expect((await ctx.app.request(`${path}?company_id=${companyA.id}`)).status, path).toBe(401)
    }
    expect(
      (await alice.jar.request(ctx.app, `/api/invoices/${expenseId}?company_id=${companyA.id}`)).status,
    ).toBe(404)
    expect((await alice.jar.request(ctx.app, `/api/invoices/abc?company_id=${companyA.id}`)).status).toBe(400)
    // A platform administrator sees any existing company.
    expect(
      (await admin.jar.request(ctx.app, `/api/invoices/${invoiceId}?company_id=${companyA.id}`)).status,
    ).toBe(200)
    expect((await admin.jar.request(ctx.app, `/api/invoices/${invoiceId}?company_id=999999`)).status).toBe(
      404,
    )
  })

  it('answers the bulk status, the processing list and the paged document list', async () => {
    const q = `company_id=${companyA.id}`
    const bulk = await alice.jar.request(
      ctx.app,
      `/api/api/documents/status?kind=invoice&${q}&document_ids=${invoiceId}&document_ids=${expenseId}`,
    )
    expect(await bulk.json()).toEqual([{ id: invoiceId, status: 'COMPLETED', errors: [], messages: [] }])
    expect((await alice.jar.request(ctx.app, `/api/api/documents/status?kind=invoice&${q}`)).status).toBe(400)
    const processing = await alice.jar.request(ctx.app, `/api/api/documents/processing?${q}`)
    expect(Array.isArray(await processing.json())).toBe(true)
    const page = await (await alice.jar.request(ctx.app, `/api/documents?${q}&page=1&limit=2`)).json()
    expect(page).toMatchObject({ page: 1, limit: 2 })
    expect(page.items).toHaveLength(2)
    expect(page.total).toBeGreaterThan(2)
    const doc = await (await alice.jar.request(ctx.app, `/api/documents/${expenseId}?${q}`)).json()
    expect(doc).toMatchObject({ id: expenseId, document_type: 'expense', category: 'Expenses' })
  })

  it('deletes a document with its file and its log entry', async () => {
    const { id } = await (await uploadInvoice()).json()
    await finished('invoice', id)
    const [row] = await database.db.select().from(documents).where(eq(documents.id, id))
    expect(
      (await bob.jar.request(ctx.app, `/api/invoices/${id}?company_id=${companyB.id}`, { method: 'DELETE' }))
        .status,
    ).toBe(404)
    const res = await alice.jar.request(ctx.app, `/api/invoices/${id}?company_id=${companyA.id}`, {
      method: 'DELETE',
    })
    expect(res.status).toBe(200)
    expect(await ctx.storage.stat(row!.storageKey)).toBeNull()
    expect(await dashboardRows(database.db).where(eq(logs.documentId, id))).toEqual([])
    expect(
      (
        await alice.jar.request(ctx.app, `/api/documents/${id}?company_id=${companyA.id}`, {
          method: 'DELETE',
        })
      ).status,
    ).toBe(404)
  })
})

describe('logs and dashboard', () => {
  let logId: number
  const body = (extra: Record<string, unknown> = {}) => jsonBody({ company_id: companyA.id, ...extra })

  it('creates, reads, patches the status of a log entry', async () => {
    const res = await alice.jar.request(
      ctx.app,
      '/api/logs',
      body({ name: 'Report Q3.pdf', type: 'Document', status: 'pending', category: 'RH' }),
    )
    expect(res.status).toBe(201)
    const created = await res.json()
    logId = created.id
    expect(created).toMatchObject({
      name: 'Report Q3.pdf',
      type: 'Document',
      status: 'pending',
      documentName: 'Report Q3.pdf',
    })
    expect((await alice.jar.request(ctx.app, `/api/logs/${logId}?company_id=${companyA.id}`)).status).toBe(
      200,
    )
    const patched = await alice.jar.request(ctx.app, `/api/logs/${logId}/status`, {
      ...body({ status: 'FAILED' }),
      method: 'PATCH',
    })
    expect(await patched.json()).toMatchObject({ id: logId, status: 'failed' })
    const bad = await alice.jar.request(ctx.app, `/api/logs/${logId}/status`, {
      ...body({ status: 'nope' }),
      method: 'PATCH',
    })
    expect(bad.status).toBe(400)
    expect((await alice.jar.request(ctx.app, '/api/logs', body({ type: 'Invoice' }))).status).toBe(400)
  })

  it('lists with filters, sort and search; other companies see nothing', async () => {
    const q = `company_id=${companyA.id}`
    const all = await (await alice.jar.request(ctx.app, `/api/logs?${q}`)).json()
    expect(all.length).toBeGreaterThan(3)
    const failed = await (await alice.jar.request(ctx.app, `/api/logs?${q}&status=FAILED`)).json()
    expect(failed.every((l: { status: string }) => l.status === 'failed')).toBe(true)
    const invoices = await (await alice.jar.request(ctx.app, `/api/logs?${q}&element_type=invoice`)).json()
    expect(invoices.every((l: { type: string }) => l.type === 'Invoice')).toBe(true)
    const byName = await (
      await alice.jar.request(ctx.app, `/api/logs?${q}&sort_by=name&sort_order=asc`)
    ).json()
    const names = byName.map((l: { name: string }) => l.name.toLowerCase())
    expect(names).toEqual([...names].sort())
    const found = await (await alice.jar.request(ctx.app, `/api/logs?${q}&search_term=%20report%20`)).json()
    expect(found.map((l: { id: number }) => l.id)).toEqual([logId])
    const recent = await (
      await alice.jar.request(
        ctx.app,
        `/api/logs?${q}&last_days=7&start_date=2000-01-01T00:00:00Z&end_date=2999-01-01T00:00:00Z`,
      )
    ).json()
    expect(recent.length).toBe(all.length)
    expect((await alice.jar.request(ctx.app, `/api/logs?${q}&sort_by=password`)).status).toBe(400)
    expect((await alice.jar.request(ctx.app, `/api/logs?${q}&start_date=yesterday`)).status).toBe(400)
    expect((await bob.jar.request(ctx.app, `/api/logs?${q}`)).status).toBe(404)
    expect((await bob.jar.request(ctx.app, `/api/logs/${logId}?company_id=${companyB.id}`)).status).toBe(404)
    expect((await ctx.app.request(`/api/logs?${q}`)).status).toBe(401)
  })

  it('answers the dashboard calls with the same filters in a JSON body', async () => {
    const data = await (
      await alice.jar.request(ctx.app, '/api/dashboard/data', body({ status: 'FAILED' }))
    ).json()
    expect(data.every((l: { status: string; date: string }) => l.status === 'failed' && l.date)).toBe(true)
    const search = await (
      await alice.jar.request(ctx.app, '/api/dashboard/search', body({ search_term: 'report' }))
    ).json()
    expect(search.map((l: { id: number }) => l.id)).toEqual([logId])
    expect((await bob.jar.request(ctx.app, '/api/dashboard/data', body())).status).toBe(404)
  })

  it('answers pages: limit and offset follow the order, X-Has-More says whether another page follows', async () => {
    const q = `company_id=${companyA.id}&sort_by=name&sort_order=asc`
    const all = (await (await alice.jar.request(ctx.app, `/api/logs?${q}`)).json()) as { id: number }[]
    expect(all.length).toBeGreaterThan(3)
    const first = await alice.jar.request(ctx.app, `/api/logs?${q}&limit=2`)
    expect(first.headers.get('X-Has-More')).toBe('true')
    const second = await alice.jar.request(ctx.app, `/api/logs?${q}&limit=2&offset=2`)
    const pages = [...(await first.json()), ...(await second.json())].map((l: { id: number }) => l.id)
    expect(pages).toEqual(all.slice(0, 4).map((l) => l.id))
    const last = await alice.jar.request(ctx.app, `/api/logs?${q}&limit=2&offset=${all.length - 1}`)
    expect(last.headers.get('X-Has-More')).toBe('false')
    expect((await last.json()).map((l: { id: number }) => l.id)).toEqual([all.at(-1)!.id])
    const data = await alice.jar.request(
      ctx.app,
      '/api/dashboard/data',
      body({ sort_by: 'name', sort_order: 'asc', limit: 1, offset: 1 }),
    )
    expect((await data.json()).map((l: { id: number }) => l.id)).toEqual([all[1]!.id])
    expect(data.headers.get('X-Has-More')).toBe('true')
    for (const bad of ['limit=0', 'limit=1001', 'limit=2.5', 'offset=-1', 'offset=x']) {
      const res = await alice.jar.request(ctx.app, `/api/logs?${q}&${bad}`)
      expect(res.status, bad).toBe(400)
      expect((await res.json()).detail[0].field).toBe(bad.split('=')[0])
    }
  })

  it('counts the summary over every row of the company, not a page of it', async () => {
    const fresh = await insertCompany(database.db, 'Summary Co')
    const member = await memberOf(database.db, ctx.app, fresh.id)
    const statuses = ['pending', 'processing', 'completed', 'failed', 'rejected'] as const
    await database.db.insert(logs).values(
      Array.from({ length: 1203 }, (_, i) => ({
        companyId: fresh.id,
        name: `row-${i}.pdf`,
        type: 'Invoice' as const,
        status: statuses[i % 5]!,
      })),
    )
    const res = await member.jar.request(ctx.app, `/api/logs/summary?company_id=${fresh.id}`)
    // 1203 rows: 241 of each of the first three statuses, 240 of the last two.
    // None of them is a document: nothing to review.
    expect(await res.json()).toEqual({ total: 1203, pending: 241 + 241, failed: 240 + 240, to_review: 0 })
    const list = await member.jar.request(ctx.app, `/api/logs?company_id=${fresh.id}`)
    expect((await list.json()).length).toBe(1000)
    expect(list.headers.get('X-Has-More')).toBe('true')
    expect((await alice.jar.request(ctx.app, `/api/logs/summary?company_id=${fresh.id}`)).status).toBe(404)
  })

  it('searches name, category and type in one text, with % and _ taken literally', async () => {
    const fresh = await insertCompany(database.db, 'Search Co')
    const member = await memberOf(database.db, ctx.app, fresh.id)
    await database.db.insert(logs).values([
      {
        companyId: fresh.id,
        name: 'Q3 100% paid.pdf',
        type: 'Document',
        status: 'completed',
        category: 'RH',
      },
      {
        companyId: fresh.id,
        name: 'q3_report.pdf',
        type: 'Invoice',
        status: 'completed',
        category: 'Invoices',
      },
      { companyId: fresh.id, name: 'other.pdf', type: 'Expense', status: 'failed', category: 'Expenses' },
    ])
    const search = async (term: string) =>
      (
        (await (
          await member.jar.request(
            ctx.app,
            `/api/logs?company_id=${fresh.id}&sort_by=name&sort_order=asc&search_term=${encodeURIComponent(term)}`,
          )
        ).json()) as { name: string }[]
      ).map((l) => l.name)
    expect(await search('100%')).toEqual(['Q3 100% paid.pdf'])
    expect(await search('Q3_')).toEqual(['q3_report.pdf'])
    expect(await search('EXPENSE')).toEqual(['other.pdf'])
    expect(await search('rh')).toEqual(['Q3 100% paid.pdf'])
    expect(await search('invoices')).toEqual(['q3_report.pdf'])
  })

  it('lets only a platform administrator delete a finished entry', async () => {
    const path = `/api/logs/${logId}?company_id=${companyA.id}`
    expect((await alice.jar.request(ctx.app, path, { method: 'DELETE' })).status).toBe(403)
    expect((await admin.jar.request(ctx.app, path, { method: 'DELETE' })).status).toBe(200)
    expect((await admin.jar.request(ctx.app, path, { method: 'DELETE' })).status).toBe(404)
  })
})

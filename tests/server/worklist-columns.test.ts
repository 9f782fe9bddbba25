/**
 * The dashboard as a worklist: a row of an invoice or expense carries its document's supplier,
 * number, date, total incl. VAT, warnings and duplicate reference (copied by database triggers, so
 * they follow a document's processing and corrections), sorts by them and is found by them.
 * Runs on PGlite, or on PostgreSQL with TEST_DATABASE_URL.
 */
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documents, logs } from '../../server/db/schema.ts'
import { parseAmount } from '../../server/services/log-queries.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { type Actor, actor, createAdminTestApp, insertCompany, send } from './admin-helpers.ts'

let database: TestDatabase
let env: Awaited<ReturnType<typeof createAdminTestApp>>
let member: Actor
let companyId: number

type Fields = Partial<typeof documents.$inferInsert>

/** A document and its dashboard row, inserted as an upload inserts them (document first). */
async function upload(name: string, kind: 'invoice' | 'expense' | 'document', fields: Fields = {}) {
  const [doc] = await database.db
    .insert(documents)
    .values({
      companyId,
      kind,
      category: kind === 'document' ? 'Other' : 'Invoices',
      status: 'COMPLETED',
      originalName: name,
      contentType: 'application/pdf',
      sizeBytes: 10,
      sha256: randomUUID(),
      storageKey: randomUUID(),
      ...fields,
    })
    .returning()
  const type = kind === 'invoice' ? 'Invoice' : kind === 'expense' ? 'Expense' : 'Document'
  const [log] = await database.db
    .insert(logs)
    .values({ companyId, documentId: doc!.id, name, type })
    .returning()
  return { doc: doc!, log: log! }
}

const list = async (query: string) => {
  const res = await send(member.jar, env.app, 'GET', `/logs?company_id=${companyId}&${query}`)
  return { status: res.status, body: (await res.json()) as Record<string, unknown>[] }
}
const names = async (query: string) => (await list(query)).body.map((row) => row.name)

beforeAll(async () => {
  database = await createTestDatabase()
  env = await createAdminTestApp(database.db)
  companyId = (await insertCompany(database.db, 'Worklist Co')).id
  member = await actor(database.db, env.app, { memberships: [{ companyId, role: 'COMPANY_USER' }] })
  await upload('b.pdf', 'invoice', {
    businessName: 'beta Supplies',
    invoiceNumber: 'INV-0042',
    documentDate: '2026-01-10',
    totalInvoiceIncludingVat: 1234.5,
  })
  await upload('a.pdf', 'invoice', {
    businessName: 'Alpha Services',
    invoiceNumber: 'F-7',
    documentDate: '2026-02-01',
    totalInvoiceIncludingVat: 99,
  })
  await upload('c.pdf', 'expense', {
    businessName: 'Café Gamma',
    documentDate: '2025-12-24',
    totalInvoiceIncludingVat: 12.3,
  })
  await upload('notes.txt', 'document')
}, 60_000)

afterAll(async () => {
  await env?.cleanup()
  await database?.close()
})

describe('the worklist columns', () => {
  it('a new row carries its document’s supplier, number, date and total', async () => {
    const { body } = await list('sort_by=name&sort_order=asc')
    const row = body.find((r) => r.name === 'b.pdf')
    expect(row).toMatchObject({
      supplier: 'beta Supplies',
      invoice_number: 'INV-0042',
      doc_date: '2026-01-10',
      total: 1234.5,
      warnings: [],
      duplicate: null,
    })
    expect(body.find((r) => r.name === 'notes.txt')).toMatchObject({ supplier: null, total: null })
  })

  it('follows its document when processing records fields, warnings and a duplicate', async () => {
    const earlier = await upload('first.pdf', 'invoice')
    const { doc } = await upload('again.pdf', 'invoice')
    await database.db
      .update(documents)
      .set({
        businessName: 'Delta Ltd',
        totalInvoiceIncludingVat: 500,
        warnings: ['duplicate'],
        qualityDetails: { duplicate: { document_id: earlier.doc.id, name: 'first.pdf', kind: 'invoice' } },
      })
      .where(eq(documents.id, doc.id))
    const { body } = await list('search_term=delta')
    expect(body).toHaveLength(1)
    expect(body[0]).toMatchObject({
      name: 'again.pdf',
      supplier: 'Delta Ltd',
      total: 500,
      warnings: ['duplicate'],
      duplicate: { document_id: earlier.doc.id, name: 'first.pdf', kind: 'invoice' },
    })
    await database.db.delete(logs).where(eq(logs.documentId, doc.id))
    await database.db.delete(logs).where(eq(logs.documentId, earlier.doc.id))
  })

  it('a row pointed at another document takes that document’s values', async () => {
    const { log } = await upload('moved.pdf', 'document')
    const [alpha] = await database.db.select().from(documents).where(eq(documents.originalName, 'a.pdf'))
    await database.db.update(logs).set({ documentId: alpha!.id }).where(eq(logs.id, log.id))
    const [row] = await database.db.select().from(logs).where(eq(logs.id, log.id))
    expect(row).toMatchObject({ supplier: 'Alpha Services', total: 99 })
    await database.db.delete(logs).where(eq(logs.id, log.id))
  })
})

describe('sorting by the worklist columns', () => {
  it('by supplier, ignoring case, rows without one last in both orders', async () => {
    expect(await names('sort_by=supplier&sort_order=asc')).toEqual(['a.pdf', 'b.pdf', 'c.pdf', 'notes.txt'])
    expect(await names('sort_by=supplier&sort_order=desc')).toEqual(['c.pdf', 'b.pdf', 'a.pdf', 'notes.txt'])
  })

  it('by invoice date and by total', async () => {
    expect(await names('sort_by=doc_date&sort_order=asc')).toEqual(['c.pdf', 'b.pdf', 'a.pdf', 'notes.txt'])
    expect(await names('sort_by=invoice_date&sort_order=desc')).toEqual([
      'a.pdf',
      'b.pdf',
      'c.pdf',
      'notes.txt',
    ])
    expect(await names('sort_by=total&sort_order=desc')).toEqual(['b.pdf', 'a.pdf', 'c.pdf', 'notes.txt'])
    expect(await names('sort_by=TOTAL&sort_order=asc')).toEqual(['c.pdf', 'a.pdf', 'b.pdf', 'notes.txt'])
  })

  it('refuses an unknown sort column', async () => {
    const res = await send(member.jar, env.app, 'GET', `/logs?company_id=${companyId}&sort_by=supplier;drop`)
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ detail: [{ field: 'sort_by' }] })
  })
})

describe('the search', () => {
  it.each([
    ['a supplier name, any case', 'ALPHA', ['a.pdf']],
    ['an accented supplier name', 'café', ['c.pdf']],
    ['an invoice number', 'inv-0042', ['b.pdf']],
    ['an amount written the French way', '1 234,50', ['b.pdf']],
    ['an amount with a narrow no-break space and a euro sign', '1\u202f234,50 €', ['b.pdf']],
    ['an amount written the English way', '1,234.50', ['b.pdf']],
    ['a part of an amount', '1234.5', ['b.pdf']],
    ['a whole amount', '99', ['a.pdf']],
    ['the file name still', 'notes', ['notes.txt']],
  ])('finds rows by %s', async (_, term, expected) => {
    expect(await names(`search_term=${encodeURIComponent(term)}&sort_by=name&sort_order=asc`)).toEqual(
      expected,
    )
  })

  it('the type filter takes Expense', async () => {
    expect(await names('element_type=Expense')).toEqual(['c.pdf'])
  })
})

describe('reading an amount', () => {
  it.each([
    ['1 234,50', 1234.5],
    ['1.234,5', 1234.5],
    ['1,234.50', 1234.5],
    ['1234.5', 1234.5],
    ['EUR 12', 12],
    ['12,3', 12.3],
    ['INV-0042', null],
    ['1,2,3', null],
  ])('%s → %s', (term, value) => {
    expect(parseAmount(term)).toBe(value)
  })
})

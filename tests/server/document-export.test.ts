/**
 * CSV export of a company's invoices and expenses (`GET /api/{invoices|expenses}/export`): BOM,
 * CRLF, header, separator and decimal mark by the user's language (or as asked), RFC 4180 quoting,
 * the formula-injection guard, and the dashboard's filters. The export and the invoice list
 * (`GET /api/invoices/company`) are read and written by bytes as well as rows.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIELD_LIMITS } from '../../contract/index.ts'
import { documents, users } from '../../server/db/schema.ts'
import { exportCsv } from '../../server/services/documents/export.ts'
import { documentBatches } from '../../server/services/documents/listing.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { insertCompany, memberOf } from './documents-support.ts'
import { createTestApp } from './helpers.ts'
import { insertProcessed } from './review-support.ts'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createTestApp>>
let companyId: number
let english: Awaited<ReturnType<typeof memberOf>>
let french: Awaited<ReturnType<typeof memberOf>>

/** Parses RFC 4180 CSV (quoted cells may hold separators, quotes and line breaks). */
function parseCsv(text: string, separator: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"'
        i++
      } else if (ch === '"') quoted = false
      else cell += ch
    } else if (ch === '"') quoted = true
    else if (ch === separator) {
      row.push(cell)
      cell = ''
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
      i++
    } else cell += ch
  }
  if (cell !== '' || row.length > 0) throw new Error('the last line has no CRLF')
  return rows
}

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createTestApp(database.db)
  const db = database.db
  companyId = (await insertCompany(db)).id
  english = await memberOf(db, ctx.app, companyId)
  french = await memberOf(db, ctx.app, companyId)
  await db.update(users).set({ language: 'fr' }).where(eq(users.id, french.user.id))
  const at = (day: string) => new Date(`${day}T12:00:00Z`)
  await insertProcessed(db, companyId, {
    originalName: 'plain.pdf',
    invoiceNumber: 'F-1',
    businessName: 'Plain Supplier',
    totalChargeExcludingVat: 1234.5,
    totalVatAmount: 246.9,
    totalInvoiceIncludingVat: 1481.4,
    dueDate: '2025-07-01',
    createdAt: at('2025-06-01'),
  })
  await insertProcessed(db, companyId, {
    originalName: 'tricky "name", with comma.pdf',
    invoiceNumber: '=HYPERLINK("http://evil.example")',
    businessName: '@SUM(A1:A9)',
    businessAddress: '1 rue A; bât B\n75001 Paris',
    vatNumber: '+33123',
    currency: '-EUR',
    status: 'FAILED',
    errors: ['totals_mismatch'],
    totalVatAmount: -5,
    createdAt: at('2025-06-15'),
  })
  await insertProcessed(db, companyId, {
    kind: 'expense',
    originalName: 'taxi.pdf',
    createdAt: at('2025-06-20'),
  })
  const other = (await insertCompany(db)).id
  await insertProcessed(db, other, { originalName: 'other-company.pdf', createdAt: at('2025-06-10') })
})

afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})

const get = (who: typeof english, kind: string, query = '') =>
  who.jar.request(ctx.app, `/api/${kind}/export?company_id=${companyId}&format=csv${query}`)

describe('CSV export', () => {
  it('answers UTF-8 CSV with a BOM, CRLF lines and a header, as an attachment', async () => {
    const res = await get(english, 'invoices')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="invoices-\d{4}-\d{2}-\d{2}\.csv"$/,
    )
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = new TextDecoder().decode(bytes.slice(3))
    const rows = parseCsv(text, ',')
    expect(rows[0]).toEqual([
      'id',
      'file_name',
      'status',
      'uploaded_at',
      'invoice_number',
      'invoice_date',
      'due_date',
      'business_name',
      'business_address',
      'vat_number',
      'iban',
      'currency',
      'has_vat',
      'total_charge_excluding_vat',
      'total_vat_amount',
      'total_invoice_including_vat',
      'errors',
      'warnings',
    ])
    // Newest first; the other company's invoice and the expense are not there.
    expect(rows.slice(1).map((r) => r[1])).toEqual(['tricky "name", with comma.pdf', 'plain.pdf'])
    expect(rows[2]).toContain('1234.50')
    expect(rows[2]).toContain('2025-07-01')
    expect(rows[2]![3]).toBe('2025-06-01T12:00:00.000Z')
  })

  it('neutralises cells a spreadsheet would run as formulas, keeps negative amounts as numbers', async () => {
    const rows = parseCsv(await (await get(english, 'invoices')).text(), ',')
    const tricky = Object.fromEntries(rows[0]!.map((name, i) => [name, rows[1]![i]]))
    expect(rows[0]![0]).toBe('id')
    expect(tricky).toMatchObject({
      invoice_number: `'=HYPERLINK("http://evil.example")`,
      business_name: "'@SUM(A1:A9)",
      business_address: '1 rue A; bât B\n75001 Paris',
      vat_number: "'+33123",
      currency: "'-EUR",
      total_vat_amount: '-5.00',
      status: 'FAILED',
      errors: 'totals_mismatch',
    })
  })

  it('uses ; and a decimal comma for a French user, and the separator asked for otherwise', async () => {
    const fr = parseCsv(await (await get(french, 'invoices')).text(), ';')
    expect(fr[0]).toHaveLength(18)
    expect(fr[2]).toContain('1234,50')
    // The address holds a `;`: quoted under `;`, not under `,`.
    const rawFr = await (await get(french, 'invoices')).text()
    expect(rawFr).toContain('"1 rue A; bât B\n75001 Paris"')
    const asked = parseCsv(await (await get(french, 'invoices', '&separator=,')).text(), ',')
    expect(asked[2]).toContain('1234.50')
    const semicolon = await get(english, 'invoices', `&separator=${encodeURIComponent(';')}`)
    expect(parseCsv(await semicolon.text(), ';')[2]).toContain('1234,50')
  })

  it('exports expenses with their own date column and no due date', async () => {
    const rows = parseCsv(await (await get(english, 'expenses')).text(), ',')
    expect(rows[0]).toContain('expense_date')
    expect(rows[0]).not.toContain('due_date')
    expect(rows.slice(1).map((r) => r[1])).toEqual(['taxi.pdf'])
  })

  it('filters by status and by upload date (a bare end date includes its day)', async () => {
    const names = async (query: string) =>
      parseCsv(await (await get(english, 'invoices', query)).text(), ',')
        .slice(1)
        .map((r) => r[1])
    expect(await names('&status=completed')).toEqual(['plain.pdf'])
    expect(await names('&start_date=2025-06-10')).toEqual(['tricky "name", with comma.pdf'])
    expect(await names('&end_date=2025-06-01')).toEqual(['plain.pdf'])
    expect(await names('&start_date=2025-06-02&end_date=2025-06-14')).toEqual([])
  })

  it('refuses an unknown format, separator or status', async () => {
    for (const query of ['&format=xlsx', '&separator=%7C', '&status=DONE', '&start_date=2024-13-45']) {
      const res = await english.jar.request(ctx.app, `/api/invoices/export?company_id=${companyId}${query}`)
      expect(res.status).toBe(400)
    }
  })
})

describe('answers bounded by bytes as well as rows', () => {
  let bulky: number
  const ids: number[] = []
  beforeAll(async () => {
    bulky = (await insertCompany(database.db)).id
    // Six invoices carrying 4 KB of e-invoice data each, and one carrying 20 KB.
    for (const size of [4000, 4000, 20_000, 4000, 4000, 4000, 4000])
      ids.unshift((await insertProcessed(database.db, bulky, { einvoice: { note: 'x'.repeat(size) } })).id)
  })
  const ofBulky = () => and(eq(documents.companyId, bulky), eq(documents.kind, 'invoice'))

  it('reads the list in batches that stop at the byte budget, a document larger than it alone', async () => {
    const batches: number[][] = []
    for await (const rows of documentBatches(database.db, ofBulky(), { rows: 3, bytes: 10_000 }))
      batches.push(rows.map((r) => r.id))
    // Newest first; each batch within 3 rows and 10 KB of e-invoice data, or a single document.
    expect(batches).toEqual([ids.slice(0, 2), ids.slice(2, 4), [ids[4]], ids.slice(5, 7)])
  })

  it('answers the whole list as one JSON array, newest first, streamed', async () => {
    const member = await memberOf(database.db, ctx.app, bulky)
    const res = await member.jar.request(ctx.app, `/api/invoices/company?company_id=${bulky}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const body = (await res.json()) as { id: number; einvoice: { note: string } }[]
    expect(body.map((r) => r.id)).toEqual(ids)
    expect(body.map((r) => r.einvoice.note.length)).toEqual([4000, 4000, 4000, 4000, 20_000, 4000, 4000])
    const completed = await member.jar.request(ctx.app, `/api/invoices/status/completed?company_id=${bulky}`)
    expect(((await completed.json()) as { id: number }[]).map((r) => r.id)).toEqual(ids)
    const none = await member.jar.request(ctx.app, `/api/expenses/company?company_id=${bulky}`)
    expect(await none.json()).toEqual([])
  })

  it('writes the CSV export in chunks of about 64 KB, whatever the size of its rows', async () => {
    const long = (field: keyof typeof FIELD_LIMITS) => `${field} `.padEnd(FIELD_LIMITS[field], 'x')
    const wide = (await insertCompany(database.db)).id
    for (let i = 0; i < 300; i++)
      await insertProcessed(database.db, wide, {
        businessName: long('business_name'),
        businessAddress: long('business_address'),
        invoiceNumber: `${i}`.padEnd(FIELD_LIMITS.invoice_number, '-'),
      })
    const chunks: number[] = []
    const filters = {}
    for await (const chunk of exportCsv(database.db, {
      companyId: wide,
      kind: 'invoice',
      separator: ',',
      filters,
    }))
      chunks.push(chunk.length)
    expect(chunks.length).toBeGreaterThan(3)
    expect(Math.max(...chunks)).toBeLessThan(64 * 1024 + 2000)
    expect(chunks.reduce((a, b) => a + b, 0)).toBeGreaterThan(300 * 1100)
  })
})

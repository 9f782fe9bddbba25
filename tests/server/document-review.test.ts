/**
 * Corrections of invoices and expenses (`PATCH /api/{invoices|expenses}/{id}`) and their history:
 * the quality checks run again on the corrected fields, so the status follows the data both ways.
 */
import { eq } from 'drizzle-orm'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DocumentChange } from '../../contract/document-corrections.ts'
import { documentChanges, documents } from '../../server/db/schema.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { insertCompany, memberOf } from './documents-support.ts'
import { createClock, createTestApp } from './helpers.ts'
import { insertProcessed, logStatusOf, patchJson } from './review-support.ts'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createTestApp>>
let companyId: number
let member: Awaited<ReturnType<typeof memberOf>>
let outsider: Awaited<ReturnType<typeof memberOf>>
const clock = createClock(new Date('2026-03-01T09:00:00Z'))

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createTestApp(database.db, { clock: clock.now })
  companyId = (await insertCompany(database.db)).id
  member = await memberOf(database.db, ctx.app, companyId)
  outsider = await memberOf(database.db, ctx.app, (await insertCompany(database.db)).id)
})

afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})

const patch = (id: number, body: unknown, who = member, kind = 'invoices') =>
  who.jar.request(ctx.app, `/api/${kind}/${id}?company_id=${companyId}`, patchJson(body))
const rowOf = async (id: number) =>
  (await database.db.select().from(documents).where(eq(documents.id, id)))[0]!

describe('a correction re-evaluates the status', () => {
  it('turns a FAILED invoice whose missing number is filled COMPLETED, with its log entry', async () => {
    const doc = await insertProcessed(database.db, companyId, {
      status: 'FAILED',
      invoiceNumber: null,
      errors: ['missing_invoice_number'],
    })
    const res = await patch(doc.id, { invoice_number: 'F-2026-001' })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({
      id: doc.id,
      status: 'COMPLETED',
      errors: [],
      invoice_number: 'F-2026-001',
      field_sources: { invoice_number: 'user' },
    })
    expect(await logStatusOf(database.db, doc.id)).toBe('completed')
    const read = await member.jar.request(ctx.app, `/api/invoices/${doc.id}?company_id=${companyId}`)
    expect(await read.json()).toMatchObject({
      status: 'COMPLETED',
      field_sources: { invoice_number: 'user' },
    })
  })

  it('turns a COMPLETED invoice FAILED when the correction breaks its totals, and saves it', async () => {
    const doc = await insertProcessed(database.db, companyId)
    const res = await patch(doc.id, { total_vat_amount: '25.00' })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      status: 'FAILED',
      errors: ['totals_mismatch'],
      total_vat_amount: 25,
    })
    expect((await rowOf(doc.id)).totalVatAmount).toBe(25)
    expect(await logStatusOf(database.db, doc.id)).toBe('failed')
  })

  it('warns about a corrected date in the future', async () => {
    const doc = await insertProcessed(database.db, companyId)
    const res = await patch(doc.id, { invoice_date: '2026-03-02' })
    expect(await res.json()).toMatchObject({ status: 'COMPLETED', warnings: ['date_in_future'] })
  })

  it('corrects an expense by its own fields', async () => {
    const doc = await insertProcessed(database.db, companyId, {
      kind: 'expense',
      status: 'FAILED',
      documentDate: null,
      errors: ['missing_expense_date'],
    })
    const res = await patch(doc.id, { expense_date: '2026-02-10' }, member, 'expenses')
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ status: 'COMPLETED', expense_date: '2026-02-10', errors: [] })
  })
})

describe('refusals', () => {
  it('refuses an impossible date or a bad IBAN checksum with 400 naming the field, saving nothing', async () => {
    const doc = await insertProcessed(database.db, companyId)
    for (const [body, field] of [
      [{ invoice_date: '2024-13-45', business_name: 'Changed' }, 'invoice_date'],
      [{ iban: 'FR7630006000011234567890188', business_name: 'Changed' }, 'iban'],
      [{ vat_number: '123', business_name: 'Changed' }, 'vat_number'],
      [{ status: 'COMPLETED' }, 'status'],
    ] as const) {
      const res = await patch(doc.id, body)
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({
        message: 'Invalid input',
        detail: [{ field, message: expect.any(String) }],
      })
    }
    expect((await rowOf(doc.id)).businessName).toBe('Supplier')
    expect(
      await database.db.select().from(documentChanges).where(eq(documentChanges.documentId, doc.id)),
    ).toEqual([])
  })

  it('ignores a company_id in the body', async () => {
    const doc = await insertProcessed(database.db, companyId)
    const res = await patch(doc.id, { company_id: 999_999, currency: 'USD' })
    expect(res.status).toBe(200)
    expect((await rowOf(doc.id)).currency).toBe('USD')
  })

  it('takes the company from the query only: the body’s company_id does not stand in for a missing one', async () => {
    const doc = await insertProcessed(database.db, companyId)
    const res = await member.jar.request(
      ctx.app,
      `/api/invoices/${doc.id}`,
      patchJson({ company_id: companyId, currency: 'USD' }),
    )
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      message: 'Invalid input',
      detail: [{ field: 'company_id', message: 'Company ID is required' }],
    })
    expect((await rowOf(doc.id)).currency).toBe('EUR')
  })

  it('refuses invisible bidirectional and format characters and a lone surrogate in text fields', async () => {
    const doc = await insertProcessed(database.db, companyId)
    const hidden = ['\u200E', '\u200F', '\u061C', '\u2028', '\u2029', '\u200B', '\u202E', '\uFEFF']
    for (const [field, value] of [
      ...hidden.map((ch) => ['business_name', `Acme${ch}Trading`] as const),
      ...hidden.map((ch) => ['invoice_number', `F-${ch}1`] as const),
      ['business_address', '1 rue A\n75001 Paris\u200F'],
      // A lone surrogate is no character: refused, not stored as U+FFFD.
      ['business_name', 'Acme \uD800'],
      ['invoice_number', '\uDC00F-1'],
    ] as const) {
      const res = await patch(doc.id, { [field]: value })
      expect(res.status, `${field} ${JSON.stringify(value)}`).toBe(400)
      expect(await res.json()).toEqual({
        message: 'Invalid input',
        detail: [{ field, message: 'Must not contain control characters' }],
      })
    }
    // Joiners stay: scripts and emoji need them.
    const joined = await patch(doc.id, { business_name: 'Café 👩\u200D💼 \u0633\u200C\u0646\u062F' })
    expect(joined.status).toBe(200)
    const row = await rowOf(doc.id)
    expect(row.businessName).toBe('Café 👩\u200D💼 \u0633\u200C\u0646\u062F')
    expect(row.invoiceNumber).toBe(doc.invoiceNumber)
  })

  it('refuses an amount with more decimals than the column, in any notation, instead of storing 0', async () => {
    const doc = await insertProcessed(database.db, companyId)
    const field = 'total_vat_amount'
    for (const amount of [1e-9, '1e-9', 0.001, '0.001', 20.000000001, '1E2', 1e21, 1e12, '-0.005']) {
      const res = await member.jar.request(
        ctx.app,
        `/api/invoices/${doc.id}?company_id=${companyId}`,
        // Written by hand: JSON.stringify would print 1e-9 as 1e-9 anyway, and 1e21 as 1e+21.
        {
          ...patchJson({}),
          body: `{"${field}": ${typeof amount === 'number' ? String(amount) : `"${amount}"`}}`,
        },
      )
      expect(res.status, String(amount)).toBe(400)
      expect(await res.json()).toEqual({
        message: 'Invalid input',
        detail: [{ field, message: 'Must be an amount (a number, at most 2 decimals, below one trillion)' }],
      })
    }
    expect((await rowOf(doc.id)).totalVatAmount).toBe(20)
    for (const [amount, stored] of [
      [0.01, 0.01],
      ['20.50', 20.5],
      ['-3.10', -3.1],
      [999_999_999_999.99, 999_999_999_999.99],
    ] as const) {
      const res = await patch(doc.id, { [field]: amount })
      expect(res.status, String(amount)).toBe(200)
      expect((await rowOf(doc.id)).totalVatAmount).toBe(stored)
    }
  })

  it('answers 409 while the document is processing', async () => {
    const doc = await insertProcessed(database.db, companyId, { status: 'PROCESSING' })
    const res = await patch(doc.id, { invoice_number: 'X' })
    expect(res.status).toBe(409)
    expect((await rowOf(doc.id)).invoiceNumber).toBe(doc.invoiceNumber)
  })

  it('answers 404 to a member of another company, and for an expense id on the invoice call', async () => {
    const doc = await insertProcessed(database.db, companyId)
    const other = await outsider.jar.request(
      ctx.app,
      `/api/invoices/${doc.id}?company_id=${companyId}`,
      patchJson({ currency: 'USD' }),
    )
    expect(other.status).toBe(404)
    const history = await outsider.jar.request(
      ctx.app,
      `/api/invoices/${doc.id}/history?company_id=${companyId}`,
    )
    expect(history.status).toBe(404)
    const expense = await insertProcessed(database.db, companyId, { kind: 'expense' })
    expect((await patch(expense.id, { currency: 'USD' })).status).toBe(404)
    expect((await rowOf(doc.id)).currency).toBe('EUR')
  })
})

describe('history', () => {
  it('lists each changed field with old and new value, who and when, newest first', async () => {
    const doc = await insertProcessed(database.db, companyId, { businessName: 'Acme' })
    await patch(doc.id, { business_name: 'ACME SAS', currency: 'EUR' })
    clock.advance(60_000)
    await patch(doc.id, {
      total_charge_excluding_vat: 100,
      total_invoice_including_vat: '130',
      total_vat_amount: 30,
    })
    const res = await member.jar.request(ctx.app, `/api/invoices/${doc.id}/history?company_id=${companyId}`)
    expect(res.status).toBe(200)
    const history = v.parse(v.array(DocumentChange), await res.json())
    // Unchanged fields (currency, the total excluding VAT) leave no row.
    expect(history.map((h) => [h.field, h.old_value, h.new_value])).toEqual([
      ['total_invoice_including_vat', '120', '130'],
      ['total_vat_amount', '20', '30'],
      ['business_name', 'Acme', 'ACME SAS'],
    ])
    expect(history[0]!.user).toEqual({ id: member.user.id, email: member.user.email })
    expect(history[0]!.at).toBe('2026-03-01T09:01:00.000Z')
    expect(history[2]!.at).toBe('2026-03-01T09:00:00.000Z')
  })
})

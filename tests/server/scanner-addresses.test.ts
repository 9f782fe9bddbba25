/**
 * Each scanner address belongs to one company and one kind: `POST/PUT /admin/company…` refuse an
 * address another company uses for either kind, or the same company for its other kind,
 * case-insensitively, with 409, the contract's error body and the refused fields in `detail`;
 * nothing is written then.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contractMessages } from '../../contract/index.ts'
import { companies } from '../../server/db/schema.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { type Actor, actor, createAdminTestApp, insertCompany, send } from './admin-helpers.ts'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createAdminTestApp>>
let admin: Actor
/** Holds invoices@acme.example and expenses@acme.example. */
let acme: { id: number }

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createAdminTestApp(database.db)
  acme = await insertCompany(database.db, 'Acme Corp', {
    invoiceScanner: 'invoices@acme.example',
    expenseScanner: 'expenses@acme.example',
  })
  admin = await actor(database.db, ctx.app, { role: 'SAAS_ADMIN' })
})
afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})

const call = (method: string, path: string, body?: unknown) => send(admin.jar, ctx.app, method, path, body)

const taken = (...fields: string[]) => ({
  message: contractMessages.scannerAddressInUse,
  detail: fields.map((field) => ({ field, message: contractMessages.scannerAddressTaken })),
})

async function scannersOf(id: number) {
  const [row] = await database.db.select().from(companies).where(eq(companies.id, id))
  return { invoice: row!.invoiceScanner, expense: row!.expenseScanner }
}

const companyNamed = async (name: string) =>
  database.db.select().from(companies).where(eq(companies.name, name))

describe('scanner addresses at creation', () => {
  it('creates a company with its own scanner addresses', async () => {
    const res = await call('POST', '/admin/company', {
      name: 'Initech',
      invoice_scanner: 'Invoices@Initech.example',
      expense_scanner: 'expenses@initech.example',
    })
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({
      name: 'Initech',
      invoice_scanner: 'invoices@initech.example',
      expense_scanner: 'expenses@initech.example',
    })
  })

  it("refuses another company's address for either kind, in any case, and creates nothing", async () => {
    const attempts = [
      [{ invoice_scanner: 'INVOICES@acme.example' }, 'invoice_scanner'],
      [{ invoice_scanner: 'expenses@acme.example' }, 'invoice_scanner'],
      [{ expense_scanner: 'Expenses@ACME.example' }, 'expense_scanner'],
      [{ expense_scanner: 'invoices@acme.example' }, 'expense_scanner'],
    ] as const
    for (const [scanner, field] of attempts) {
      const res = await call('POST', '/admin/company', { name: 'Copycat', ...scanner })
      expect(res.status).toBe(409)
      expect(await res.json()).toEqual(taken(field))
    }
    expect(await companyNamed('Copycat')).toEqual([])
  })

  it('refuses one address for both kinds of the new company, naming both fields', async () => {
    const res = await call('POST', '/admin/company', {
      name: 'Twofold',
      invoice_scanner: 'scans@twofold.example',
      expense_scanner: 'SCANS@twofold.example',
    })
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual(taken('invoice_scanner', 'expense_scanner'))
    expect(await companyNamed('Twofold')).toEqual([])
  })
})

describe('scanner addresses on update', () => {
  it("refuses another company's address for either kind, in any case, and changes nothing", async () => {
    const globex = await insertCompany(database.db, 'Globex', { invoiceScanner: 'invoices@globex.example' })
    for (const [scanner, field] of [
      [{ invoice_scanner: 'Expenses@Acme.Example' }, 'invoice_scanner'],
      [{ expense_scanner: 'INVOICES@ACME.EXAMPLE' }, 'expense_scanner'],
    ] as const) {
      const res = await call('PUT', `/admin/company/${globex.id}`, { name: 'Globex Renamed', ...scanner })
      expect(res.status).toBe(409)
      expect(await res.json()).toEqual(taken(field))
    }
    expect(await scannersOf(globex.id)).toEqual({ invoice: 'invoices@globex.example', expense: null })
    expect(await companyNamed('Globex Renamed')).toEqual([])
  })

  it("refuses the company's own address of the other kind, unless that one is changed in the same request", async () => {
    const refused = await call('PUT', `/admin/company/${acme.id}`, {
      expense_scanner: 'Invoices@acme.example',
    })
    expect(refused.status).toBe(409)
    expect(await refused.json()).toEqual(taken('expense_scanner'))
    expect(await scannersOf(acme.id)).toEqual({
      invoice: 'invoices@acme.example',
      expense: 'expenses@acme.example',
    })

    // Swapping the two kinds moves each address, still one company and one kind each.
    const swapped = await call('PUT', `/admin/company/${acme.id}`, {
      invoice_scanner: 'expenses@acme.example',
      expense_scanner: 'invoices@acme.example',
    })
    expect(swapped.status).toBe(200)
    expect(await scannersOf(acme.id)).toEqual({
      invoice: 'expenses@acme.example',
      expense: 'invoices@acme.example',
    })
  })

  it('keeps the addresses a company already has, and frees an address once it is cleared', async () => {
    const hooli = await insertCompany(database.db, 'Hooli', { invoiceScanner: 'in@hooli.example' })
    // The whole form is sent again with an unchanged (differently cased) address: not a claim.
    const resaved = await call('PUT', `/admin/company/${hooli.id}`, {
      name: 'Hooli XYZ',
      invoice_scanner: 'IN@hooli.example',
      expense_scanner: '',
    })
    expect(resaved.status).toBe(200)
    expect(await call('PUT', `/admin/company/${hooli.id}`, { invoice_scanner: null })).toHaveProperty(
      'status',
      200,
    )
    const pied = await insertCompany(database.db, 'Pied Piper')
    const claimed = await call('PUT', `/admin/company/${pied.id}`, { expense_scanner: 'in@hooli.example' })
    expect(claimed.status).toBe(200)
    expect(await scannersOf(pied.id)).toEqual({ invoice: null, expense: 'in@hooli.example' })
  })

  it('lets exactly one of concurrent claims to one address through', async () => {
    const rivals = await Promise.all(
      ['Rival A', 'Rival B', 'Rival C'].map((name) => insertCompany(database.db, name)),
    )
    const answers = await Promise.all(
      rivals.map((company, i) =>
        call('PUT', `/admin/company/${company.id}`, {
          [i % 2 ? 'invoice_scanner' : 'expense_scanner']: 'shared@rivals.example',
        }),
      ),
    )
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409])
    const holders = await database.db
      .select()
      .from(companies)
      .where(eq(companies.expenseScanner, 'shared@rivals.example'))
    const invoiceHolders = await database.db
      .select()
      .from(companies)
      .where(eq(companies.invoiceScanner, 'shared@rivals.example'))
    expect(holders.length + invoiceHolders.length).toBe(1)
  })
})

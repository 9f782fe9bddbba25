/**
 * The supplier memory and the IBAN-change alert: a user's correction of a supplier's name and
 * address is applied to the company's later documents from that supplier (by VAT number, else
 * IBAN), never to another company's; an invoice whose supplier was known with another IBAN gets
 * `iban_changed`, until a user confirms the new IBAN by saving it.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documents } from '../../server/db/schema.ts'
import { createDocumentProcessor } from '../../server/jobs/process-document.ts'
import { createLogger } from '../../server/logger.ts'
import type { ExtractedFields, OcrPool } from '../../server/services/extraction/index.ts'
import { createLocalStorage, type FileStorage } from '../../server/services/storage/index.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { insertCompany, memberOf } from './documents-support.ts'
import { createLogCapture, createTestApp } from './helpers.ts'
import { insertProcessed, patchJson } from './review-support.ts'

const VAT = 'FR40303265045'
const IBAN_A = 'FR7630006000011234567890189'
const IBAN_B = 'DE89370400440532013000'
const IBAN_C = 'GB82WEST12345698765432'
const IBAN_D = 'NL91ABNA0417164300'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createTestApp>>
let storage: FileStorage
let root: string
let processor: ReturnType<typeof createDocumentProcessor>
let companyA: number
let companyB: number
let member: Awaited<ReturnType<typeof memberOf>>
/** What the fake extraction reads from the next document. */
let printed: ExtractedFields

const fields = (overrides: Partial<ExtractedFields>): ExtractedFields => ({
  invoice_number: `N-${Math.random().toString(36).slice(2, 10)}`,
  document_date: '2025-06-01',
  business_name: 'ACME',
  business_address: 'printed address',
  vat_number: VAT,
  iban: IBAN_A,
  currency: 'EUR',
  has_vat: true,
  total_vat_amount: 20,
  total_charge_excluding_vat: 100,
  total_invoice_including_vat: 120,
  ...overrides,
})

beforeAll(async () => {
  database = await createTestDatabase()
  root = await mkdtemp(join(tmpdir(), 'supplier-memory-'))
  ctx = await createTestApp(database.db)
  storage = createLocalStorage(join(root, 'files'))
  processor = createDocumentProcessor({
    db: database.db,
    storage,
    ocr: {} as OcrPool,
    logger: createLogger(ctx.config, createLogCapture().stream),
    clock: () => new Date('2026-01-15T10:00:00Z'),
    extract: async () => ({ fields: printed, pages: 1, textPages: 1, ocrPages: 0, textMs: 1, ocrMs: 0 }),
  })
  companyA = (await insertCompany(database.db)).id
  companyB = (await insertCompany(database.db)).id
  member = await memberOf(database.db, ctx.app, companyA)
})

afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
  if (root) await rm(root, { recursive: true, force: true })
})

/** Processes a new invoice of the company whose page prints `overrides`. */
async function processInvoice(companyId: number, overrides: Partial<ExtractedFields> = {}) {
  printed = fields(overrides)
  const storageKey = storage.newKey()
  await storage.put(storageKey, Readable.from([Buffer.from('%PDF-1.4 test')]))
  const doc = await insertProcessed(database.db, companyId, { status: 'PROCESSING', storageKey })
  await processor.process({ documentId: doc.id }, { id: 'job', retryCount: 0, retryLimit: 0 })
  return (await database.db.select().from(documents).where(eq(documents.id, doc.id)))[0]!
}

const correct = async (id: number, body: Record<string, unknown>) => {
  const res = await member.jar.request(ctx.app, `/api/invoices/${id}?company_id=${companyA}`, patchJson(body))
  expect(res.status).toBe(200)
  return res.json()
}

describe('supplier memory', () => {
  it('applies a corrected name and address to the next document with that VAT number, and learns again', async () => {
    const first = await processInvoice(companyA)
    expect(first.businessName).toBe('ACME')
    await correct(first.id, {
      business_name: 'Acme Industries SAS',
      business_address: '1 rue de la Paix\n75002 Paris',
    })

    const next = await processInvoice(companyA, { vat_number: 'FR 40 303 265 045' })
    expect(next.businessName).toBe('Acme Industries SAS')
    expect(next.businessAddress).toBe('1 rue de la Paix\n75002 Paris')
    expect(next.fieldSources).toMatchObject({ business_name: 'memory', business_address: 'memory' })

    await correct(next.id, { business_name: 'Acme SA' })
    const third = await processInvoice(companyA)
    expect(third.businessName).toBe('Acme SA')
  })

  it('is keyed by the IBAN when the supplier has no VAT number', async () => {
    const first = await processInvoice(companyA, { vat_number: null, iban: IBAN_C, business_name: 'Bob' })
    await correct(first.id, { business_name: 'Bob Plumbing Ltd' })
    const next = await processInvoice(companyA, { vat_number: null, iban: IBAN_C, business_name: 'B0b' })
    expect(next.businessName).toBe('Bob Plumbing Ltd')
    const other = await processInvoice(companyA, { vat_number: null, iban: IBAN_B, business_name: 'B0b' })
    expect(other.businessName).toBe('B0b')
  })

  it('never crosses companies', async () => {
    const elsewhere = await processInvoice(companyB)
    expect(elsewhere.businessName).toBe('ACME')
    expect(Object.values(elsewhere.fieldSources)).not.toContain('memory')
    expect(elsewhere.fieldSources.business_name).toBe('text')
  })
})

describe('iban_changed', () => {
  const SUPPLIER = 'FR83404833048'

  it('warns when the supplier had an earlier COMPLETED invoice with another IBAN, until the new IBAN is saved', async () => {
    const first = await processInvoice(companyA, { vat_number: SUPPLIER, iban: IBAN_A })
    expect(first.warnings).not.toContain('iban_changed')

    const changed = await processInvoice(companyA, { vat_number: SUPPLIER, iban: IBAN_B })
    expect(changed.status).toBe('COMPLETED')
    expect(changed.warnings).toContain('iban_changed')
    expect(changed.qualityDetails.iban_changed).toEqual({ previous_iban: IBAN_A })
    // The warning's message names the IBAN used before, in both languages.
    const quality = await (
      await member.jar.request(ctx.app, `/api/invoices/${changed.id}/quality-data?company_id=${companyA}`)
    ).json()
    const before = IBAN_A.replace(/(.{4})(?=.)/g, '$1 ')
    expect(quality.details.warnings).toContainEqual({
      code: 'iban_changed',
      message: expect.stringContaining(`(${before})`),
      messages: { en: expect.stringContaining(`(${before})`), fr: expect.stringContaining(`(${before})`) },
    })

    // In another company the same supplier has no history.
    expect((await processInvoice(companyB, { vat_number: SUPPLIER, iban: IBAN_B })).warnings).not.toContain(
      'iban_changed',
    )

    const confirmed = await correct(changed.id, { iban: IBAN_B })
    expect(confirmed.warnings).not.toContain('iban_changed')
    expect(confirmed.quality_details).not.toHaveProperty('iban_changed')

    expect((await processInvoice(companyA, { vat_number: SUPPLIER, iban: IBAN_B })).warnings).not.toContain(
      'iban_changed',
    )
    const back = await processInvoice(companyA, { vat_number: SUPPLIER, iban: IBAN_A })
    expect(back.warnings).toContain('iban_changed')
    expect(back.qualityDetails.iban_changed).toEqual({ previous_iban: IBAN_B })
  })

  it('recognises a supplier without VAT number by its name', async () => {
    await processInvoice(companyA, { vat_number: null, business_name: 'Corner  Shop', iban: IBAN_A })
    const changed = await processInvoice(companyA, {
      vat_number: null,
      business_name: 'corner shop',
      iban: IBAN_D,
    })
    expect(changed.warnings).toContain('iban_changed')
    expect(changed.qualityDetails.iban_changed).toEqual({ previous_iban: IBAN_A })
  })
})

/**
 * Review end to end in Chromium, beyond review.test.ts: the supplier memory (a corrected name and
 * address come back, marked as remembered, on the supplier's next invoice) and the correction flow
 * and CSV export in French (`;` separator, decimal comma). The corpus files are chosen from
 * truth.jsonl, not named by their supplier.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { type RunningServer, repoRoot, startServer } from '../support/server-process'
import { ADMIN, companyRows, joinNewCompany, openPage, signIn } from './support'

type Truth = {
  file: string
  kind: 'invoice' | 'expense'
  variant: string
  render: string
  upload_order: number
  fields: {
    invoice_number: string | null
    business_name: string | null
    business_address: string | null
    vat_number: string | null
    total_invoice_including_vat: number
  }
}

const corpusDir = join(repoRoot, '..', 'shared', 'corpus')
const corpus = join(corpusDir, 'files')
let truth: Truth[]
let server: RunningServer
let browser: Browser

beforeAll(async () => {
  if (!existsSync(corpus)) throw new Error(`the corpus is missing at ${corpus}`)
  truth = readFileSync(join(corpusDir, 'truth.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Truth)
  server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** The first two clean, born-digital invoices (upload order) of one supplier, by VAT number. */
function supplierPair(): [Truth, Truth] {
  const seen = new Map<string, Truth>()
  const candidates = truth
    .filter((t) => t.kind === 'invoice' && t.variant === 'clean' && t.render === 'pdf_text')
    .sort((a, b) => a.upload_order - b.upload_order)
  for (const t of candidates) {
    const vat = t.fields.vat_number
    if (!vat) continue
    const first = seen.get(vat)
    if (first) return [first, t]
    seen.set(vat, t)
  }
  throw new Error('truth.jsonl has no two clean invoices with the same VAT number')
}

/** Uploads one corpus file as an invoice and waits for the upload panel to show it `outcome`. */
async function uploadInvoice(page: Page, file: string, outcome: 'Completed' | 'Failed') {
  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await page.getByRole('menuitem', { name: 'Upload invoice' }).click()
  const upload = page.getByRole('dialog')
  await upload.getByLabel('Files for Invoices', { exact: true }).setInputFiles([join(corpus, file)])
  await upload.getByRole('button', { name: 'Upload', exact: true }).click()
  // The upload panel (not a toast, while it is open) follows the file.
  await page
    .getByRole('region', { name: 'Uploads', exact: true })
    .getByRole('listitem')
    .filter({ hasText: file })
    .getByText(outcome, { exact: true })
    .waitFor({ timeout: 45_000 })
}

/** The text of a field's description (its hint: the date form, the corrected or remembered mark). */
async function description(field: Locator): Promise<string> {
  const ids = (await field.getAttribute('aria-describedby')) ?? ''
  const texts = await Promise.all(
    ids
      .split(' ')
      .filter(Boolean)
      .map((id) => field.page().locator(`[id="${id}"]`).textContent()),
  )
  return texts.join(' ')
}

it('remembers a corrected supplier name and address, keeps them when the invoice is read again, and gives them to the supplier’s next invoice', async () => {
  const [first, second] = supplierPair()
  const { page, context, errors } = await openPage(browser)
  await signIn(page, server.url)
  const company = await joinNewCompany(page, server.url, 'Memory Co')

  await uploadInvoice(page, first.file, 'Completed')
  await page
    .getByRole('table')
    .getByRole('button', { name: `View ${first.file}` })
    .click()
  const details = page.getByRole('dialog', { name: 'Invoice details' })
  const name = details.getByLabel('Business name', { exact: true })
  const address = details.getByLabel('Business address', { exact: true })
  await name.waitFor()
  // The memory is keyed by the VAT number: the extraction must have read it.
  expect(await details.getByLabel('VAT number', { exact: true }).inputValue()).toBe(first.fields.vat_number)
  expect(await name.inputValue()).toBe(first.fields.business_name)
  expect(await description(name)).not.toContain('Remembered for this supplier')

  const correctedName = `${first.fields.business_name} (head office)`
  const correctedAddress = `Building B, ${first.fields.business_address}`
  await name.fill(correctedName)
  await address.fill(correctedAddress)
  await details.getByRole('button', { name: 'Save corrections' }).click()
  const changes = details.getByRole('list', { name: 'Changes' })
  await changes.getByText('Business name').waitFor({ timeout: 15_000 })
  await changes.getByText('Business address').waitFor()
  expect(await description(name)).toContain('Corrected by a user')

  // "Read again" (confirmed, since the document was reviewed): the dialog closes, the original is
  // read once more, and the corrections stay.
  const rows = await companyRows(page, server.url, company.id)
  const id = rows.find((r) => r.name === first.file)!.document_id
  const record = async () =>
    (await (
      await page.context().request.get(`${server.url}/api/invoices/${id}?company_id=${company.id}`)
    ).json()) as { status: string; reviewed_at: string | null; business_name: string }
  // The saved correction was a review; a new reading is not.
  expect((await record()).reviewed_at).not.toBeNull()
  await details.getByRole('button', { name: 'Read again' }).click()
  // Reviewed, so it asks first: the confirmation would go.
  const ask = page.getByRole('alertdialog', { name: 'Read this document again?' })
  await ask.getByRole('button', { name: 'Read again' }).click()
  await expect.poll(() => details.count()).toBe(0)
  await page.getByText('The document is being read again. What you corrected is kept.').waitFor()
  await expect
    .poll(
      async () => {
        const r = await record()
        return r.status !== 'PROCESSING' && r.reviewed_at === null
      },
      { timeout: 60_000 },
    )
    .toBe(true)
  expect((await record()).business_name).toBe(correctedName)
  await page
    .getByRole('table')
    .getByRole('button', { name: `View ${first.file}` })
    .click()
  await expect.poll(() => name.inputValue()).toBe(correctedName)
  expect(await description(name)).toContain('Corrected by a user')
  await details.getByRole('button', { name: 'Close details' }).click()
  await expect.poll(() => details.count()).toBe(0)

  // The same supplier's next invoice (same VAT number) gets the corrected name and address.
  await uploadInvoice(page, second.file, 'Completed')
  await page
    .getByRole('table')
    .getByRole('button', { name: `View ${second.file}` })
    .click()
  await name.waitFor()
  expect(await details.getByLabel('VAT number', { exact: true }).inputValue()).toBe(second.fields.vat_number)
  await expect.poll(() => name.inputValue()).toBe(correctedName)
  expect(await address.inputValue()).toBe(correctedAddress)
  expect(await description(name)).toContain('Remembered for this supplier')
  expect(await description(address)).toContain('Remembered for this supplier')
  expect(errors).toEqual([])
  await context.close()
}, 150_000)

it('corrects a failed invoice in French and exports the invoices with `;` and a decimal comma', async () => {
  const failing = truth.find(
    (t) => t.kind === 'invoice' && t.render === 'pdf_text' && t.variant === 'missing_invoice_number',
  )
  if (!failing) throw new Error('truth.jsonl has no born-digital invoice without a number')
  const { page, context, errors } = await openPage(browser)
  await signIn(page, server.url)
  await joinNewCompany(page, server.url, 'Correction SARL')
  await uploadInvoice(page, failing.file, 'Failed')

  await page.getByRole('banner').getByRole('button', { name: 'Change language' }).click()
  await page.getByRole('menuitemradio', { name: 'Français' }).click()
  await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('fr')

  // By CSS, not role: the row stays in the page while the modal dialog hides it from the accessibility tree.
  const status = () =>
    page.locator('tr', { hasText: failing.file }).locator('[data-status]').getAttribute('data-status')
  await expect.poll(status, { timeout: 15_000 }).toBe('failed')
  await page
    .getByRole('table')
    .getByRole('button', { name: `Voir ${failing.file}` })
    .click()
  const détails = page.getByRole('dialog', { name: 'Détails de la facture' })
  const numéro = détails.getByLabel('Numéro de facture', { exact: true })
  await numéro.waitFor()
  expect(await numéro.inputValue()).toBe('')
  await numéro.fill('FA-2025-0001')
  await détails.getByRole('button', { name: 'Enregistrer les corrections' }).click()
  await page
    .getByText('Corrections enregistrées : le document est maintenant complet')
    .waitFor({ timeout: 15_000 })
  expect(await détails.locator('[data-status]').first().getAttribute('data-status')).toBe('completed')
  await détails.getByRole('list', { name: 'Modifications' }).getByText('Numéro de facture').waitFor()
  await expect.poll(status, { timeout: 10_000 }).toBe('completed')
  await détails.getByRole('button', { name: 'Fermer les détails' }).click()
  await expect.poll(() => détails.count()).toBe(0)

  await page.getByRole('button', { name: 'Exporter en CSV' }).click()
  const exporter = page.getByRole('dialog', { name: 'Exporter en CSV' })
  expect(await exporter.getByLabel('Séparateur', { exact: true }).inputValue()).toBe(';')
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    exporter.getByRole('button', { name: 'Télécharger' }).click(),
  ])
  const csv = readFileSync((await download.path())!, 'utf8')
  expect(csv.charCodeAt(0)).toBe(0xfeff)
  const lines = csv.slice(1).trim().split(/\r?\n/)
  expect(lines).toHaveLength(2)
  const [header, row] = lines as [string, string]
  expect(header.split(';').length).toBeGreaterThan(10)
  expect(header).not.toContain(',')
  const cells = row.split(';')
  expect(cells).toContain(failing.file)
  expect(cells).toContain('FA-2025-0001')
  const total = failing.fields.total_invoice_including_vat.toFixed(2)
  expect(cells).toContain(total.replace('.', ','))
  expect(cells).not.toContain(total)
  expect(errors).toEqual([])
  await context.close()
}, 150_000)

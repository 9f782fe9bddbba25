/**
 * Review end to end in Chromium with the real server: a FAILED corpus invoice is corrected in its
 * detail dialog and turns COMPLETED on the dashboard; the invoices export downloads as CSV.
 * Needs the server's correction, history and export calls (the review-server side of the feature).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { type RunningServer, repoRoot, startServer } from '../support/server-process'
import { ADMIN, openPage, signIn } from './support'

const corpus = join(repoRoot, '..', 'shared', 'corpus', 'files')
let server: RunningServer
let browser: Browser

beforeAll(async () => {
  if (!existsSync(corpus)) throw new Error(`the corpus is missing at ${corpus}`)
  server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

it('corrects a failed invoice in its dialog, which turns it COMPLETED, then exports the invoices as CSV', async () => {
  const { page, context, errors } = await openPage(browser)
  await signIn(page, server.url)
  const made = await context.request.post(`${server.url}/api/admin/company`, { data: { name: 'Review Co' } })
  const company = (await made.json()) as { id: number }
  const joined = await context.request.post(`${server.url}/api/admin/user-company`, {
    data: { user_email: ADMIN.email, company_id: company.id, role: 'COMPANY_ADMIN' },
  })
  expect(joined.ok()).toBe(true)
  await page.reload()
  await page.getByText('No documents yet').waitFor()

  // 0001 has no invoice number: it fails.
  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await page.getByRole('menuitem', { name: 'Upload invoice' }).click()
  const upload = page.getByRole('dialog')
  await upload
    .getByLabel('Files for Invoices', { exact: true })
    .setInputFiles([join(corpus, '0001-facture.pdf')])
  await upload.getByRole('button', { name: 'Upload', exact: true }).click()
  // The upload panel (not a toast, while it is open) shows the failure.
  await page
    .getByRole('region', { name: 'Uploads', exact: true })
    .getByRole('listitem')
    .filter({ hasText: '0001-facture.pdf' })
    .getByText('Failed', { exact: true })
    .waitFor({ timeout: 45_000 })
  // By CSS, not role: the row stays in the page while the modal dialog hides it from the accessibility tree.
  const status = () =>
    page.locator('tr', { hasText: '0001-facture.pdf' }).locator('[data-status]').getAttribute('data-status')
  await expect.poll(status, { timeout: 15_000 }).toBe('failed')

  await page.getByRole('button', { name: 'View 0001-facture.pdf' }).click()
  const details = page.getByRole('dialog', { name: 'Invoice details' })
  const number = details.getByLabel('Invoice number')
  await number.waitFor()
  expect(await details.locator('[data-part="description"] [data-status]').getAttribute('data-status')).toBe(
    'failed',
  )
  expect(await number.inputValue()).toBe('')

  // A wrong IBAN is refused as it is typed; Escape with unsaved changes asks first.
  const iban = details.getByLabel('IBAN')
  const ibanBefore = await iban.inputValue()
  await iban.fill('FR76 3000 6000 0112 3456 7890 188')
  await details.getByText('This IBAN is not valid (its check digits do not match)').waitFor()
  await page.keyboard.press('Escape')
  const discard = page.getByRole('alertdialog', { name: 'Discard your changes?' })
  await discard.getByRole('button', { name: 'Keep editing' }).click()
  await iban.fill(ibanBefore)

  await number.fill('FA-2024-0001')
  await details.getByRole('button', { name: 'Save corrections' }).click()
  await page.getByText('Corrections saved: the document is now complete').waitFor({ timeout: 15_000 })
  // The dialog's header shows the status the save answered, without reopening.
  const badge = details.locator('[data-part="description"] [data-status]')
  expect(await badge.getAttribute('data-status')).toBe('completed')
  expect(await details.getByRole('button', { name: 'Upload new PDF' }).count()).toBe(0)
  await details.getByRole('list', { name: 'Changes' }).getByText('Invoice number').waitFor()
  // The dashboard row followed while the dialog was open.
  await expect.poll(status, { timeout: 10_000 }).toBe('completed')
  await details.getByRole('button', { name: 'Close details' }).click()
  await expect.poll(() => details.count()).toBe(0)

  // The export: invoices, comma in English, UTF-8 with BOM, the corrected invoice's row.
  // From a worklist filtered to failed documents, the export starts with that status; the user widens it.
  await page.getByRole('button', { name: /^Failed/ }).click()
  await expect.poll(() => page.locator('tr', { hasText: '0001-facture.pdf' }).count()).toBe(0)
  await page.getByRole('button', { name: 'Export CSV' }).click()
  const dialog = page.getByRole('dialog', { name: 'Export to CSV' })
  expect(await dialog.getByLabel('Status').inputValue()).toBe('failed')
  await dialog.getByLabel('Status').selectOption('')
  expect(await dialog.getByLabel('Separator').inputValue()).toBe(',')
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download' }).click(),
  ])
  const csv = readFileSync((await download.path())!, 'utf8')
  expect(csv.charCodeAt(0)).toBe(0xfeff)
  const lines = csv.slice(1).trim().split(/\r?\n/)
  expect(lines).toHaveLength(2)
  expect(lines[1]).toContain('0001-facture.pdf')
  expect(lines[1]).toContain('FA-2024-0001')
  expect(lines[1]).toMatch(/COMPLETED/i)
  expect(errors).toEqual([])
  await context.close()
}, 150_000)

/**
 * Uploads end to end in Chromium with real corpus files: the header's Upload menu, the invoice
 * dialog, the progress panel, processing to COMPLETED / FAILED, and the dashboard refreshed.
 */
import { existsSync } from 'node:fs'
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

it('uploads two corpus invoices, shows their progress and outcome, and lists them on the dashboard', async () => {
  const { page, context, errors } = await openPage(browser)
  await signIn(page, server.url)
  // The platform administrator makes a company and joins it (the admin screens have their own test).
  const made = await context.request.post(`${server.url}/api/admin/company`, {
    data: { name: 'Acme Accounting' },
  })
  const company = (await made.json()) as { id: number }
  const joined = await context.request.post(`${server.url}/api/admin/user-company`, {
    data: { user_email: ADMIN.email, company_id: company.id, role: 'COMPANY_ADMIN' },
  })
  expect(joined.ok()).toBe(true)
  await page.reload()
  await page.getByText('No documents yet').waitFor()

  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await page.getByRole('menuitem', { name: 'Upload invoice' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click()
  await dialog.getByText('Please select at least one file to upload').waitFor()
  await dialog
    .getByLabel('Files for Invoices', { exact: true })
    .setInputFiles([join(corpus, '0001-facture.pdf'), join(corpus, '0002-facture.pdf')])
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click()

  // 0002 is a clean invoice; 0001 has no invoice number, an error that fails it. The panel, open on
  // them, shows the outcomes; no toast repeats them.
  const panel = page.getByRole('region', { name: 'Uploads', exact: true })
  const panelRow = (name: string) => panel.getByRole('listitem').filter({ hasText: name })
  await panelRow('0002-facture.pdf').getByText('Completed', { exact: true }).waitFor({ timeout: 45_000 })
  await panelRow('0001-facture.pdf').getByText('Failed', { exact: true }).waitFor({ timeout: 45_000 })
  expect(
    await page
      .locator('[data-rht-toaster]')
      .getByText(/processed successfully|failed: /)
      .count(),
  ).toBe(0)
  // A processed invoice's View in the panel opens its details on the dashboard; a failed one has none.
  expect(
    await panelRow('0001-facture.pdf')
      .getByRole('button', { name: /^View / })
      .count(),
  ).toBe(0)
  await panelRow('0002-facture.pdf').getByRole('button', { name: 'View 0002-facture.pdf' }).click()
  const viewed = page.getByRole('dialog', { name: 'Invoice details' })
  await viewed.getByTitle('Preview of 0002-facture.pdf').waitFor()
  await viewed.getByRole('button', { name: 'Close details' }).click()
  await expect.poll(() => viewed.count()).toBe(0)
  // From another page, View goes back to the dashboard and opens the invoice there.
  await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).click()
  await page.waitForURL((url) => url.pathname === '/settings')
  await panelRow('0002-facture.pdf').getByRole('button', { name: 'View 0002-facture.pdf' }).click()
  await page.waitForURL((url) => url.pathname === '/')
  await viewed.getByTitle('Preview of 0002-facture.pdf').waitFor()
  await viewed.getByRole('button', { name: 'Close details' }).click()
  await expect.poll(() => viewed.count()).toBe(0)

  const rows = page.getByRole('table').getByRole('row')
  await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3)
  const statusOf = (name: string) =>
    page.getByRole('row', { name: new RegExp(name) }).locator('[data-status]')
  await expect.poll(() => statusOf('0002-facture.pdf').getAttribute('data-status')).toBe('completed')
  await expect.poll(() => statusOf('0001-facture.pdf').getAttribute('data-status')).toBe('failed')

  await page.getByRole('button', { name: /^Failed/ }).click()
  await expect.poll(() => rows.count()).toBe(2)

  // The failed invoice's details: its fields, the quality error, the preview of the original.
  await page.getByRole('button', { name: 'View 0001-facture.pdf' }).click()
  const details = page.getByRole('dialog', { name: 'Invoice details' })
  await details.getByRole('list', { name: 'Quality errors' }).waitFor()
  expect(await details.getByRole('list', { name: 'Quality errors' }).textContent()).toMatch(/invoice number/i)
  await details.getByTitle('Preview of 0001-facture.pdf').waitFor()
  await details.getByRole('button', { name: 'Close details' }).click()
  await expect.poll(() => details.count()).toBe(0)

  // The platform administrator deletes it, after a confirmation that clicking outside does not dismiss.
  await page.getByRole('button', { name: 'Delete 0001-facture.pdf' }).click()
  const confirm = page.getByRole('alertdialog')
  await confirm.getByText('0001-facture.pdf will be deleted with its file').waitFor()
  await page.mouse.click(5, 5)
  expect(await confirm.count()).toBe(1)
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await page.getByText('Document deleted successfully').waitFor()
  // The Failed filter is still on: nothing left in it, then the whole list has the other invoice.
  await page.getByText('No documents match your filters.').waitFor()
  await page.getByRole('button', { name: 'Clear all filters' }).click()
  await expect.poll(() => rows.count()).toBe(2)
  expect(errors).toEqual([])
  await context.close()
})

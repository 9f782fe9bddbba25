/**
 * An XML e-invoice end to end in Chromium: uploaded through the invoice dialog, processed from its
 * XML, and its detail view rendering the invoice (parties, lines, totals) where a PDF would show,
 * in English and in French.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { generateInvoiceXml, SAMPLE } from '../support/einvoices'
import { type RunningServer, startServer } from '../support/server-process'
import { ADMIN, openPage, signIn } from './support'

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

it('uploads a UBL invoice through the dialog and shows it rendered from its XML, in English and French', async () => {
  const { page, context, errors } = await openPage(browser)
  await signIn(page, server.url)
  const made = await context.request.post(`${server.url}/api/admin/company`, {
    data: { name: 'E-invoice Co' },
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
  const xml = await generateInvoiceXml('UBL')
  await dialog
    .getByLabel('Files for Invoices', { exact: true })
    .setInputFiles([{ name: 'sample-invoice.xml', mimeType: 'application/xml', buffer: Buffer.from(xml) }])
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click()
  // The upload panel (not a toast, while it is open) shows it done.
  await page
    .getByRole('region', { name: 'Uploads', exact: true })
    .getByRole('listitem')
    .filter({ hasText: 'sample-invoice.xml' })
    .getByText('Completed', { exact: true })
    .waitFor({ timeout: 45_000 })

  await page.getByRole('table').getByRole('button', { name: 'View sample-invoice.xml' }).click()
  const details = page.getByRole('dialog', { name: 'Invoice details' })
  const rendering = details.getByRole('region', { name: 'E-invoice rendering' })
  await rendering.getByRole('heading', { name: `Invoice ${SAMPLE.number}` }).waitFor()
  expect(await rendering.getByRole('region', { name: 'Seller' }).textContent()).toContain(SAMPLE.seller)
  expect(await rendering.getByRole('region', { name: 'Buyer' }).textContent()).toContain(SAMPLE.buyer)
  expect(await rendering.getByRole('region', { name: 'Totals' }).textContent()).toContain('€180.00')
  expect(await rendering.getByRole('region', { name: 'Payment terms' }).textContent()).toContain(SAMPLE.terms)
  // No PDF frame for a bare XML file.
  expect(await details.locator('iframe').count()).toBe(0)
  const panel = details.getByRole('region', { name: 'Information panel' })
  await panel.getByText('From the e-invoice data').waitFor()
  expect(await panel.getByRole('table', { name: 'Invoice lines' }).getByRole('row').count()).toBe(3)
  // The fields are editable in place: the number is the input's value.
  expect(await panel.getByLabel('Invoice number', { exact: true }).inputValue()).toBe(SAMPLE.number)
  await details.getByRole('button', { name: 'Close details' }).click()
  await expect.poll(() => details.count()).toBe(0)

  await page.getByRole('banner').getByRole('button', { name: 'Change language' }).click()
  await page.getByRole('menuitemradio', { name: 'Français' }).click()
  await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('fr')
  await page.getByRole('table').getByRole('button', { name: 'Voir sample-invoice.xml' }).click()
  const détails = page.getByRole('dialog', { name: 'Détails de la facture' })
  const rendu = détails.getByRole('region', { name: 'Rendu de la facture électronique' })
  await rendu.getByRole('heading', { name: `Facture ${SAMPLE.number}` }).waitFor()
  expect(await rendu.getByRole('region', { name: 'Vendeur' }).textContent()).toContain(SAMPLE.seller)
  expect(await rendu.getByRole('region', { name: 'Totaux' }).textContent()).toMatch(/180,00\s€/)
  await détails.getByText('Depuis les données de la facture électronique').waitFor()
  await détails
    .getByRole('region', { name: 'Panneau d’informations' })
    .getByRole('table', { name: 'Lignes de facture' })
    .waitFor()
  expect(errors).toEqual([])
})

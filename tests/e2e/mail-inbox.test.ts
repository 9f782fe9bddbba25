/**
 * Documents by e-mail end to end: the server's scanner inbox on a free port, a mail sent by
 * nodemailer to the selected company's invoice scanner address, and the dashboard in Chromium
 * showing its attachment processed to its final status and its refused attachment as rejected.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { freePort, type RunningServer, repoRoot, startServer } from '../support/server-process'
import { ADMIN, openPage, signIn } from './support'

const corpus = join(repoRoot, '..', 'shared', 'corpus', 'files')
let server: RunningServer
let browser: Browser
let smtpPort: number

beforeAll(async () => {
  smtpPort = await freePort()
  server = await startServer({
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    SMTP_IN_PORT: String(smtpPort),
  })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

it('shows a mail sent to the company scanner address on its dashboard with its final status', async () => {
  const { page, context, errors } = await openPage(browser)
  await signIn(page, server.url)
  const made = await context.request.post(`${server.url}/api/admin/company`, { data: { name: 'Mailed Ltd' } })
  const company = (await made.json()) as { id: number }
  const scanner = 'invoices@mailed.test'
  const set = await context.request.put(`${server.url}/api/admin/company/${company.id}`, {
    data: { invoice_scanner: scanner },
  })
  expect(set.ok()).toBe(true)
  await context.request.post(`${server.url}/api/admin/user-company`, {
    data: { user_email: ADMIN.email, company_id: company.id, role: 'COMPANY_ADMIN' },
  })
  await page.reload()
  await page.getByText('No documents yet').waitFor()

  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, ignoreTLS: true })
  const info = await transport.sendMail({
    from: 'supplier@vendor.test',
    to: scanner,
    subject: 'Your invoice',
    attachments: [
      { filename: 'mailed-invoice.pdf', content: await readFile(join(corpus, '0002-facture.pdf')) },
      { filename: 'readme.txt', content: 'not an invoice' },
    ],
  })
  transport.close()
  expect(info.accepted).toEqual([scanner])

  const statusOf = (name: string) =>
    page.getByRole('row', { name: new RegExp(name) }).locator('[data-status]')
  await expect
    .poll(
      async () => {
        await page.reload()
        await page.getByRole('table').waitFor()
        return statusOf('mailed-invoice\\.pdf')
          .getAttribute('data-status', { timeout: 2000 })
          .catch(() => null)
      },
      { timeout: 45_000, interval: 1000 },
    )
    .toBe('completed')
  expect(await statusOf('readme\\.txt').getAttribute('data-status')).toBe('rejected')
  // Each row says how it arrived (the e-mail icon and the envelope sender); the refused one, why.
  const mailed = page.getByRole('row', { name: /mailed-invoice\.pdf/ })
  await expect.poll(() => mailed.getByRole('img', { name: 'Received by e-mail' }).count()).toBe(1)
  expect(await mailed.getByText('supplier@vendor.test').count()).toBe(1)
  const refused = page.getByRole('row', { name: /readme\.txt/ })
  expect(
    await refused.getByText('Only PDF, JPEG, PNG or XML e-invoice files are supported for invoices').count(),
  ).toBe(1)
  expect(errors).toEqual([])
})

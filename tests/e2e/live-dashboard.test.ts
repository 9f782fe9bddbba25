/**
 * The live dashboard end to end: the dashboard open in Chromium while a document is mailed to the
 * company's scanner address shows its row within 5 s, without a reload, then its final status.
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

it('shows a mailed document on the open dashboard within 5 s, without a reload', async () => {
  const { page, context, errors } = await openPage(browser)
  await signIn(page, server.url)
  const made = await context.request.post(`${server.url}/api/admin/company`, { data: { name: 'Live Ltd' } })
  const company = (await made.json()) as { id: number }
  const scanner = 'invoices@live.test'
  await context.request.put(`${server.url}/api/admin/company/${company.id}`, {
    data: { invoice_scanner: scanner },
  })
  await context.request.post(`${server.url}/api/admin/user-company`, {
    data: { user_email: ADMIN.email, company_id: company.id, role: 'COMPANY_ADMIN' },
  })
  const streamOpen = page.waitForResponse(
    (r) => r.url().includes(`/api/events?company_id=${company.id}`) && r.status() === 200,
  )
  await page.reload()
  await page.getByText('No documents yet').waitFor()
  await streamOpen
  let navigations = 0
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations++
  })

  const sent = Date.now()
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, ignoreTLS: true })
  const info = await transport.sendMail({
    from: 'supplier@vendor.test',
    to: scanner,
    subject: 'Your invoice',
    attachments: [
      { filename: 'live-invoice.pdf', content: await readFile(join(corpus, '0002-facture.pdf')) },
    ],
  })
  transport.close()
  expect(info.accepted).toEqual([scanner])

  const row = page.getByRole('row', { name: /live-invoice\.pdf/ })
  await row.waitFor({ timeout: 5000 })
  const appeared = Date.now() - sent
  await expect
    .poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: 45_000, interval: 250 })
    .toBe('completed')
  const finished = Date.now() - sent
  console.info(
    `live dashboard: row shown ${appeared} ms after the mail was sent, completed after ${finished} ms`,
  )
  expect(appeared).toBeLessThan(5000)
  expect(navigations).toBe(0)
  expect(errors).toEqual([])
})

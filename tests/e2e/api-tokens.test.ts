/**
 * Personal API tokens end to end in Chromium: Settings → API tokens creates a token (shown once,
 * copied with its button), a `fetch` carrying only `Authorization: Bearer` uploads an invoice,
 * which a script then waits for and reads; the list shows the token's last use, and once revoked
 * (after a confirmation) the token answers 401.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { type RunningServer, repoRoot, startServer } from '../support/server-process'
import { ADMIN, openPage, signIn } from './support'

const corpus = join(repoRoot, '..', 'shared', 'corpus', 'files')
const INVOICE = '0002-facture.pdf'

let server: RunningServer
let browser: Browser
let companyId = 0

beforeAll(async () => {
  server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
  browser = await launchBrowser()
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  })
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(body),
    })
  const company = await post('/admin/company', { name: 'Token Works' })
  companyId = ((await company.json()) as { id: number }).id
  const joined = await post('/admin/user-company', {
    user_email: ADMIN.email,
    company_id: companyId,
    role: 'COMPANY_ADMIN',
  })
  expect(joined.ok).toBe(true)
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

it('creates a token in Settings with which a fetch uploads an invoice; revoked, it answers 401', async () => {
  const { page, context, errors } = await openPage(browser)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
  await signIn(page, server.url)
  await page.goto(`${server.url}/settings`)
  const section = page.getByRole('region', { name: 'API tokens' })
  await section.getByText('No API tokens yet.').waitFor()

  // An empty name is refused by the form; then a named token is created and shown once.
  await section.getByRole('button', { name: 'Create token' }).click()
  await section.getByText('Token name is required').waitFor()
  await section.getByLabel('Token name').fill('Folder uploader')
  expect(await section.getByLabel('Expires in').inputValue()).toBe('365')
  await section.getByRole('button', { name: 'Create token' }).click()
  const shown = section.getByLabel('New token')
  await shown.waitFor()
  const token = await shown.inputValue()
  expect(token).toMatch(/^dft_[A-Za-z0-9_-]{43}$/)
  await section.getByRole('button', { name: 'Copy token' }).click()
  await page.getByText('API token copied to the clipboard').waitFor()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token)

  // A script's request: the token alone (no cookie), multipart, like curl.
  const pdf = (await readFile(join(corpus, INVOICE))).toString('base64')
  const upload = await page.evaluate(
    async ({ token, pdf, companyId, name }) => {
      const bytes = Uint8Array.from(atob(pdf), (c) => c.charCodeAt(0))
      const form = new FormData()
      form.set('documentType', 'invoice')
      form.set('category', 'Invoices')
      form.set('company_id', String(companyId))
      form.set('file', new Blob([bytes], { type: 'application/pdf' }), name)
      const answer = await fetch('/api/documents/upload', {
        method: 'POST',
        body: form,
        credentials: 'omit',
        headers: { Authorization: `Bearer ${token}` },
      })
      return { status: answer.status, body: (await answer.json()) as { id: number; status: string } }
    },
    { token, pdf, companyId, name: INVOICE },
  )
  expect(upload.status).toBe(201)

  // The script waits for the invoice and reads its fields, with the token only.
  const bearer = { Authorization: `Bearer ${token}` }
  await expect
    .poll(
      async () => {
        const answer = await fetch(
          `${server.url}/api/api/document/invoice/${upload.body.id}/status?company_id=${companyId}`,
          { headers: bearer },
        )
        return ((await answer.json()) as { status: string }).status
      },
      { timeout: 45_000, interval: 500 },
    )
    .toBe('COMPLETED')
  const invoice = await fetch(`${server.url}/api/invoices/${upload.body.id}?company_id=${companyId}`, {
    headers: bearer,
  })
  expect(invoice.status).toBe(200)
  expect(((await invoice.json()) as { invoice_number: string | null }).invoice_number).toBeTruthy()

  // Put away, the token is gone from the page; the list shows it with its last use.
  await section.getByRole('button', { name: 'Done' }).click()
  await expect.poll(() => section.getByLabel('New token').count()).toBe(0)
  const row = section.getByRole('row').filter({ hasText: 'Folder uploader' })
  await row.waitFor()
  expect(await row.getByRole('cell').nth(3).textContent()).not.toBe('Never')
  expect(await page.content()).not.toContain(token)

  // Revoked after a confirmation (keyboard: the confirm button takes Enter), it stops working.
  await row.getByRole('button', { name: 'Revoke Folder uploader' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Revoke API token?' })
  await dialog.getByRole('button', { name: 'Revoke' }).focus()
  await page.keyboard.press('Enter')
  await page.getByText('API token revoked').waitFor()
  await section.getByText('No API tokens yet.').waitFor()
  const refused = await fetch(`${server.url}/api/auth/logged-in`, { headers: bearer })
  expect(refused.status).toBe(401)
  expect(errors).toEqual([])
  await context.close()
})

/**
 * An accented file name uploaded from Chromium through the upload dialog (Chromium sends the
 * multipart `filename` as raw UTF-8) keeps its exact name: in the upload panel's outcome, the
 * dashboard row, the detail dialog and the download header.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { type RunningServer, repoRoot, startServer } from '../support/server-process'
import { ADMIN, openPage, signIn, uploadSettled } from './support'

const NAME = 'facture_été.pdf'
let server: RunningServer
let browser: Browser
let dir: string

beforeAll(async () => {
  // A clean corpus invoice under the accented name.
  dir = await mkdtemp(join(tmpdir(), 'docflow-e2e-names-'))
  await copyFile(join(repoRoot, '..', 'shared', 'corpus', 'files', '0002-facture.pdf'), join(dir, NAME))
  server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (dir) await rm(dir, { recursive: true, force: true })
})

it('keeps facture_été.pdf exactly from the upload dialog to the dashboard row and the detail dialog', async () => {
  const { page, context, errors } = await openPage(browser)
  await signIn(page, server.url)
  const made = await context.request.post(`${server.url}/api/admin/company`, { data: { name: 'Été SARL' } })
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
  await dialog.getByLabel('Files for Invoices', { exact: true }).setInputFiles(join(dir, NAME))
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click()
  await uploadSettled(page, NAME)

  // The dashboard row: its name cell reads exactly the name.
  const row = page.getByRole('row', { name: new RegExp(NAME.replace('.', '\\.')) })
  await row.waitFor()
  await expect.poll(() => row.getByText(NAME, { exact: true }).count()).toBeGreaterThan(0)
  expect(await page.locator('body').textContent()).not.toContain('Ã')

  // The detail dialog: title and preview named exactly.
  // The table's View (the upload panel has its own).
  await page
    .getByRole('table')
    .getByRole('button', { name: `View ${NAME}` })
    .click()
  const details = page.getByRole('dialog', { name: 'Invoice details' })
  await details.getByTitle(`Preview of ${NAME}`).waitFor()
  expect(await details.getByText(NAME, { exact: true }).count()).toBeGreaterThan(0)
  expect(await details.textContent()).not.toContain('Ã')

  // What the server stored and the download header it answers.
  const logs = (await (
    await context.request.get(`${server.url}/api/logs?company_id=${company.id}`)
  ).json()) as { document_id: number; name: string }[]
  expect(logs.map((l) => l.name)).toEqual([NAME])
  const file = await context.request.get(
    `${server.url}/api/invoices/invoice/${logs[0]!.document_id}/download?company_id=${company.id}`,
  )
  expect(file.headers()['content-disposition']).toBe(
    `inline; filename="facture_ete.pdf"; filename*=UTF-8''${encodeURIComponent(NAME)}`,
  )
  expect(errors).toEqual([])
  await context.close()
})

/**
 * Time from opening a document to its outlines appearing, in Chromium against the real server
 * (the built `dist/`): uploads N corpus documents (text-layer PDFs, scans and images; 20 unless
 * `BENCH_OUTLINE_COUNT`), waits until they are processed, then opens each from the dashboard's
 * list and measures from the click on "View" to the first outline drawn on its page (a
 * `[data-outline]` box from `field_evidence`). Prints each time, then p50 and p95.
 * `BENCH_OUTLINE_SCREENS=DIR` also saves the dialog of the first document, its number focused, at
 * 1280 × 800 and 375 × 740.
 *
 *   npm run build && npm run bench:outline
 */
import { existsSync, readdirSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import {
  ADMIN,
  clearUploadPanel,
  companyRows,
  joinNewCompany,
  openPage,
  signIn,
  uploadInvoices,
} from '../tests/e2e/support'
import { launchBrowser } from '../tests/support/browser'
import { repoRoot, startServer } from '../tests/support/server-process'

const corpus = join(repoRoot, '..', 'shared', 'corpus', 'files')
if (!existsSync(corpus)) throw new Error(`the corpus is missing at ${corpus}`)
const count = Number(process.env.BENCH_OUTLINE_COUNT ?? 20)
// Every kind the corpus holds, in its order: invoices and receipts, text layers, scans and images.
const files = readdirSync(corpus)
  .filter((f) => /\.(pdf|png|jpe?g)$/.test(f))
  .sort()
  .slice(0, count)

const screens = process.env.BENCH_OUTLINE_SCREENS

/** The open dialog with "Invoice number" focused (its outline drawn), on a desktop and a phone. */
async function screenshots(page: Page, details: Locator) {
  if (!screens) return
  await mkdir(screens, { recursive: true })
  for (const [name, size] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 375, height: 740 }],
  ] as const) {
    await page.setViewportSize(size)
    // The page is drawn again at the new width (its frame's size is observed) before the shot.
    const surface = details.getByTestId('preview-page')
    for (let i = 0; i < 100 && ((await surface.boundingBox())?.width ?? 0) > size.width; i++)
      await page.waitForTimeout(50)
    await details.getByLabel('Invoice number', { exact: true }).focus()
    await details
      .locator('[data-outline][data-highlighted]')
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => {})
    await page.screenshot({ path: join(screens, `review-dialog-${name}.png`) })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

const server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
const browser = await launchBrowser()
try {
  const { page } = await openPage(browser)
  await signIn(page, server.url)
  const company = await joinNewCompany(page, server.url, 'Outline bench')
  await uploadInvoices(
    page,
    files.map((f) => join(corpus, f)),
  )
  const deadline = Date.now() + 10 * 60_000
  for (;;) {
    const rows = await companyRows(page, server.url, company.id)
    if (rows.length === files.length && rows.every((r) => !/pending|processing/i.test(r.status))) break
    if (Date.now() > deadline) throw new Error('the uploads did not finish processing in 10 minutes')
    await new Promise((r) => setTimeout(r, 1000))
  }
  await clearUploadPanel(page)
  await page.reload()

  const times: { file: string; ms: number | null }[] = []
  for (const file of files) {
    const view = page.getByRole('button', { name: `View ${file}` })
    await view.scrollIntoViewIfNeeded()
    const started = Date.now()
    await view.click()
    const details = page.getByRole('dialog', { name: /details$/ })
    let ms: number | null = null
    try {
      await details.locator('[data-outline]').first().waitFor({ state: 'attached', timeout: 20_000 })
      ms = Date.now() - started
    } catch {
      // A document with nothing read on a page (a failed one) has no outline: reported as such.
    }
    times.push({ file, ms })
    if (screens && file === files[0]) await screenshots(page, details)
    await page.keyboard.press('Escape')
    await details.waitFor({ state: 'detached' })
  }
  for (const { file, ms } of times)
    console.log(`${file.padEnd(28)} ${ms === null ? 'no outline' : `${ms} ms`}`)
  const measured = times.flatMap((t) => (t.ms === null ? [] : [t.ms])).sort((a, b) => a - b)
  const quantile = (q: number) => measured[Math.min(measured.length - 1, Math.floor(q * measured.length))]
  console.log(
    `open → first outline over ${measured.length} of ${times.length} documents: p50 ${quantile(0.5)} ms, p95 ${quantile(0.95)} ms`,
  )
} finally {
  await browser.close()
  await server.stop()
}

/**
 * Going through the review queue by keyboard in Chromium against the real server: with the "To
 * review" card pressed, a document opened from the list is confirmed with Ctrl+Enter ("Save and
 * next"), the next one of the list opens in its place and the card's count falls by one; J and K
 * move along the list without saving; `?` lists the shortcuts. The documents are a text-layer PDF,
 * a scanned receipt (a PDF holding an image) and a PNG, all uploaded as invoices, each twice.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { repoRoot } from '../support/server-process'
import { companyWithInvoices, openPage, serverAndBrowser } from './support'

const corpus = join(repoRoot, '..', 'shared', 'corpus', 'files')
/** A text-layer invoice, a receipt scanned into a PDF, and a PNG scan (read through OCR). */
const FILES = ['0003-ticket.pdf', '0011-ticket-scan.pdf', '0032-scan.png']
if (!existsSync(corpus)) throw new Error(`the corpus is missing at ${corpus}`)
const app = serverAndBrowser()

async function setUp(page: Page) {
  // Each file twice, the second time under another name: the copy is a likely duplicate (a warning),
  // so the queue holds at least the three copies, whatever the engine made of the originals.
  return companyWithInvoices(page, app.server.url, 'Review Co', [
    FILES.map((f) => join(corpus, f)),
    FILES.map((f) => ({
      name: `copy-${f}`,
      mimeType: f.endsWith('.png') ? 'image/png' : 'application/pdf',
      buffer: readFileSync(join(corpus, f)),
    })),
  ])
}

/** The number on the "To review" card (behind the open dialog too). */
async function toReview(page: Page) {
  const card = page.getByRole('button', { name: /^To review/, includeHidden: true })
  return Number(((await card.textContent()) ?? '').replace(/\D+/g, ''))
}

/** The file name the open detail dialog shows. */
const openName = async (details: Locator) =>
  (await details.locator('[data-part="description"]').first().textContent()) ?? ''

it('confirms with Ctrl+Enter, opens the next document to review, and moves with J / K', async () => {
  const { page, context, errors } = await openPage(app.browser)
  const { rows } = await setUp(page)
  const queued = (await rows()).filter((r) => r.needs_review)
  expect(queued.length, 'the copies are likely duplicates').toBeGreaterThanOrEqual(FILES.length)

  await page.getByRole('button', { name: /^To review/ }).click()
  await expect.poll(() => toReview(page)).toBe(queued.length)
  const table = page.getByRole('table')
  await expect.poll(() => table.getByRole('row').count()).toBe(queued.length + 1)
  // The list's order, from its rows' View buttons.
  const order = (await table
    .getByRole('button', { name: /^View / })
    .evaluateAll((buttons) =>
      buttons.map((b) => (b.getAttribute('aria-label') ?? '').replace(/^View /, '')),
    )) as string[]
  expect([...order].sort()).toEqual(queued.map((r) => r.name).sort())

  // The first of the list opens; `?` lists the shortcuts (outside a field, where it is a letter).
  await table.getByRole('button', { name: `View ${order[0]}` }).click()
  const details = page.getByRole('dialog', { name: /details$/ })
  await details.getByRole('button', { name: 'Save and next' }).waitFor()
  expect(await openName(details)).toContain(order[0])
  await details.getByRole('heading', { name: 'Information' }).click()
  await page.keyboard.press('?')
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  await help.waitFor()
  expect(await help.textContent()).toContain('Ctrl+Enter')
  await help.getByRole('button', { name: 'Close shortcuts' }).click()
  await help.waitFor({ state: 'detached' })

  // Ctrl+Enter from a field: nothing changed, so the document is confirmed as it is; the next one opens.
  await details.getByLabel('Invoice number', { exact: true }).focus()
  await page.keyboard.press('Control+Enter')
  await expect
    .poll(() => openName(page.getByRole('dialog', { name: /details$/ })), { timeout: 15_000 })
    .toContain(order[1])
  await expect.poll(() => toReview(page), { timeout: 15_000 }).toBe(queued.length - 1)
  const confirmed = (await rows()).find((r) => r.name === order[0])!
  expect(confirmed.needs_review).toBe(false)

  // J and K move along the list as it was shown when the dialog opened, saving nothing.
  const next = page.getByRole('dialog', { name: /details$/ })
  await next.getByRole('button', { name: 'Save and next' }).waitFor()
  if (order.length > 2) {
    await next.getByRole('heading', { name: 'Information' }).click()
    await page.keyboard.press('j')
    await expect.poll(() => openName(page.getByRole('dialog', { name: /details$/ }))).toContain(order[2])
    await page
      .getByRole('dialog', { name: /details$/ })
      .getByRole('heading', { name: 'Information' })
      .click()
    await page.keyboard.press('k')
    await expect.poll(() => openName(page.getByRole('dialog', { name: /details$/ }))).toContain(order[1])
  }
  // Nothing else was confirmed by moving.
  expect((await rows()).filter((r) => r.needs_review).length).toBe(queued.length - 1)
  expect(errors).toEqual([])
  await context.close()
}, 180_000)

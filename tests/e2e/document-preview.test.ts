/**
 * The detail dialog's own preview in Chromium against the real server, on a processed text-layer
 * invoice of the corpus: the outline of a focused field covers the printed value (measured against
 * pdf.js's text layer), a second guess picked from a field's menu is saved as the user's, and a
 * drag over the supplier's name on the page fills "Business name". At 375 px the preview folds.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { type RunningServer, repoRoot, startServer } from '../support/server-process'
import { ADMIN, openPage, signIn, uploadSettled } from './support'

const corpus = join(repoRoot, '..', 'shared', 'corpus', 'files')
const FILE = '0002-facture.pdf'
const NUMBER = 'FA-2026-0621'
const SUPPLIER = 'Alpinea Expertise SARL'
let server: RunningServer
let browser: Browser

const LABELS: Record<string, string> = {
  invoice_number: 'Invoice number',
  invoice_date: 'Invoice date',
  due_date: 'Due date',
  business_name: 'Business name',
  business_address: 'Business address',
  vat_number: 'VAT number',
  iban: 'IBAN',
  currency: 'Currency',
  total_charge_excluding_vat: 'Total excluding VAT',
  total_vat_amount: 'VAT amount',
  total_invoice_including_vat: 'Total including VAT',
}

type Rect = { x: number; y: number; width: number; height: number }
type Evidence = { page: number; alternatives: { value: unknown; page: number }[] }
type Invoice = {
  business_name: string | null
  field_sources: Record<string, string>
  field_evidence: Record<string, Evidence>
} & Record<string, unknown>

beforeAll(async () => {
  if (!existsSync(corpus)) throw new Error(`the corpus is missing at ${corpus}`)
  server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** The screen rectangle of `text` inside the text layer's spans (a Range over the characters). */
async function textRect(page: Page, text: string, scroll = false): Promise<Rect> {
  const rect = await page.evaluate(
    ([wanted, into]) => {
      for (const span of document.querySelectorAll('.textLayer span')) {
        const node = span.firstChild
        const at = node?.textContent?.indexOf(wanted) ?? -1
        if (!node || at < 0) continue
        if (into) span.scrollIntoView({ block: 'center' })
        const range = document.createRange()
        range.setStart(node, at)
        range.setEnd(node, at + wanted.length)
        const r = range.getBoundingClientRect()
        return { x: r.x, y: r.y, width: r.width, height: r.height }
      }
      return null
    },
    [text, scroll] as const,
  )
  if (!rect) throw new Error(`"${text}" is not in the text layer`)
  return rect
}

const covers = (outer: Rect, inner: Rect, slack = 3) =>
  outer.x <= inner.x + slack &&
  outer.y <= inner.y + slack &&
  outer.x + outer.width >= inner.x + inner.width - slack &&
  outer.y + outer.height >= inner.y + inner.height - slack

async function openInvoice(page: Page) {
  await signIn(page, server.url)
  const made = await page.context().request.post(`${server.url}/api/admin/company`, {
    data: { name: 'Preview Co' },
  })
  const company = (await made.json()) as { id: number }
  await page.context().request.post(`${server.url}/api/admin/user-company`, {
    data: { user_email: ADMIN.email, company_id: company.id, role: 'COMPANY_ADMIN' },
  })
  await page.reload()
  await page.getByText('No documents yet').waitFor()
  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await page.getByRole('menuitem', { name: 'Upload invoice' }).click()
  const upload = page.getByRole('dialog')
  await upload.getByLabel('Files for Invoices', { exact: true }).setInputFiles([join(corpus, FILE)])
  await upload.getByRole('button', { name: 'Upload', exact: true }).click()
  await uploadSettled(page, FILE)
  const logs = await page.context().request.get(`${server.url}/api/logs?company_id=${company.id}`)
  const rows = (await logs.json()) as { document_id: number; name: string }[] | { data: unknown }
  const list = (Array.isArray(rows) ? rows : ((rows as { data: unknown }).data as typeof rows)) as {
    document_id: number
    name: string
  }[]
  const id = list.find((r) => r.name === FILE)!.document_id
  await page
    .getByRole('row', { name: new RegExp(FILE) })
    .getByRole('button', { name: `View ${FILE}` })
    .click()
  const details = page.getByRole('dialog', { name: 'Invoice details' })
  // The page is drawn with its text layer.
  await details.locator('.textLayer span', { hasText: 'Alpinea' }).first().waitFor({ timeout: 20_000 })
  const read = async () =>
    (await (
      await page.context().request.get(`${server.url}/api/invoices/${id}?company_id=${company.id}`)
    ).json()) as Invoice
  return { details, read }
}

const outlineOf = (details: Locator, field: string) =>
  details.locator(`[data-outline="${field}"][data-highlighted]`)

it('outlines where a focused field was read, saves a second guess, and fills a field from the page', async () => {
  const { page, context, errors } = await openPage(browser)
  const { details, read } = await openInvoice(page)
  const before = await read()
  expect(before.field_evidence.invoice_number, 'the engine says where the number was read').toBeDefined()

  // Focusing "Invoice number" outlines the printed number.
  await details.getByLabel('Invoice number', { exact: true }).focus()
  const outline = outlineOf(details, 'invoice_number')
  await outline.waitFor()
  const box = (await outline.boundingBox())!
  const printed = await textRect(page, NUMBER)
  expect(covers(box, printed), `outline ${JSON.stringify(box)} covers ${JSON.stringify(printed)}`).toBe(true)

  // Hovering another reading's outline on the page highlights its field.
  const other = Object.keys(before.field_evidence).find((f) => f in LABELS && f !== 'invoice_number')!
  const faint = details.locator(`[data-outline="${other}"]`)
  // Only a pointer that moved hovers (a page scrolled under a resting one does not): each try
  // scrolls to the outline, reads its box again and moves there, a pixel apart so that it is a move.
  let tries = 0
  await expect
    .poll(async () => {
      await faint.evaluate((el) => el.scrollIntoView({ block: 'center' }))
      const at = (await faint.boundingBox())!
      tries += 1
      await page.mouse.move(at.x + at.width / 2 + (tries % 2), at.y + at.height / 2)
      return details.locator(`[data-highlighted]:has(#edit-${other})`).count()
    })
    .toBeGreaterThan(0)
  await outlineOf(details, other).waitFor()

  // A field's menu lists the engine's second guesses; picking one saves it as the user's.
  const [field, evidence] = Object.entries(before.field_evidence).find(
    ([f, e]) => f in LABELS && e.alternatives.length > 0,
  )!
  await details.getByRole('button', { name: `Other readings of ${LABELS[field]}` }).click()
  await page.getByRole('menuitem').first().click()
  await expect.poll(async () => (await read()).field_sources[field], { timeout: 15_000 }).toBe('user')
  const saved = await read()
  const wanted = evidence.alternatives[0]!.value
  expect(String(saved[field])).toBe(typeof wanted === 'number' ? String(wanted) : String(wanted))

  // With "Business name" focused and emptied, a drag over the supplier's name on the page fills it.
  const name = details.getByLabel('Business name', { exact: true })
  await name.fill('')
  await name.focus()
  const words = await textRect(page, SUPPLIER, true)
  await page.mouse.move(words.x + 1, words.y + words.height / 2)
  await page.mouse.down()
  await page.mouse.move(words.x + words.width - 1, words.y + words.height / 2, { steps: 4 })
  await page.mouse.up()
  await expect.poll(() => name.inputValue()).toBe(SUPPLIER)
  // A click on one word fills that word.
  await name.fill('')
  await name.focus()
  const first = await textRect(page, 'Alpinea', true)
  await page.mouse.click(first.x + first.width / 2, first.y + first.height / 2)
  await expect.poll(() => name.inputValue()).toBe('Alpinea')

  // By keyboard: "Pick text from the page" hands the keys to the page; Escape stops picking and
  // leaves the dialog open; Enter on the page picks again, left and right walk the words, down and
  // up the lines, Shift+arrows take more, Enter fills the field focused last and gives it the focus back.
  await name.fill('')
  await name.focus()
  await details.getByRole('button', { name: 'Pick text from the page' }).focus()
  await page.keyboard.press('Enter')
  const surface = details.getByRole('region', { name: /^Page 1 of 1$/ })
  await expect.poll(() => surface.evaluate((el) => el === document.activeElement)).toBe(true)
  const taken = details.getByRole('status').filter({ hasText: /\(word \d+ of \d+\)/ })
  await taken.waitFor()
  await page.keyboard.press('Escape')
  await taken.waitFor({ state: 'detached' })
  expect(await details.isVisible()).toBe(true)
  await page.keyboard.press('Enter')
  for (let i = 0; i < 300 && !/^Alpinea \(/.test((await taken.textContent()) ?? ''); i++)
    await page.keyboard.press('ArrowRight')
  // Down goes to the line below (the supplier's address under its name), up comes back.
  await page.keyboard.press('ArrowDown')
  await expect.poll(() => taken.textContent()).not.toMatch(/^Alpinea \(/)
  await page.keyboard.press('ArrowUp')
  await expect.poll(() => taken.textContent()).toMatch(/^Alpinea \(/)
  await page.keyboard.press('Shift+ArrowRight')
  await page.keyboard.press('Shift+ArrowRight')
  expect(await taken.textContent()).toMatch(new RegExp(`^${SUPPLIER} \\(`))
  await page.keyboard.press('Enter')
  await expect.poll(() => name.inputValue()).toBe(SUPPLIER)
  await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true)

  // At 375 px the preview sits above the fields and folds away.
  await page.setViewportSize({ width: 375, height: 740 })
  const toggle = details.getByRole('button', { name: 'Hide preview' })
  await toggle.waitFor()
  // The page is drawn again to fit the narrower frame (the column does not keep the wider page's width).
  await expect
    .poll(async () => (await details.getByTestId('preview-page').boundingBox())!.width, { timeout: 5_000 })
    .toBeLessThanOrEqual(375)
  const pageBox = (await details.getByTestId('preview-page').boundingBox())!
  const fieldBox = (await details.getByLabel('Invoice number', { exact: true }).boundingBox())!
  expect(pageBox.y).toBeLessThan(fieldBox.y)
  await toggle.click()
  await details.getByRole('button', { name: 'Show preview' }).waitFor()
  expect(await details.getByTestId('preview-page').isVisible()).toBe(false)
  expect(errors).toEqual([])
  await context.close()
}, 150_000)

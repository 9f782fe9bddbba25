/**
 * The detail dialog's preview on documents read through OCR, in Chromium against the real server: a
 * PNG scan and a scanned receipt (a PDF holding an image), both uploaded as invoices. Focusing a
 * field read on the page outlines the place of the OCR words its value came from (the server's
 * `…/pages/{n}/words`, drawn over the page the dialog shows), a second guess picked from a field's
 * menu is saved as the user's, and with "Business name" focused, a click on a word of the page
 * fills the field with that word.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { repoRoot } from '../support/server-process'
import { companyWithInvoices, openPage, serverAndBrowser } from './support'

const corpus = join(repoRoot, '..', 'shared', 'corpus', 'files')
const FILES = ['0032-scan.png', '0011-ticket-scan.pdf']
const LABELS: Record<string, string> = {
  invoice_number: 'Invoice number',
  invoice_date: 'Invoice date',
  business_name: 'Business name',
  vat_number: 'VAT number',
  iban: 'IBAN',
  total_charge_excluding_vat: 'Total excluding VAT',
  total_vat_amount: 'VAT amount',
  total_invoice_including_vat: 'Total including VAT',
}
if (!existsSync(corpus)) throw new Error(`the corpus is missing at ${corpus}`)
const app = serverAndBrowser()

type Box = [number, number, number, number]
type Rect = { x: number; y: number; width: number; height: number }
type Word = { text: string; box: Box }

/** A box in fractions of the page, on the screen where the page is drawn. */
const onScreen = (page: Rect, box: Box): Rect => ({
  x: page.x + box[0] * page.width,
  y: page.y + box[1] * page.height,
  width: (box[2] - box[0]) * page.width,
  height: (box[3] - box[1]) * page.height,
})
const covers = (outer: Rect, inner: Rect, slack = 3) =>
  outer.x <= inner.x + slack &&
  outer.y <= inner.y + slack &&
  outer.x + outer.width >= inner.x + inner.width - slack &&
  outer.y + outer.height >= inner.y + inner.height - slack
/** Whether the word's centre lies in the box. */
const inside = (word: Word, box: Box) => {
  const x = (word.box[0] + word.box[2]) / 2
  const y = (word.box[1] + word.box[3]) / 2
  return x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3]
}

async function uploadAll(page: Page) {
  const { company, rows } = await companyWithInvoices(page, app.server.url, 'Scans Co', [
    FILES.map((f) => join(corpus, f)),
  ])
  const get = async <T>(path: string) =>
    (await (
      await page.context().request.get(`${app.server.url}/api${path}?company_id=${company.id}`)
    ).json()) as T
  return { rows: await rows(), get }
}

it('outlines where OCR read a focused field, saves a second guess, and fills a field from a clicked word, on a PNG and a scanned PDF', async () => {
  const { page, context, errors } = await openPage(app.browser)
  const { rows, get } = await uploadAll(page)
  for (const file of FILES) {
    const id = rows.find((r) => r.name === file)!.document_id
    type Evidence = { page: number; box: Box; alternatives: { value: unknown }[] }
    const record = await get<{ field_evidence: Record<string, Evidence> }>(`/invoices/${id}`)
    const words = await get<{ words: Word[] }>(`/documents/${id}/pages/1/words`)
    expect(words.words.length, `${file}: OCR found words on the page`).toBeGreaterThan(5)
    // A field read on the first page whose box holds OCR words.
    const [field, evidence] = Object.entries(record.field_evidence).find(
      ([f, e]) => f in LABELS && e.page === 1 && words.words.some((w) => inside(w, e.box)),
    )!
    const held = words.words.filter((w) => inside(w, evidence.box))

    await page.getByRole('button', { name: `View ${file}` }).click()
    const details = page.getByRole('dialog', { name: 'Invoice details' })
    const drawn = details.getByTestId('preview-page')
    await drawn.locator('img, canvas').first().waitFor()
    await drawn.locator(`[data-outline="${field}"]`).waitFor({ state: 'attached', timeout: 15_000 })
    // The pointer rests where "View" was, over the dialog: the scrolls that focusing brings must not
    // hand the highlight to the field or reading that comes under it.
    await details.getByLabel(LABELS[field]!, { exact: true }).focus()
    const outline = details.locator(`[data-outline="${field}"][data-highlighted]`)
    await outline.waitFor()
    await outline.evaluate((el) => el.scrollIntoView({ block: 'center' }))
    const pageBox = (await drawn.boundingBox())!
    const box = (await outline.boundingBox())!
    for (const word of held) {
      const rect = onScreen(pageBox, word.box)
      expect(covers(box, rect), `${file}: ${field}'s outline covers "${word.text}"`).toBe(true)
    }

    // A field's second guess, picked from its menu, is saved as the user's.
    const [guessed, withGuesses] = Object.entries(record.field_evidence).find(
      ([f, e]) => f in LABELS && e.alternatives.length > 0,
    )!
    await details.getByRole('button', { name: `Other readings of ${LABELS[guessed]}` }).click()
    await page.getByRole('menuitem').first().click()
    await expect
      .poll(
        async () =>
          (await get<{ field_sources: Record<string, string> }>(`/invoices/${id}`)).field_sources[guessed],
        { timeout: 15_000 },
      )
      .toBe('user')
    const saved = (await get<Record<string, unknown>>(`/invoices/${id}`))[guessed]
    expect(String(saved), `${file}: ${guessed} holds the second guess`).toBe(
      String(withGuesses.alternatives[0]!.value),
    )

    // With "Business name" focused and emptied, a click on one of those words puts it in the field.
    const name = details.getByLabel('Business name', { exact: true })
    await name.fill('')
    await name.focus()
    // Focusing may scroll the page to the name's own reading: the first field's is brought back.
    await details
      .locator(`[data-outline="${field}"]`)
      .evaluate((el) => el.scrollIntoView({ block: 'center' }))
    const word = held.find((w) => /[A-Za-z0-9]{2,}/.test(w.text)) ?? held[0]!
    const target = onScreen((await drawn.boundingBox())!, word.box)
    await page.mouse.click(target.x + target.width / 2, target.y + target.height / 2)
    await expect.poll(() => name.inputValue()).toBe(word.text)
    // Nothing was saved: the dialog asks before the typed change is dropped.
    await page.keyboard.press('Escape')
    await page
      .getByRole('alertdialog', { name: 'Discard your changes?' })
      .getByRole('button', { name: 'Discard' })
      .click()
    await details.waitFor({ state: 'detached' })
  }
  expect(errors).toEqual([])
  await context.close()
}, 180_000)

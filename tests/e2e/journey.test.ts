/**
 * The acceptance journey in Chromium against the real server, with real corpus files: sign in, join a company, upload ten invoices at once from the header's Upload menu,
 * follow them in the progress panel to the end, filter the dashboard (summary card and filter
 * popover), open an invoice's details, resubmit the failed one with a new PDF, switch to French.
 * Then the dashboard at 375 × 740 px: the sidebar overlay, the table, the Upload menu by keyboard.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { type RunningServer, repoRoot, startServer } from '../support/server-process'
import { ADMIN, openPage, signIn } from './support'

const corpusDir = join(repoRoot, '..', 'shared', 'corpus')
const corpus = join(corpusDir, 'files')

type Truth = { file: string; kind: string; variant: string; render: string; expected_status: string }
const truth = (): Map<string, Truth> =>
  new Map(
    readFileSync(join(corpusDir, 'truth.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Truth)
      .map((t) => [t.file, t]),
  )

/** Born-digital invoices (a text layer: no OCR, quick): two without an invoice number, eight clean. */
const FAILING = ['0001-facture.pdf', '0076-invoice.pdf']
const CLEAN = [
  '0002-facture.pdf',
  '0005-invoice.pdf',
  '0012-facture.pdf',
  '0013-invoice.pdf',
  '0016-facture.pdf',
  '0020-facture.pdf',
  '0030-invoice.pdf',
  '0031-invoice.pdf',
]
/** The failed invoice resubmitted through its detail dialog, and the clean PDF that replaces it. */
const RESUBMITTED = '0076-invoice.pdf'
const REPLACEMENT = '0037-invoice.pdf'

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  if (!existsSync(corpus)) throw new Error(`the corpus is missing at ${corpus}`)
  // The choice above is checked against the corpus' truth, so a changed corpus fails here, not later.
  const known = truth()
  for (const file of [...FAILING, ...CLEAN, REPLACEMENT]) {
    const t = known.get(file)
    expect(t, file).toMatchObject({ kind: 'invoice', render: 'pdf_text' })
    expect(t?.expected_status, file).toBe(FAILING.includes(file) ? 'FAILED' : 'COMPLETED')
  }
  for (const file of FAILING) expect(known.get(file)?.variant).toBe('missing_invoice_number')
  server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/**
 * Every toast text shown since the page last loaded, in order, recorded as toasts appear (a toast
 * lives 4 s and ten uploads show many at once: waiting for each one in turn could miss some).
 */
async function recordToasts(page: Page) {
  await page.addInitScript(() => {
    const shown: string[] = []
    const seen = new WeakMap<Element, string>()
    ;(window as unknown as { __toasts: string[] }).__toasts = shown
    const scan = () => {
      for (const el of document.querySelectorAll('[data-rht-toaster] [role="status"]')) {
        const text = el.textContent?.trim() ?? ''
        if (text && seen.get(el) !== text) {
          seen.set(el, text)
          shown.push(text)
        }
      }
    }
    new MutationObserver(scan).observe(document, { childList: true, subtree: true, characterData: true })
  })
  return () => page.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts)
}

/** The platform administrator makes a company and joins it (the admin screens have their own test). */
async function joinNewCompany(context: BrowserContext, name: string): Promise<number> {
  const made = await context.request.post(`${server.url}/api/admin/company`, { data: { name } })
  expect(made.ok()).toBe(true)
  const company = (await made.json()) as { id: number }
  const joined = await context.request.post(`${server.url}/api/admin/user-company`, {
    data: { user_email: ADMIN.email, company_id: company.id, role: 'COMPANY_ADMIN' },
  })
  expect(joined.ok()).toBe(true)
  return company.id
}

/** The admin's saved language back to English (the journey switches to French), signed out again. */
async function inEnglish(context: BrowserContext) {
  const login = await context.request.post(`${server.url}/api/auth/login`, {
    data: { email: ADMIN.email, password: ADMIN.password },
  })
  expect(login.ok()).toBe(true)
  const saved = await context.request.put(`${server.url}/api/settings/me`, { data: { language: 'en' } })
  expect(saved.ok()).toBe(true)
  expect((await context.request.post(`${server.url}/api/auth/logout`)).ok()).toBe(true)
}

/** A condition polled until it holds: the server, the worker and the UI need their time (10 s by default). */
const poll = <T>(check: () => T | Promise<T>, timeout = 10_000) => expect.poll(check, { timeout })

const bodyRows = (page: Page) => page.getByRole('table').locator('tbody tr')
const statusOf = (page: Page, name: string) =>
  page.getByRole('row', { name: new RegExp(name.replace('.', '\\.')) }).locator('[data-status]')
const namesShown = (page: Page) =>
  bodyRows(page)
    .locator('td:first-child')
    .allTextContents()
    .then((names) => names.sort())
const statusesShown = (page: Page) =>
  bodyRows(page)
    .locator('[data-status]')
    .evaluateAll((badges) => badges.map((b) => b.getAttribute('data-status')))

it('uploads ten invoices, follows them to the end, filters, resubmits the failed one, and switches to French', async () => {
  const started = Date.now()
  const { page, context, errors } = await openPage(browser)
  const toasts = await recordToasts(page)
  await signIn(page, server.url)
  await joinNewCompany(context, 'Journey Accounting')
  await page.reload()
  await page.getByText('No documents yet').waitFor()

  // --- Ten invoices at once from the header's Upload menu.
  await page.getByRole('banner').getByRole('button', { name: 'Upload', exact: true }).click()
  await page.getByRole('menuitem', { name: 'Upload invoice' }).click()
  const dialog = page.getByRole('dialog', { name: 'Upload invoices and expenses' })
  await dialog
    .getByLabel('Files for Invoices', { exact: true })
    .setInputFiles([...FAILING, ...CLEAN].map((f) => join(corpus, f)))
  await poll(() => dialog.getByRole('button', { name: /^Remove / }).count()).toBe(10)
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click()
  await poll(() => dialog.count()).toBe(0)

  // --- The progress panel: one batch of ten, followed until none is active. It opens on them, so
  // no toast says they were added.
  const panel = page.getByRole('region', { name: 'Uploads', exact: true })
  await panel.getByText(/^Uploading \d+ of 10$/).waitFor()
  await panel.getByText('Uploads (10)').waitFor({ timeout: 90_000 })
  const batch = panel.locator('section')
  expect(await batch.count()).toBe(1)
  expect(await batch.getByText('Completed: 8').count()).toBe(1)
  expect(await batch.getByText('Failed: 2').count()).toBe(1)
  expect(await batch.getByText(/^(Pending|Uploading|Sent|Processing):/).count()).toBe(0)
  expect(await panel.getByRole('listitem').count()).toBe(10)
  expect(await panel.getByRole('progressbar').count()).toBe(0)
  for (const file of FAILING)
    expect(
      await panel
        .getByRole('listitem')
        .filter({ hasText: file })
        .getByText('Failed', { exact: true })
        .count(),
    ).toBe(1)

  // Collapsed, the panel keeps its title and leaves the dashboard's controls uncovered.
  const panelToggle = panel.getByRole('button', { name: /^Uploads \(10\)/ })
  expect(await panelToggle.getAttribute('aria-expanded')).toBe('true')
  await panelToggle.click()
  await poll(() => panel.getByRole('listitem').count()).toBe(0)
  expect(await panelToggle.getAttribute('aria-expanded')).toBe('false')

  // The open panel showed every step and outcome itself: no toast repeated them.
  const shown = await toasts()
  expect(
    shown.filter((t) =>
      / added to upload queue$| uploaded successfully$| processed successfully$| failed: /.test(t),
    ),
  ).toEqual([])

  // --- The dashboard: every upload listed with its outcome, the summary counted.
  await poll(() => bodyRows(page).count(), 15_000).toBe(10)
  await poll(() => namesShown(page)).toEqual([...FAILING, ...CLEAN].sort())
  await poll(async () => (await statusesShown(page)).sort()).toEqual([
    ...Array(8).fill('completed'),
    'failed',
    'failed',
  ])
  const card = (label: string) => page.getByRole('button', { name: new RegExp(`^${label}\\s*\\d+$`) })
  await poll(() => card('Total documents').textContent()).toMatch(/10$/)
  expect(await card('Pending').textContent()).toMatch(/\D0$/)
  expect(await card('Failed').textContent()).toMatch(/\D2$/)

  // The Failed card filters to the failed rows; pressed again, it clears its filter.
  await card('Failed').click()
  await poll(() => namesShown(page)).toEqual([...FAILING].sort())
  expect(await card('Failed').getAttribute('aria-pressed')).toBe('true')
  await card('Failed').click()
  await poll(() => bodyRows(page).count()).toBe(10)
  expect(await card('Failed').getAttribute('aria-pressed')).toBe('false')

  // The filter popover: Apply is disabled until something changed; status Failed, then Completed.
  const filterButton = page.getByRole('button', { name: /^Filter/ })
  await filterButton.click()
  const filters = page.getByRole('dialog', { name: 'Filters' })
  await filters.waitFor()
  const apply = filters.getByRole('button', { name: 'Apply Filters' })
  expect(await apply.isDisabled()).toBe(true)
  await filters.getByLabel('Status').selectOption({ label: 'Failed' })
  await apply.click()
  await poll(() => filters.count()).toBe(0)
  await poll(() => namesShown(page)).toEqual([...FAILING].sort())
  expect(await statusesShown(page)).toEqual(['failed', 'failed'])
  expect(await filterButton.textContent()).toBe('Filter1')
  await filterButton.click()
  await filters.getByLabel('Status').selectOption({ label: 'Completed' })
  await filters.getByRole('button', { name: 'Apply Filters' }).click()
  await poll(() => namesShown(page)).toEqual([...CLEAN].sort())
  // The Total card resets every filter.
  await card('Total documents').click()
  await poll(() => bodyRows(page).count()).toBe(10)
  expect(await filterButton.textContent()).toBe('Filter')

  // --- A clean invoice's details: its fields, no quality issue, the original in the preview.
  await page.getByRole('button', { name: 'View 0002-facture.pdf' }).click()
  const details = page.getByRole('dialog', { name: 'Invoice details' })
  // The fields are editable in place: their values are the inputs'.
  const field = (label: string) => details.getByLabel(label, { exact: true }).inputValue()
  await poll(() => field('Business name')).toBe('Alpinea Expertise SARL')
  expect(await field('Invoice number')).toBe('FA-2026-0621')
  expect(await field('VAT number')).toBe('FR87799693148')
  expect(await field('IBAN')).toBe('FR7630066762324139733792723')
  expect(await field('Total including VAT')).toBe('12508.20')
  await details.getByText('No quality issues').waitFor()
  await details.getByTitle('Preview of 0002-facture.pdf').waitFor()
  expect(await details.getByRole('button', { name: 'Upload new PDF' }).count()).toBe(0)
  await details.getByRole('button', { name: 'Close details' }).click()
  await poll(() => details.count()).toBe(0)

  // --- The failed one, resubmitted with a clean PDF through the dialog.
  const before = (await toasts()).length
  await page.getByRole('button', { name: `View ${RESUBMITTED}` }).click()
  await details.getByRole('list', { name: 'Quality errors' }).waitFor()
  expect(await details.getByRole('list', { name: 'Quality errors' }).textContent()).toMatch(/invoice number/i)
  await details.getByTitle(`Preview of ${RESUBMITTED}`).waitFor()
  const resubmit = details.getByRole('button', { name: 'Upload new PDF' })
  await poll(() => resubmit.isEnabled()).toBe(true)
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), resubmit.click()])
  await chooser.setFiles(join(corpus, REPLACEMENT))
  await poll(() => details.count()).toBe(0)
  await expect
    .poll(async () => (await toasts()).slice(before), { timeout: 45_000 })
    .toEqual(
      // The upload panel opens on the new file and shows its progress; no toast repeats it.
      expect.arrayContaining(['Invoice resubmitted with new PDF']),
    )
  expect((await toasts()).filter((t) => t.endsWith('uploaded successfully'))).toEqual([])
  // The original row is gone, the new upload listed and completed; the panel counts it.
  await expect
    .poll(() => namesShown(page), { timeout: 15_000 })
    .toEqual([...FAILING, ...CLEAN, REPLACEMENT].filter((f) => f !== RESUBMITTED).sort())
  await poll(() => statusOf(page, REPLACEMENT).getAttribute('data-status')).toBe('completed')
  expect(await card('Failed').textContent()).toMatch(/\D1$/)
  // Collapsed before, the panel opened again for the new upload.
  const toggle11 = panel.getByRole('button', { name: /^Uploads \(11\)/ })
  await toggle11.waitFor()
  expect(await toggle11.getAttribute('aria-expanded')).toBe('true')
  expect(
    await panel
      .getByRole('listitem')
      .filter({ hasText: REPLACEMENT })
      .getByText('Completed', { exact: true })
      .count(),
  ).toBe(1)

  // --- French from the header's language menu.
  await page.getByRole('banner').getByRole('button', { name: 'Change language' }).click()
  await page.getByRole('menuitemradio', { name: 'Français' }).click()
  await page.getByRole('heading', { name: 'Bon retour, Admin !' }).waitFor()
  expect(await page.locator('html').getAttribute('lang')).toBe('fr')
  await page.getByText('Voici où en sont vos documents.').waitFor()
  await page.getByRole('heading', { name: 'Envois récents' }).waitFor()
  // The sort arrow (date, descending) is hidden from assistive technologies but part of the text.
  expect(await page.getByRole('columnheader').allTextContents()).toEqual([
    'Document',
    'Type',
    'Fournisseur',
    'Date de la facture',
    'Total TTC',
    'Date d’envoi↓',
    'Statut',
    'Détails',
    'Actions',
  ])
  expect(await statusOf(page, '0002-facture.pdf').textContent()).toBe('Terminé')
  expect(
    await page
      .getByRole('row', { name: /0002-facture\.pdf/ })
      .getByRole('cell')
      .nth(1)
      .textContent(),
  ).toBe('Facture')
  await card('Total des documents').waitFor()
  await page.getByRole('banner').getByRole('button', { name: 'Envoyer', exact: true }).waitFor()
  expect(await page.getByRole('button', { name: /^Filtrer/ }).count()).toBe(1)
  // The menu marks the current language; back to English (saved for the next sign-in too).
  await page.getByRole('banner').getByRole('button', { name: 'Changer de langue' }).click()
  expect(await page.getByRole('menuitemradio', { name: 'Français' }).getAttribute('aria-checked')).toBe(
    'true',
  )
  expect(await page.getByRole('menuitemradio', { name: 'English' }).getAttribute('aria-checked')).toBe(
    'false',
  )
  await page.getByRole('menuitemradio', { name: 'English' }).click()
  await page.getByRole('heading', { name: 'Welcome back, Admin!' }).waitFor()
  expect(await page.locator('html').getAttribute('lang')).toBe('en')

  expect(errors).toEqual([])
  await context.close()
  // The whole journey stays well within the project's time-out.
  expect(Date.now() - started).toBeLessThan(150_000)
}, 180_000)

it('works at 375 × 740 px: the sidebar overlay, the Upload menu by keyboard, the uploads as cards', async () => {
  const started = Date.now()
  const { page, context, errors } = await openPage(browser, { width: 375, height: 740 })
  const toasts = await recordToasts(page)
  await inEnglish(context)
  await signIn(page, server.url)
  // A company of its own, chosen the way the app remembers it (the admin may already have others).
  const companyId = await joinNewCompany(context, 'Pocket Accounting')
  await page.evaluate((id) => localStorage.setItem('selectedCompanyId', String(id)), companyId)
  await page.reload()
  await page.getByText('No documents yet').waitFor()
  // The page's scroll width and, when it is too wide, the outermost elements reaching past the edge.
  const pageWidth = () =>
    page.evaluate(() => {
      const width = document.documentElement.scrollWidth
      const past = (el: Element | null) => !!el && el.getBoundingClientRect().right > 375
      const outermost =
        width <= 375
          ? []
          : [...document.body.querySelectorAll('*')]
              .filter((el) => past(el) && !past(el.parentElement))
              .map((el) => {
                const box = el.getBoundingClientRect()
                return `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} ${box.left}–${box.right}`
              })
      return { width, past: outermost }
    })
  // Soft: an overflow is reported with what causes it, and the other checks still run.
  const noHorizontalOverflow = async () => expect(await pageWidth()).toEqual({ width: 375, past: [] })
  await noHorizontalOverflow()

  // --- Below 768 px the sidebar is hidden; the menu button opens it as an overlay.
  expect(await page.locator('aside').isVisible()).toBe(false)
  const menuButton = page.getByRole('button', { name: 'Open navigation' })
  await menuButton.click()
  const overlay = page.getByRole('dialog').filter({ has: page.getByRole('navigation', { name: 'Main' }) })
  await overlay.waitFor()
  expect(await overlay.getByRole('link', { name: 'Dashboard' }).isVisible()).toBe(true)
  await overlay.getByRole('button', { name: 'Close navigation' }).click()
  await poll(() => overlay.count()).toBe(0)
  // It closes on route change: to the settings and back from the overlay.
  await menuButton.click()
  await overlay.getByRole('link', { name: 'Settings' }).click()
  await page.waitForURL((url) => url.pathname === '/settings')
  await poll(() => overlay.count()).toBe(0)
  // The Upload menu is hidden on /settings.
  expect(await page.getByRole('banner').getByRole('button', { name: 'Upload', exact: true }).count()).toBe(0)
  await menuButton.click()
  await overlay.getByRole('link', { name: 'Dashboard' }).click()
  await page.waitForURL((url) => url.pathname === '/')
  await poll(() => overlay.count()).toBe(0)
  await page.getByText('No documents yet').waitFor()

  // --- The Upload menu by keyboard: focus, Enter opens it, arrows move, Escape closes, Enter picks.
  const upload = page.getByRole('banner').getByRole('button', { name: 'Upload', exact: true })
  const menu = page.getByRole('menu')
  const focused = () => upload.evaluate((el) => el === document.activeElement)
  // Focus is the intent that loads the real menu: it takes the focus over from the stand-in.
  await upload.focus()
  await poll(() => upload.getAttribute('data-scope')).toBe('menu')
  await poll(focused).toBe(true)
  // Enter on the focused Upload button opens its menu (the real trigger took the focus after the
  // menu's own effects, so the menu knows its trigger is focused).
  await page.keyboard.press('Enter')
  await menu.waitFor({ timeout: 10_000 })
  const invoiceItem = menu.getByRole('menuitem', { name: 'Upload invoice' })
  const highlighted = () => menu.locator('[data-highlighted]').textContent()
  await poll(highlighted).toBe('Upload invoice')
  await page.keyboard.press('ArrowDown')
  await poll(highlighted).toBe('Upload document')
  expect(await invoiceItem.getAttribute('data-highlighted')).toBeNull()
  await page.keyboard.press('ArrowUp')
  await poll(highlighted).toBe('Upload invoice')
  await page.keyboard.press('End')
  await poll(highlighted).toBe('Upload document')
  await page.keyboard.press('Home')
  await poll(highlighted).toBe('Upload invoice')
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Upload invoices and expenses' })
  await dialog.waitFor()
  await dialog
    .getByLabel('Files for Invoices', { exact: true })
    .setInputFiles([join(corpus, '0005-invoice.pdf'), join(corpus, '0001-facture.pdf')])
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click()
  // The panel opens on them and shows their outcome; no toast repeats it.
  await poll(() => bodyRows(page).count(), 45_000).toBe(2)
  await poll(() => statusOf(page, '0001-facture.pdf').getAttribute('data-status'), 45_000).toBe('failed')
  expect(
    (await toasts()).filter((t) => / uploaded successfully$| processed successfully$| failed: /.test(t)),
  ).toEqual([])
  await poll(() => statusOf(page, '0005-invoice.pdf').getAttribute('data-status')).toBe('completed')

  // The progress panel fits the narrow screen, and collapses.
  const panel = page.getByRole('region', { name: 'Uploads', exact: true })
  const panelBox = await panel.boundingBox()
  expect(panelBox!.x).toBeGreaterThanOrEqual(0)
  expect(panelBox!.x + panelBox!.width).toBeLessThanOrEqual(375)
  // Toasts stand above the panel, never over it; the pointer away, any left are gone after their 4 s.
  await page.mouse.move(187, 100)
  await expect
    .poll(() => page.locator('[data-rht-toaster] [role="status"]').count(), { timeout: 15_000 })
    .toBe(0)
  await panel.getByRole('button', { name: /^Uploads \(2\)/ }).click()
  await poll(() => panel.getByRole('listitem').count()).toBe(0)

  // --- The table: on a phone each row is a card, so neither the page nor the table's box scrolls
  // sideways and the details button is on screen.
  await noHorizontalOverflow()
  const box = page.getByRole('table').locator('..')
  const sizes = await box.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }))
  expect(sizes.clientWidth).toBeLessThanOrEqual(375)
  expect(sizes.scrollWidth).toBe(sizes.clientWidth)
  const view = page.getByRole('button', { name: 'View 0005-invoice.pdf' })
  const viewBox = (await view.boundingBox())!
  expect(viewBox.x + viewBox.width).toBeLessThanOrEqual(375)
  // Nothing lies over the last row's details button, the page scrolled to its end (the uploads
  // panel, even collapsed, is fixed at the bottom of the screen).
  const onTop = (button: Locator) =>
    button.evaluate((el) => {
      const box = el.getBoundingClientRect()
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
      return top === el || el.contains(top)
        ? 'the button'
        : (top?.closest('section')?.ariaLabel ?? top?.tagName)
    })
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
  const lastView = bodyRows(page)
    .last()
    .getByRole('button', { name: /^View / })
  await lastView.scrollIntoViewIfNeeded()
  expect(await onTop(lastView), 'what lies over the last row’s details button').toBe('the button')
  // Cleared, the panel is gone.
  await panel.getByRole('button', { name: 'Clear all' }).click()
  await poll(() => panel.count()).toBe(0)
  expect(await onTop(lastView)).toBe('the button')
  await view.scrollIntoViewIfNeeded()
  await view.click()
  const details = page.getByRole('dialog', { name: 'Invoice details' })
  await poll(() => details.getByLabel('Business name', { exact: true }).inputValue()).toBe(
    'Werner Datentechnik GmbH',
  )
  const detailsBox = await details.boundingBox()
  expect(detailsBox!.width).toBeLessThanOrEqual(375)
  await noHorizontalOverflow()
  await details.getByRole('button', { name: 'Close details' }).click()
  await poll(() => details.count()).toBe(0)

  expect(errors).toEqual([])
  await context.close()
  expect(Date.now() - started).toBeLessThan(90_000)
}, 120_000)

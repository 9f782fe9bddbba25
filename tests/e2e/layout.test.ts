/**
 * Layout at phone and laptop widths in Chromium: no page scrolls sideways, every dialog's primary
 * and close buttons are on screen (the body scrolls inside the frame), and the sticky header stays
 * above the table when the page scrolls under it.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { type RunningServer, repoRoot, startServer } from '../support/server-process'
import { ADMIN, openPage, signIn, uploadSettled } from './support'

const corpus = join(repoRoot, '..', 'shared', 'corpus', 'files')
const WIDTHS = [320, 375, 1280] as const
let server: RunningServer
let browser: Browser
let page: Page

beforeAll(async () => {
  if (!existsSync(corpus)) throw new Error(`the corpus is missing at ${corpus}`)
  server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
  browser = await launchBrowser()
  const opened = await openPage(browser)
  page = opened.page
  await signIn(page, server.url)
  const made = await opened.context.request.post(`${server.url}/api/admin/company`, {
    data: { name: 'Acme Accounting' },
  })
  const company = (await made.json()) as { id: number }
  const joined = await opened.context.request.post(`${server.url}/api/admin/user-company`, {
    data: { user_email: ADMIN.email, company_id: company.id, role: 'COMPANY_ADMIN' },
  })
  expect(joined.ok()).toBe(true)
  await page.reload()
  await page.getByText('No documents yet').waitFor()
  await openUploadDialog(page)
  await page
    .getByRole('dialog')
    .getByLabel('Files for Invoices', { exact: true })
    .setInputFiles([join(corpus, '0002-facture.pdf')])
  await page.getByRole('dialog').getByRole('button', { name: 'Upload', exact: true }).click()
  await uploadSettled(page, '0002-facture.pdf')
}, 90_000)
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function openUploadDialog(p: Page, item: 'Upload invoice' | 'Upload document' = 'Upload invoice') {
  await p.getByRole('button', { name: 'Upload', exact: true }).click()
  await p.getByRole('menuitem', { name: item }).click()
  await p.getByRole('dialog').waitFor()
}

/** How far the page scrolls sideways (0 when it fits). */
async function sidewaysOverflow(p: Page) {
  return p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
}

/** The boxes of `buttons` that are not wholly inside the viewport, by accessible name. */
async function offScreen(p: Page, buttons: Locator[]) {
  const viewport = p.viewportSize()!
  const outside: string[] = []
  for (const button of buttons) {
    const box = await button.boundingBox()
    const inside =
      box !== null &&
      box.x >= 0 &&
      box.y >= 0 &&
      box.x + box.width <= viewport.width + 0.5 &&
      box.y + box.height <= viewport.height + 0.5
    if (!inside) outside.push(`${await button.textContent()} ${JSON.stringify(box)}`)
  }
  return outside
}

/** Checks a dialog's close button and every button of its footer, then closes it with Escape. */
async function expectDialogOnScreen(p: Page, dialog: Locator, closeName: string) {
  // The detail dialog's footer comes with the document, once loaded.
  await dialog.locator('footer button').first().waitFor()
  const footerButtons = await dialog.locator('footer button').all()
  expect(footerButtons.length).toBeGreaterThan(0)
  const close = dialog.getByRole('button', { name: closeName, exact: true })
  expect(await offScreen(p, [close, ...footerButtons])).toEqual([])
  expect(await sidewaysOverflow(p)).toBe(0)
  await p.keyboard.press('Escape')
  await expect.poll(() => dialog.count()).toBe(0)
}

/** The button of the uploaded invoice's row that opens its details. */
const viewButton = (p: Page) =>
  p.getByRole('row', { name: /0002-facture\.pdf/ }).getByRole('button', { name: /view|open details/i })

/** The width and height of `target`'s box, at least 44 px each on a phone. */
async function expectTouchTarget(target: Locator) {
  const box = (await target.boundingBox())!
  expect(Math.round(box.width)).toBeGreaterThanOrEqual(44)
  expect(Math.round(box.height)).toBeGreaterThanOrEqual(44)
}

/** A row's action is inside the visible part of the table's box, without scrolling the box. */
async function expectActionsInView(table: Locator, action: Locator) {
  await action.waitFor()
  const box = (await table.locator('xpath=..').boundingBox())!
  const button = (await action.boundingBox())!
  expect(button.x).toBeGreaterThanOrEqual(box.x)
  expect(button.x + button.width).toBeLessThanOrEqual(box.x + box.width + 0.5)
}

describe.each(WIDTHS)('at %i px wide', (width) => {
  const height = width === 1280 ? 800 : 740

  it('login, dashboard, settings and administration do not scroll sideways', async () => {
    const { page: guest, context } = await openPage(browser, { width, height })
    await guest.goto(`${server.url}/login`)
    await guest.getByRole('button', { name: 'Sign in' }).waitFor()
    expect(await sidewaysOverflow(guest)).toBe(0)
    await context.close()

    await page.setViewportSize({ width, height })
    await page.goto(`${server.url}/`)
    await page.getByText('0002-facture.pdf').first().waitFor()
    expect(await sidewaysOverflow(page)).toBe(0)
    await page.goto(`${server.url}/settings`)
    await page.getByRole('heading', { name: 'User management' }).waitFor()
    expect(await sidewaysOverflow(page)).toBe(0)
    for (const tab of ['Companies', 'Users']) {
      await page.getByRole('tab', { name: tab }).click()
      const table = page.getByRole('tabpanel', { name: tab }).getByRole('table')
      await expectActionsInView(table, table.getByRole('button', { name: /^Edit / }).first())
      expect(await sidewaysOverflow(page)).toBe(0)
    }
  })

  it('the upload dialog, the company sheet and the detail dialog keep their buttons on screen', async () => {
    await page.setViewportSize({ width, height })
    await page.goto(`${server.url}/`)
    await page.getByText('0002-facture.pdf').first().waitFor()
    await openUploadDialog(page)
    await expectDialogOnScreen(
      page,
      page.getByRole('dialog', { name: 'Upload invoices and expenses' }),
      'Close',
    )
    await openUploadDialog(page, 'Upload document')
    await expectDialogOnScreen(page, page.getByRole('dialog', { name: 'Upload documents' }), 'Close')

    await viewButton(page).click()
    await expectDialogOnScreen(page, page.getByRole('dialog', { name: 'Invoice details' }), 'Close details')

    await page.goto(`${server.url}/settings`)
    await page.getByRole('tab', { name: 'Companies' }).click()
    const edit = page.getByRole('button', { name: 'Edit Acme Accounting' })
    await expectActionsInView(page.getByRole('tabpanel', { name: 'Companies' }).getByRole('table'), edit)
    await edit.click()
    await expectDialogOnScreen(page, page.getByRole('dialog'), 'Close')
  })

  it('the sticky header stays above the table rows scrolled under it', async () => {
    await page.setViewportSize({ width, height })
    await page.goto(`${server.url}/`)
    const row = page.getByRole('row', { name: /0002-facture\.pdf/ })
    await row.waitFor()
    const header = page.getByRole('banner')
    // Room below the table, so that the row can be scrolled up to the header's middle.
    await page.evaluate(() => {
      document.body.style.paddingBottom = '100vh'
    })
    const headerBox = (await header.boundingBox())!
    const middle = { x: headerBox.x + headerBox.width / 2, y: headerBox.y + headerBox.height / 2 }
    const rowBox = (await row.boundingBox())!
    await page.evaluate((by) => window.scrollBy(0, by), rowBox.y + rowBox.height / 2 - middle.y)
    const under = (await row.boundingBox())!
    // The row is behind the header's middle ...
    expect(under.y).toBeLessThan(middle.y)
    expect(under.y + under.height).toBeGreaterThan(middle.y)
    // ... and the header is what is painted there.
    const onTop = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('header') !== null,
      middle,
    )
    expect(onTop).toBe(true)
  })
})

describe.each([320, 375])('on a phone %i px wide', (width) => {
  it('the uploads are cards with touch targets of 44 px', async () => {
    await page.setViewportSize({ width, height: 740 })
    await page.goto(`${server.url}/`)
    const row = page.getByRole('row', { name: /0002-facture\.pdf/ })
    await row.waitFor()
    const card = (await row.boundingBox())!
    expect(card.x).toBeGreaterThanOrEqual(0)
    expect(card.x + card.width).toBeLessThanOrEqual(width)
    const box = row.locator('xpath=ancestor::table/..')
    expect(await box.evaluate((e) => e.scrollWidth - e.clientWidth)).toBe(0)
    await expectTouchTarget(viewButton(page))

    await openUploadDialog(page, 'Upload document')
    const dialog = page.getByRole('dialog', { name: 'Upload documents' })
    await dialog
      .locator('input[type=file]')
      .first()
      .setInputFiles([join(corpus, '0002-facture.pdf')])
    await expectTouchTarget(dialog.getByRole('button', { name: 'Remove 0002-facture.pdf' }))
    await page.keyboard.press('Escape')
    await expect.poll(() => dialog.count()).toBe(0)
  })

  it('a failed document keeps its main action in the footer and the others under "More actions"', async () => {
    await page.setViewportSize({ width, height: 740 })
    await page.goto(`${server.url}/`)
    await page.getByRole('row', { name: /0002-facture\.pdf/ }).waitFor()
    if ((await page.getByRole('row', { name: /unreadable\.pdf/ }).count()) === 0) {
      await openUploadDialog(page)
      await page
        .getByRole('dialog')
        .getByLabel('Files for Invoices', { exact: true })
        .setInputFiles({
          name: 'unreadable.pdf',
          mimeType: 'application/pdf',
          buffer: Buffer.from('%PDF-1.4 cut'),
        })
      await page.getByRole('dialog').getByRole('button', { name: 'Upload', exact: true }).click()
      await uploadSettled(page, 'unreadable.pdf', 'Failed')
    }
    await page
      .getByRole('row', { name: /unreadable\.pdf/ })
      .getByRole('button', { name: /^View / })
      .click()
    const dialog = page.getByRole('dialog', { name: 'Invoice details' })
    const more = dialog.getByRole('button', { name: 'More actions' })
    await more.waitFor()
    const footer = dialog.locator('footer')
    const others = [
      footer.getByRole('button', { name: 'Upload to SharePoint' }),
      footer.getByRole('button', { name: 'Reupload as expense' }),
    ]
    for (const other of others) expect(await other.isVisible()).toBe(false)
    // One row of buttons: the fields keep most of the screen.
    expect((await footer.boundingBox())!.height).toBeLessThan(100)
    expect(await offScreen(page, [footer.getByRole('button', { name: 'Upload new PDF' }), more])).toEqual([])
    expect(await more.getAttribute('aria-expanded')).toBe('false')

    await more.click()
    expect(await more.getAttribute('aria-expanded')).toBe('true')
    for (const other of others) await other.waitFor()
    expect(
      await offScreen(page, [...others, footer.getByRole('combobox', { name: 'SharePoint category' })]),
    ).toEqual([])
    expect(await sidewaysOverflow(page)).toBe(0)
    await page.keyboard.press('Escape')
    await expect.poll(() => dialog.count()).toBe(0)
  })
})

it('the filter popover with a custom date range fits a 1280 × 800 screen', async () => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(`${server.url}/`)
  await page.getByRole('button', { name: 'Filter' }).click()
  const popover = page.getByRole('dialog', { name: 'Filters' })
  await popover.getByRole('combobox', { name: 'Date' }).selectOption('custom')
  const to = popover.getByRole('textbox', { name: 'To' })
  await to.waitFor()
  const frame = (await popover.boundingBox())!
  const toBox = (await to.boundingBox())!
  expect(toBox.x + toBox.width).toBeLessThanOrEqual(frame.x + frame.width)
  await popover.getByRole('button', { name: 'Apply Filters' }).scrollIntoViewIfNeeded()
  expect(await offScreen(page, [popover.getByRole('button', { name: 'Apply Filters' })])).toEqual([])
  expect(frame.y + frame.height).toBeLessThanOrEqual(800)
})

it("grows the page's bottom padding with the upload panel and the toasts stacked above it", async () => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(`${server.url}/`)
  await page.getByRole('row', { name: /0002-facture\.pdf/ }).waitFor()
  const main = page.locator('main')
  const padding = () => main.evaluate((e) => getComputedStyle(e).paddingBottom)
  // Nothing taller floats over the page than the collapsed panel: the padding keeps its floor.
  await page.evaluate(() => {
    document.documentElement.style.setProperty('--upload-panel-height', '0px')
    document.documentElement.style.removeProperty('--toasts-height')
  })
  expect(await padding()).toBe('112px')
  // The open panel (300 px) and two toasts above it (120 px): the last row ends above them.
  await page.evaluate(() => {
    document.documentElement.style.setProperty('--upload-panel-height', '300px')
    document.documentElement.style.setProperty('--toasts-height', '120px')
  })
  expect(await padding()).toBe('436px')
})

it('stacks the sticky header under popovers, tooltips, dialogs and toasts', async () => {
  await page.goto(`${server.url}/`)
  const order = ['sticky', 'banner', 'dropdown', 'tooltip', 'overlay', 'modal', 'toast']
  const levels = await page.evaluate(
    (names) =>
      names.map((n) => Number(getComputedStyle(document.documentElement).getPropertyValue(`--z-index-${n}`))),
    order,
  )
  expect(levels.every((level) => Number.isInteger(level) && level > 0)).toBe(true)
  expect([...levels].sort((a, b) => a - b)).toEqual(levels)
  expect(new Set(levels).size).toBe(levels.length)
  // The header takes its level from the token (an undefined token left it at `auto`).
  expect(await page.getByRole('banner').evaluate((e) => getComputedStyle(e).zIndex)).toBe(String(levels[0]))
})

it('shows the sidebar tooltip above the table scrolled under it', async () => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(`${server.url}/`)
  const row = page.getByRole('row', { name: /0002-facture\.pdf/ })
  await row.waitFor()
  // Room below the table inside the shell (the sidebar sticks within it).
  await page.locator('main').evaluate((main) => {
    main.style.paddingBottom = '100vh'
  })
  const entry = page.getByRole('button', { name: 'Reports (Power BI)' })
  const entryBox = (await entry.boundingBox())!
  const rowBox = (await row.boundingBox())!
  const entryMiddle = entryBox.y + entryBox.height / 2
  await page.evaluate((by) => window.scrollBy(0, by), rowBox.y + rowBox.height / 2 - entryMiddle)
  // The sidebar is sticky: the entry has not moved (hover() would scroll the page back).
  await page.mouse.move(entryBox.x + entryBox.width / 2, entryMiddle, { steps: 3 })
  const tooltip = page.getByRole('tooltip', { name: 'No link has been set for this company' })
  const tip = (await tooltip.boundingBox())!
  const under = (await row.boundingBox())!
  // The row lies under the tooltip's middle ...
  expect(under.y).toBeLessThan(tip.y + tip.height / 2)
  expect(under.y + under.height).toBeGreaterThan(tip.y + tip.height / 2)
  expect(under.x).toBeLessThan(tip.x + tip.width / 2)
  // ... and the tooltip is what is painted there.
  const onTop = await page.evaluate(
    ({ x, y }) => document.elementFromPoint(x, y)?.closest('[role=tooltip]') !== null,
    { x: tip.x + tip.width / 2, y: tip.y + tip.height / 2 },
  )
  expect(onTop).toBe(true)
})

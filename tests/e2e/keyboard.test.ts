/**
 * Keyboard use in Chromium against the real server: each page names its tab (English and French),
 * the skip link and route changes move focus to the main region, /login starts in the e-mail field,
 * an Invoice row opens its details by Enter or a click on its name, and focus returns into that row
 * when the details close (Escape or Close) and to the page after the upload dialog closes.
 */
import { join } from 'node:path'
import type { APIRequestContext, Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { type RunningServer, repoRoot, startServer } from '../support/server-process'
import { ADMIN, openPage, signIn, uploadSettled } from './support'

const INVOICE = '0002-facture.pdf'
const corpus = join(repoRoot, '..', 'shared', 'corpus', 'files')
let server: RunningServer
let browser: Browser

beforeAll(async () => {
  server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
  browser = await launchBrowser()
  // The administrator's company, made through the API so that each test can run alone.
  const context = await browser.newContext()
  const signedIn = await context.request.post(`${server.url}/api/auth/login`, {
    data: { email: ADMIN.email, password: ADMIN.password },
  })
  expect(signedIn.ok()).toBe(true)
  await joinCompany(context.request, 'Acme Keys')
  await context.close()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** What has keyboard focus: its tag, name attribute, text, and whether it is inside <main> / a row. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      name: el?.getAttribute('name') ?? '',
      text: el?.textContent?.trim() ?? '',
      inMain: !!el?.closest('main'),
      row: el?.closest('tr')?.textContent ?? null,
    }
  })

async function joinCompany(request: APIRequestContext, name: string) {
  const made = await request.post(`${server.url}/api/admin/company`, { data: { name } })
  const company = (await made.json()) as { id: number }
  const joined = await request.post(`${server.url}/api/admin/user-company`, {
    data: { user_email: ADMIN.email, company_id: company.id, role: 'COMPANY_ADMIN' },
  })
  expect(joined.ok()).toBe(true)
}

it('names every page in its tab in English and French, skips to the main content and focuses the new page', async () => {
  const { page, errors } = await openPage(browser)
  await page.goto(`${server.url}/login`)
  await expect.poll(() => page.title()).toBe('Sign in · DocFlow')
  await expect.poll(async () => (await focused(page)).name).toBe('email')

  await signIn(page, server.url)
  await expect.poll(() => page.title()).toBe('Dashboard · Acme Keys · DocFlow')

  // The skip link is the first Tab stop of a loaded page; it moves focus into <main>.
  await page.reload()
  await page.getByRole('heading', { name: `Welcome back, ${ADMIN.name}!` }).waitFor()
  await page.keyboard.press('Tab')
  expect((await focused(page)).text).toBe('Skip to main content')
  expect((await focused(page)).inMain).toBe(false)
  await page.keyboard.press('Enter')
  await expect.poll(async () => (await focused(page)).inMain).toBe(true)

  // A route change sets the title and moves focus to the new page's heading.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
  await expect.poll(() => page.title()).toBe('Settings · DocFlow')
  await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Settings', inMain: true })

  await page
    .getByRole('banner')
    .getByRole('button', { name: /EN — Change language/ })
    .click()
  await page.getByRole('menuitemradio', { name: 'Français' }).click()
  await expect.poll(() => page.title()).toBe('Paramètres · DocFlow')
  await page.getByRole('navigation').getByRole('link', { name: 'Tableau de bord' }).click()
  await expect.poll(() => page.title()).toBe('Tableau de bord · Acme Keys · DocFlow')
  await expect.poll(async () => (await focused(page)).tag).toBe('h1')
  // The language button's name starts with what it shows.
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^FR — / })
    .click()
  // Back to English (the user's language is kept on the server, for the next test).
  await page.getByRole('menuitemradio', { name: 'English' }).click()
  await expect.poll(() => page.title()).toBe('Dashboard · Acme Keys · DocFlow')
  expect(errors).toEqual([])
})

it('opens an invoice row by Enter or a click on its name, and returns focus into the row when its details close', async () => {
  const { page, errors } = await openPage(browser)
  await signIn(page, server.url)
  await page.getByText('No documents yet').waitFor()

  // The upload dialog: closed by Escape, focus is back on the page, not on <body>.
  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await page.getByRole('menuitem', { name: 'Upload invoice' }).click()
  const upload = page.getByRole('dialog')
  await upload.getByLabel('Files for Invoices', { exact: true }).setInputFiles(join(corpus, INVOICE))
  await upload.getByRole('button', { name: 'Upload', exact: true }).click()
  await uploadSettled(page, INVOICE)
  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await page.getByRole('menuitem', { name: 'Upload invoice' }).click()
  await upload.waitFor()
  await page.keyboard.press('Escape')
  await upload.waitFor({ state: 'detached' })
  // Focus is back on the header's Upload button that opened the menu.
  await expect.poll(() => focused(page)).toMatchObject({ tag: 'button', text: 'Upload', inMain: false })

  const row = page.getByRole('row', { name: new RegExp(INVOICE.replace('.', '\\.')) })
  const details = page.getByRole('dialog', { name: 'Invoice details' })
  const focusIsInRow = () => expect.poll(async () => (await focused(page)).row ?? '').toContain(INVOICE)

  // Enter on the focused row opens its details; Escape closes them and focus is back in the row.
  await row.focus()
  await page.keyboard.press('Enter')
  await details.waitFor()
  // The information panel is a named, focusable scroll area; the quality check comes before the fields.
  const panel = details.getByRole('region', { name: 'Information panel' })
  expect(await panel.getAttribute('tabindex')).toBe('0')
  await panel.getByRole('heading', { name: 'Quality check' }).waitFor()
  const headings = await panel.getByRole('heading').allTextContents()
  expect(headings.indexOf('Quality check')).toBeLessThan(headings.indexOf('Information'))
  await page.keyboard.press('Escape')
  await details.waitFor({ state: 'detached' })
  await focusIsInRow()

  // A click on the file name opens them too; Close returns focus into the row.
  await row.getByText(INVOICE, { exact: true }).click()
  await details.waitFor()
  await details.getByRole('button', { name: 'Close details' }).click()
  await details.waitFor({ state: 'detached' })
  await focusIsInRow()

  // The View button: named by its visible text and the file.
  await row.getByRole('button', { name: `View ${INVOICE}` }).click()
  await details.waitFor()
  await page.keyboard.press('Escape')
  await details.waitFor({ state: 'detached' })
  await focusIsInRow()
  expect(errors).toEqual([])
})

it('returns focus to the Edit button after the company edit sheet closes', async () => {
  const { page, errors } = await openPage(browser)
  await signIn(page, server.url)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
  await page.getByRole('tab', { name: 'Companies' }).click()
  const edit = page.getByRole('button', { name: 'Edit Acme Keys' })
  const sheet = page.getByRole('dialog')
  await edit.click()
  await sheet.waitFor()
  await page.keyboard.press('Escape')
  await sheet.waitFor({ state: 'detached' })
  await expect.poll(() => edit.evaluate((el) => el === document.activeElement)).toBe(true)
  await edit.click()
  await sheet.waitFor()
  await sheet.getByRole('button', { name: 'Cancel' }).click()
  await sheet.waitFor({ state: 'detached' })
  await expect.poll(() => edit.evaluate((el) => el === document.activeElement)).toBe(true)
  expect(errors).toEqual([])
})

it('operates the header user menu by keyboard: Settings, then Logout, in English and French', async () => {
  const { page, errors } = await openPage(browser)
  await signIn(page, server.url)
  const trigger = page.getByRole('banner').getByRole('button', { name: `${ADMIN.name} — Account menu` })
  await trigger.focus()
  // The Ark menu loads on focus and takes over the trigger (and its focus).
  await page.locator('header [data-scope=menu][data-part=trigger]').last().waitFor()
  await page.keyboard.press('Enter')
  const menu = page.getByRole('menu')
  await menu.waitFor()
  await page.keyboard.press('Escape')
  await menu.waitFor({ state: 'hidden' })
  await expect.poll(async () => (await focused(page)).text).toBe(ADMIN.name)

  await page.keyboard.press('Enter')
  const settings = page.getByRole('menuitem', { name: 'Settings' })
  await settings.waitFor()
  // Opened by keyboard, the menu highlights its first item a moment after it shows: Enter then picks it.
  await expect.poll(() => settings.getAttribute('data-highlighted')).not.toBeNull()
  // Keys reach the menu only once it holds focus; before that, Enter would go to the trigger and close it.
  await expect.poll(() => menu.evaluate((el) => el.contains(document.activeElement))).toBe(true)
  await page.keyboard.press('Enter')
  await expect.poll(() => page.title()).toBe('Settings · DocFlow')

  await page
    .getByRole('banner')
    .getByRole('button', { name: /^EN — / })
    .click()
  await page.getByRole('menuitemradio', { name: 'Français' }).click()
  await page
    .getByRole('banner')
    .getByRole('button', { name: `${ADMIN.name} — Menu du compte` })
    .click()
  await page.getByRole('menuitem', { name: 'Se déconnecter' }).waitFor()
  await expect.poll(() => menu.evaluate((el) => el.contains(document.activeElement))).toBe(true)
  // Logout is the last item.
  await page.keyboard.press('End')
  await page.keyboard.press('Enter')
  await page.waitForURL((url) => url.pathname === '/login')
  await expect.poll(() => page.title()).toBe('Se connecter · DocFlow')
  // Back to English for the next test: the user's language is kept on the server.
  const signedIn = await page.request.post(`${server.url}/api/auth/login`, {
    data: { email: ADMIN.email, password: ADMIN.password },
  })
  expect(signedIn.ok()).toBe(true)
  expect((await page.request.put(`${server.url}/api/settings/me`, { data: { language: 'en' } })).ok()).toBe(
    true,
  )
  expect(errors).toEqual([])
})

it('returns focus to the opener after the filter popover and the invitation dialog close', async () => {
  const { page, errors } = await openPage(browser)
  await signIn(page, server.url)
  const filter = page.getByRole('button', { name: 'Filter' })
  await filter.click()
  const popover = page.getByRole('dialog', { name: 'Filters' })
  await popover.waitFor()
  await page.keyboard.press('Escape')
  await popover.waitFor({ state: 'hidden' })
  await expect.poll(() => filter.evaluate((el) => el === document.activeElement)).toBe(true)

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
  await page.getByRole('tab', { name: 'Users', exact: true }).click()
  const invite = page.getByRole('button', { name: 'Invite user' })
  await invite.click()
  const dialog = page.getByRole('dialog')
  await dialog.waitFor()
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'detached' })
  await expect.poll(() => invite.evaluate((el) => el === document.activeElement)).toBe(true)
  expect(errors).toEqual([])
})

it('logs nothing to the console on /login when signed out (the session check answers 200)', async () => {
  const context = await browser.newContext()
  const page = await context.newPage()
  const logged: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') logged.push(m.text())
  })
  const session = page.waitForResponse((r) => r.url().endsWith('/api/auth/session'))
  await page.goto(`${server.url}/login`)
  expect((await session).status()).toBe(200)
  await page.getByRole('button', { name: 'Sign in' }).waitFor()
  expect(logged).toEqual([])
  await context.close()
})

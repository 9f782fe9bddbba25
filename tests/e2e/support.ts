import type { Browser, BrowserContext, CDPSession, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'
import { launchBrowser } from '../support/browser'
import { type RunningServer, startServer } from '../support/server-process'

export const ADMIN = { email: 'admin@example.com', password: 'Admin1234', name: 'Admin' }

/**
 * The real server (the built app, `ADMIN` its first administrator) and a Chromium, started before
 * the file's tests and stopped after them; read `server` and `browser` inside the tests.
 */
export function serverAndBrowser() {
  const app = {} as { server: RunningServer; browser: Browser }
  beforeAll(async () => {
    app.server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
    app.browser = await launchBrowser()
  })
  afterAll(async () => {
    await app.browser?.close()
    await app.server?.stop()
  })
  return app
}

/**
 * A fresh browser context (own cookies and storage) and page, with console errors collected;
 * `touch` makes it a phone's (touch events, mobile viewport handling).
 */
export async function openPage(
  browser: Browser,
  viewport = { width: 1280, height: 800 },
  options: { touch?: boolean } = {},
) {
  const context: BrowserContext = await browser.newContext({
    viewport,
    ...(options.touch ? { hasTouch: true, isMobile: true } : {}),
  })
  const page: Page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => {
    // 401s are the expected answers of the session check and of a wrong password.
    if (m.type() === 'error' && !m.text().includes('401')) errors.push(m.text())
  })
  return { context, page, errors }
}

/** The platform administrator invites a user through the API (the screens have their own test). */
export async function inviteUser(base: string, user: { email: string; name: string; surname: string }) {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  })
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  const answer = await fetch(`${base}/api/admin/invite-user/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ ...user, role: 'CLIENT_USER' }),
  })
  expect(answer.status).toBe(201)
}

/**
 * A new company (`name`) the signed-in platform administrator joins as its COMPANY_ADMIN, chosen
 * the way the app remembers it (the administrator may already belong to another company); the
 * page reloads on its empty dashboard.
 */
export async function joinNewCompany(page: Page, base: string, name: string): Promise<{ id: number }> {
  const request = page.context().request
  const company = (await (await request.post(`${base}/api/admin/company`, { data: { name } })).json()) as {
    id: number
  }
  const joined = await request.post(`${base}/api/admin/user-company`, {
    data: { user_email: ADMIN.email, company_id: company.id, role: 'COMPANY_ADMIN' },
  })
  expect(joined.ok()).toBe(true)
  await page.evaluate((id) => localStorage.setItem('selectedCompanyId', String(id)), company.id)
  await page.reload()
  await page.getByText('No documents yet').waitFor()
  return company
}

/** Files as the header's Upload menu → "Upload invoice" sends them; resolves once the dialog closed. */
export async function uploadInvoices(page: Page, files: Parameters<Locator['setInputFiles']>[0]) {
  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await page.getByRole('menuitem', { name: 'Upload invoice' }).click()
  const upload = page.getByRole('dialog')
  await upload.getByLabel('Files for Invoices', { exact: true }).setInputFiles(files)
  await upload.getByRole('button', { name: 'Upload', exact: true }).click()
  await upload.waitFor({ state: 'detached' })
}

export type LogRow = { document_id: number; name: string; status: string; needs_review?: boolean | null }

/** The company's dashboard rows, as the API lists them. */
export async function companyRows(page: Page, base: string, companyId: number): Promise<LogRow[]> {
  const answer = await (
    await page.context().request.get(`${base}/api/logs?company_id=${companyId}&limit=100`)
  ).json()
  return (Array.isArray(answer) ? answer : answer.data) as LogRow[]
}

/** Waits until `count` of the company's rows are processed (OCR included), whatever they concluded. */
export async function processed(page: Page, base: string, companyId: number, count: number) {
  await expect
    .poll(
      async () =>
        (await companyRows(page, base, companyId)).filter((r) => !/pending|processing/i.test(r.status))
          .length,
      { timeout: 90_000, interval: 500 },
    )
    .toBe(count)
}

/** Empties the upload panel (it sits over the table's corner) once every upload settled. */
export async function clearUploadPanel(page: Page) {
  const panel = page.getByRole('region', { name: 'Uploads', exact: true })
  await panel.getByRole('button', { name: 'Clear all' }).click()
  await panel.waitFor({ state: 'detached' })
}

/**
 * Signs the administrator in to a new company (`name`) holding the given batches of invoices, each
 * uploaded once the one before was processed, with the upload panel cleared afterwards.
 */
export async function companyWithInvoices(
  page: Page,
  base: string,
  name: string,
  batches: Parameters<Locator['setInputFiles']>[0][],
) {
  await signIn(page, base)
  const company = await joinNewCompany(page, base, name)
  let count = 0
  for (const files of batches) {
    await uploadInvoices(page, files)
    count += Array.isArray(files) ? files.length : 1
    await processed(page, base, company.id, count)
  }
  await clearUploadPanel(page)
  return { company, rows: () => companyRows(page, base, company.id) }
}

/**
 * Signs in from /login; a user without 2FA is advised to set it up (until skipped once, which the
 * server remembers) and skips it here.
 */
export async function signIn(page: Page, base: string, credentials = ADMIN) {
  await page.goto(`${base}/login`)
  await page.getByLabel('Email').fill(credentials.email)
  await page.getByLabel('Password', { exact: true }).fill(credentials.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await skipAdviceIfShown(page)
  await page.getByText(`Welcome back, ${credentials.name}!`).waitFor()
}

/** After pressing Sign in: skips the 2FA advice when the server still gives it. */
export async function skipAdviceIfShown(page: Page) {
  await page.waitForURL((url) => url.pathname !== '/login')
  if (new URL(page.url()).pathname === '/setup-2fa') await skipTwoFactorAdvice(page)
}

/** At /setup-2fa after signing in: skip the setup (with its confirmation) to go where the user was going. */
export async function skipTwoFactorAdvice(page: Page) {
  await page.waitForURL((url) => url.pathname === '/setup-2fa')
  await page.getByRole('button', { name: 'Skip for now' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Skip' }).click()
  await page.waitForURL((url) => url.pathname !== '/setup-2fa')
}

/** On an e-mailed link's page (activation, reset): the password twice, then the page's button. */
export async function submitNewPassword(
  page: Page,
  password: string,
  button: 'Activate Account' | 'Reset password',
) {
  await page.getByLabel('New password', { exact: true }).fill(password)
  await page.getByLabel('Confirm password').fill(password)
  await page.getByRole('button', { name: button }).click()
}

export async function expectPath(page: Page, path: string) {
  await page.waitForURL((url) => url.pathname + url.search === path)
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(path)
}

/**
 * The link of the newest outbox mail to `to` whose link contains `path` (`/validate`,
 * `/reset-password-confirm`), waiting until the server has written it.
 */
export async function outboxLink(dataDir: string, to: string, path: string): Promise<string> {
  const { readdir, readFile } = await import('node:fs/promises')
  const { join } = await import('node:path')
  const decode = (eml: string) =>
    eml
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
  let found: string | undefined
  await expect
    .poll(
      async () => {
        const dir = join(dataDir, 'outbox')
        const files = (await readdir(dir).catch(() => [] as string[]))
          .filter((f) => f.endsWith('.eml'))
          .sort()
        for (const file of files.reverse()) {
          const text = decode(await readFile(join(dir, file), 'utf8'))
          if (!new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(text)) continue
          const link = text.match(new RegExp(`https?://[^\\s"<>]*${path}\\?[^\\s"<>]+`))?.[0]
          if (link) {
            found = link.replace(/&amp;/g, '&')
            return true
          }
        }
        return false
      },
      { timeout: 15_000 },
    )
    .toBe(true)
  return found!
}

/**
 * Waits until the upload panel (open on new uploads, and then the only place their progress shows:
 * no toast repeats it) says the file reached `status` ('Completed' or 'Failed', English interface).
 */
export async function uploadSettled(
  page: Page,
  fileName: string,
  status: 'Completed' | 'Failed' = 'Completed',
) {
  await page
    .getByRole('region', { name: 'Uploads', exact: true })
    .getByRole('listitem')
    .filter({ hasText: fileName })
    .getByText(status, { exact: true })
    .waitFor({ timeout: 45_000 })
}

/** DevTools network emulation: offline, or online with the upload slowed to 64 KB/s (16 KB/s: `slower`). */
export async function network(cdp: CDPSession, state: 'slow' | 'slower' | 'offline' | 'online') {
  const upload = { slow: 64 * 1024, slower: 16 * 1024, offline: -1, online: -1 }[state]
  await cdp.send('Network.emulateNetworkConditions', {
    offline: state === 'offline',
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: upload,
  })
}

/** A DevTools session on the page with the network domain on (for `network`). */
export async function devTools(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  return cdp
}

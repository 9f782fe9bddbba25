import type { Browser, BrowserContext, Page } from 'playwright-core'
import { expect } from 'vitest'

export const ADMIN = { email: 'admin@example.com', password: 'Admin1234', name: 'Admin' }

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
 * A new company (`name`) the signed-in platform administrator joins as its COMPANY_ADMIN; the page
 * reloads on its empty dashboard.
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
  await page.reload()
  await page.getByText('No documents yet').waitFor()
  return company
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

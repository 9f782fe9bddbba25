import type { Browser, BrowserContext, Page } from 'playwright-core'
import { expect } from 'vitest'

export const ADMIN = { email: 'admin@example.com', password: 'Admin1234', name: 'Admin' }

/** A fresh browser context (own cookies and storage) and page, with console errors collected. */
export async function openPage(browser: Browser, viewport = { width: 1280, height: 800 }) {
  const context: BrowserContext = await browser.newContext({ viewport })
  const page: Page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => {
    // 401s are the expected answers of the session check and of a wrong password.
    if (m.type() === 'error' && !m.text().includes('401')) errors.push(m.text())
  })
  return { context, page, errors }
}

export async function signIn(page: Page, base: string, credentials = ADMIN) {
  await page.goto(`${base}/login`)
  await page.getByLabel('Email').fill(credentials.email)
  await page.getByLabel('Password', { exact: true }).fill(credentials.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByText(`Welcome back, ${credentials.name}!`).waitFor()
}

export async function expectPath(page: Page, path: string) {
  await page.waitForURL((url) => url.pathname + url.search === path)
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(path)
}

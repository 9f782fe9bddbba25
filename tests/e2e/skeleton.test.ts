/** The walking skeleton in Chromium against the real server process and its embedded database. */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { type RunningServer, startServer } from '../support/server-process'
import { ADMIN, expectPath, openPage, signIn, skipAdviceIfShown, skipTwoFactorAdvice } from './support'

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('sign-in', () => {
  it('redirects a signed-out visitor to /login, remembering the page, and returns there after sign-in', async () => {
    const { page, context, errors } = await openPage(browser)
    await page.goto(`${server.url}/settings`)
    await expectPath(page, '/login?redirect=%2Fsettings')

    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.getByText('Please enter a valid email address').count()).toBe(1)
    expect(await page.getByText('Password is required').count()).toBe(1)

    await page.getByLabel('Email').fill(ADMIN.email)
    const password = page.getByLabel('Password', { exact: true })
    await password.fill('Wrong-password1')
    expect(await password.getAttribute('type')).toBe('password')
    await page.getByRole('button', { name: 'Show password' }).click()
    expect(await password.getAttribute('type')).toBe('text')
    await page.getByRole('button', { name: 'Hide password' }).click()
    expect(await password.getAttribute('type')).toBe('password')

    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByText('Login failed. Please check your credentials and try again.').waitFor()

    await password.fill(ADMIN.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByText('For enhanced security, we recommend setting up two-factor authentication').waitFor()
    await expectPath(page, '/setup-2fa?redirect=%2Fsettings')
    await skipTwoFactorAdvice(page)
    await expectPath(page, '/settings')
    await page.getByRole('button', { name: 'Logout' }).waitFor()

    const cookies = await context.cookies()
    const sid = cookies.find((c) => c.name === 'sid')
    expect(sid?.httpOnly).toBe(true)
    expect(sid?.sameSite).toBe('Lax')
    expect(errors).toEqual([])
    await context.close()
  })

  it('does not follow a redirect to another origin', async () => {
    const { page, context } = await openPage(browser)
    await page.goto(`${server.url}/login?redirect=${encodeURIComponent('//evil.example/x')}`)
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await skipAdviceIfShown(page)
    await expectPath(page, '/')
    await context.close()
  })

  it('does not advise 2FA again once skipped, until the user asks for it in Settings', async () => {
    const { page, context, errors } = await openPage(browser)
    const signInAgain = async () => {
      await page
        .getByRole('banner')
        .getByRole('button', { name: /Account menu/ })
        .click()
      await page.getByRole('menuitem', { name: 'Logout' }).click()
      await expectPath(page, '/login')
      await page.getByLabel('Email').fill(ADMIN.email)
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL((url) => url.pathname !== '/login')
    }
    await signIn(page, server.url)
    await signInAgain()
    await expectPath(page, '/')

    await page.goto(`${server.url}/settings`)
    const advice = page.getByRole('switch', {
      name: 'Advise me to set up two-factor authentication when I sign in',
    })
    expect(await advice.isChecked()).toBe(false)
    await advice.click()
    await expect.poll(() => advice.isChecked()).toBe(true)
    await signInAgain()
    await expectPath(page, '/setup-2fa')
    await skipTwoFactorAdvice(page)
    expect(errors).toEqual([])
    await context.close()
  })
})

describe('application shell', () => {
  it('shows the dashboard welcome, collapses the sidebar, and logs out', async () => {
    const { page, context, errors } = await openPage(browser)
    await signIn(page, server.url)
    await expectPath(page, '/')

    const sidebar = page.locator('aside')
    expect((await sidebar.boundingBox())?.width).toBe(256)
    await page.getByRole('button', { name: 'Collapse sidebar' }).click()
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(64)
    await page.getByRole('button', { name: 'Expand sidebar' }).click()
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(256)

    await page.getByRole('link', { name: 'Settings' }).click()
    await page.getByRole('button', { name: 'Logout' }).click()
    await expectPath(page, '/login')
    await page.getByText('Logged out successfully').waitFor()

    await page.goto(`${server.url}/`)
    await expectPath(page, '/login?redirect=%2F')
    expect(errors).toEqual([])
    await context.close()
  })

  it('opens the sidebar as an overlay below 768 px and closes it on navigation', async () => {
    const { page, context } = await openPage(browser, { width: 375, height: 740 })
    await signIn(page, server.url)
    expect(await page.locator('aside').isVisible()).toBe(false)
    await page.getByRole('button', { name: 'Open navigation' }).click()
    const overlay = page.getByRole('dialog')
    await overlay.waitFor()
    await overlay.getByRole('link', { name: 'Settings' }).click()
    await expectPath(page, '/settings')
    await expect.poll(() => overlay.count()).toBe(0)

    await page.getByRole('button', { name: 'Open navigation' }).click()
    await overlay.waitFor()
    await page.keyboard.press('Escape')
    await expect.poll(() => overlay.count()).toBe(0)
    await context.close()
  })

  it('shows the 404 page for unknown paths with a link home', async () => {
    const { page, context } = await openPage(browser)
    await page.goto(`${server.url}/no/such/page`)
    await page.getByText('Oops! Page not found').waitFor()
    await page.getByRole('link', { name: 'Return to Home' }).click()
    await expectPath(page, '/login?redirect=%2F')
    await context.close()
  })
})

describe('language', () => {
  it('switches every visible string, <html lang> and localStorage, and keeps the choice after a reload', async () => {
    const { page, context, errors } = await openPage(browser)
    await signIn(page, server.url)
    await page.getByRole('button', { name: 'Change language' }).click()
    const french = page.getByRole('menuitemradio', { name: 'Français' })
    expect(await page.getByRole('menuitemradio', { name: 'English' }).getAttribute('aria-checked')).toBe(
      'true',
    )
    await french.click()
    await page.getByText(`Bon retour, ${ADMIN.name} !`).waitFor()
    expect(await page.getByRole('link', { name: 'Paramètres' }).count()).toBe(1)
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr')
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('fr')

    await page.reload()
    await page.getByText(`Bon retour, ${ADMIN.name} !`).waitFor()
    await page.getByRole('button', { name: 'Changer de langue' }).click()
    expect(await page.getByRole('menuitemradio', { name: 'Français' }).getAttribute('aria-checked')).toBe(
      'true',
    )
    await page.getByRole('menuitemradio', { name: 'English' }).click()
    await page.getByText(`Welcome back, ${ADMIN.name}!`).waitFor()
    expect(errors).toEqual([])
    await context.close()
  })
})

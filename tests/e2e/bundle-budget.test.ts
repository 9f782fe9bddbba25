/**
 * The JavaScript budgets of the two first screens (tests/support/bundle.ts), held in `npm test`: a
 * widget library pulled into an eager chunk, or a server-only schema into the contract barrel, once
 * doubled the dashboard's scripts without any test noticing. `npm run bench:bundle` prints the detail.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { BUDGET_KIB, scriptsLoaded, totalKiB } from '../support/bundle'
import { type RunningServer, startServer } from '../support/server-process'
import { ADMIN, openPage, signIn } from './support'

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

const listing = (files: Map<string, number>) =>
  [...files].map(([name, size]) => `${(size / 1024).toFixed(1)} KiB ${name}`).join(', ')

it('keeps the scripts of /login and of a cold dashboard within their gzip budgets', async () => {
  const { page, context } = await openPage(browser)
  const login = await scriptsLoaded(page, () => page.goto(`${server.url}/login`), 'Sign in')
  expect(login.size).toBeGreaterThan(0)
  expect(totalKiB(login), listing(login)).toBeLessThanOrEqual(BUDGET_KIB.login)

  await signIn(page, server.url)
  const cold = await context.newPage()
  const dashboard = await scriptsLoaded(cold, () => cold.goto(`${server.url}/`), 'Welcome back,')
  // The dashboard's own chunk is among them: the measure is of the dashboard, not of a redirect.
  expect([...dashboard.keys()].some((name) => /\/dashboard-[\w-]+\.js$/.test(name))).toBe(true)
  expect(totalKiB(dashboard), listing(dashboard)).toBeLessThanOrEqual(BUDGET_KIB.dashboard)
  await context.close()
})

/** The scripts the served page announces (its entry and `modulepreload` links), as paths. */
const announced = (page: import('playwright-core').Page) =>
  page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>(
        'script[src], link[rel="modulepreload"]',
      ),
    ].map((el) => new URL(el instanceof HTMLScriptElement ? el.src : el.href).pathname),
  )

it('asks a signed-in page’s code and first calls up front: no script the page did not announce, no prefetched answer left unused', async () => {
  const { page, context } = await openPage(browser)
  await page.goto(`${server.url}/login`)
  await page.getByText('Sign in').first().waitFor()
  // Signed out: the plain page, which fetches none of the signed-in app.
  expect(await page.evaluate(() => document.documentElement.hasAttribute('data-signed-in'))).toBe(false)

  await signIn(page, server.url)
  const cold = await context.newPage()
  const dashboard = await scriptsLoaded(cold, () => cold.goto(`${server.url}/`), 'Welcome back,')
  expect(await cold.evaluate(() => document.documentElement.hasAttribute('data-signed-in'))).toBe(true)
  // Every script the cold dashboard ran was announced by the page: none waited for another to run.
  const ahead = new Set(await announced(cold))
  expect([...dashboard.keys()].filter((path) => !ahead.has(path))).toEqual([])
  // The session check, the catalog, the companies and the settings were asked by the page's first
  // script, and the app took each answer (an unused one would mean the app asked another address).
  const left = await cold.evaluate(() =>
    Object.keys((window as unknown as Record<string, object>).__docflowPrefetch ?? {}),
  )
  expect(left).toEqual([])
  await context.close()
})

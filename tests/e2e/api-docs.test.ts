/** The API reference page (`/api/docs`) renders the generated document in Chromium, under the server's CSP. */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { type RunningServer, startServer } from '../support/server-process'
import { openPage } from './support'

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

it('renders the API reference from /api/openapi.json with scripts of this origin only', async () => {
  const { page, errors } = await openPage(browser)
  const requested: string[] = []
  // What the browser fetched: requests the CSP blocked never finish.
  page.on('requestfinished', (request) => requested.push(request.url()))
  const failedApiCalls: string[] = []
  page.on('response', (response) => {
    if (response.status() >= 400 && response.url().includes('/api/')) failedApiCalls.push(response.url())
  })
  const res = await page.goto(`${server.url}/api/docs`)
  expect(res?.status()).toBe(200)
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self'")
  // The title, a tag and an operation of the generated document, as the viewer shows them.
  await page.getByRole('heading', { name: 'DocFlow API' }).first().waitFor({ timeout: 30_000 })
  await expect
    .poll(() => page.getByText('Ready, and the database answered within the last few seconds').count())
    .toBeGreaterThan(0)
  await expect.poll(() => page.getByText('Invoices', { exact: true }).count()).toBeGreaterThan(0)
  expect(requested.filter((url) => !url.startsWith(server.url) && !url.startsWith('data:'))).toEqual([])
  // The viewer's stylesheet names its web fonts on its own servers: the CSP blocks them (system
  // fonts are used instead), and nothing else.
  // (The browser's favicon request meets the unbuilt app's 503 when the test runs before a build.)
  expect(failedApiCalls).toEqual([])
  expect(
    errors.filter(
      (e) => !/^Loading the font 'https:\/\/fonts\.scalar\.com\/|^Failed to load resource/.test(e),
    ),
  ).toEqual([])
})

/** The same server process on PostgreSQL (DATABASE_URL): migrations, bootstrap admin, sign-in in the browser. */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { createScratchDatabase } from '../support/db'
import { type RunningServer, startServer } from '../support/server-process'
import { ADMIN, expectPath, openPage, signIn } from './support'

const serverUrl = process.env.TEST_DATABASE_URL
let server: RunningServer
let browser: Browser
let database: Awaited<ReturnType<typeof createScratchDatabase>>

beforeAll(async () => {
  if (!serverUrl) return
  database = await createScratchDatabase(serverUrl)
  server = await startServer({
    DATABASE_URL: database.url,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await database?.drop()
})

it.runIf(serverUrl)('runs on PostgreSQL with the same migrations and signs in', async () => {
  const { page, context } = await openPage(browser)
  await signIn(page, server.url)
  await expectPath(page, '/')
  const me = await context.request.get(`${server.url}/api/auth/logged-in`)
  expect(me.status()).toBe(200)
  expect((await me.json()).email).toBe(ADMIN.email)
  await context.close()
})

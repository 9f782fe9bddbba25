/** Without ADMIN_EMAIL/ADMIN_PASSWORD, the login page offers to create the first administrator, once. */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { type RunningServer, startServer } from '../support/server-process'
import { expectPath, openPage, signIn } from './support'

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

it('creates the first administrator from the login page, then only sign-in is offered', async () => {
  const { page, context, errors } = await openPage(browser)
  await page.goto(`${server.url}/login`)
  await page.getByRole('heading', { name: 'Create the first administrator' }).waitFor()

  await page.getByLabel('Email').fill('grace@example.com')
  await page.getByLabel('First name').fill('Grace')
  await page.getByLabel('Last name').fill('Hopper')
  await page.getByLabel('Password', { exact: true }).fill('weakpass')
  await page.getByLabel('Confirm password').fill('weakpas')
  await page.getByRole('button', { name: 'Create administrator' }).click()
  await page.getByText('Password must contain at least one uppercase letter').waitFor()
  await page.getByText("Passwords don't match").waitFor()

  await page.getByLabel('Password', { exact: true }).fill('Compiler1952')
  await page.getByLabel('Confirm password').fill('Compiler1952')
  await page.getByRole('button', { name: 'Create administrator' }).click()
  await page.getByText('Administrator created. You can now sign in.').waitFor()
  expect(await page.getByLabel('Email').inputValue()).toBe('grace@example.com')

  await signIn(page, server.url, { email: 'grace@example.com', password: 'Compiler1952', name: 'Grace' })
  await expectPath(page, '/')

  const again = await fetch(`${server.url}/api/auth/create-first-saas-admin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'eve@example.com', name: 'Eve', surname: 'Evil', password: 'Takeover123' }),
  })
  expect(again.status).toBe(409)

  const fresh = await openPage(browser)
  await fresh.page.goto(`${server.url}/login`)
  await fresh.page.getByRole('heading', { name: 'Sign in' }).waitFor()
  expect(await fresh.page.getByText('Create the first administrator').count()).toBe(0)
  expect(errors).toEqual([])
  await fresh.context.close()
  await context.close()
})

/**
 * The e-mailed links' pages in Chromium: a link without its token or e-mail is turned away to the
 * login with the notice, in English and in French; a link the server refuses (used, expired)
 * opens the page that says why and what to do instead.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPglite } from '../../server/db/client.ts'
import { accountTokens } from '../../server/db/schema.ts'
import { launchBrowser } from '../support/browser'
import { type RunningServer, startServer } from '../support/server-process'
import { ADMIN, expectPath, inviteUser, openPage, outboxLink, submitNewPassword } from './support'

let server: RunningServer
let browser: Browser
let dataDir: string
const USER = { email: 'fox@example.com', name: 'Fox', surname: 'Mulder', password: 'Fox-Mulder-42' }
const ENV = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }

/**
 * The administrator's reset link, expired: the server is stopped while its token's expiry is moved
 * into the past (the server's own tests wait out the hour on a fake clock; this one cannot).
 */
async function expiredResetLink(): Promise<string> {
  const answer = await fetch(`${server.url}/api/auth/password/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email }),
  })
  expect(answer.status).toBe(200)
  const link = await outboxLink(dataDir, ADMIN.email, '/reset-password-confirm')
  await server.stop()
  const database = await openPglite(join(dataDir, 'pgdata'))
  const aged = await database.db
    .update(accountTokens)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(accountTokens.purpose, 'reset'))
    .returning({ id: accountTokens.id })
  expect(aged).toHaveLength(1)
  await database.close()
  server = await startServer(ENV, { dataDir })
  return link.replace(/^https?:\/\/[^/]+/, server.url)
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docflow-e2e-links-'))
  server = await startServer(ENV, { dataDir })
  await inviteUser(server.url, USER)
  browser = await launchBrowser()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await rm(dataDir, { recursive: true, force: true })
})

const INCOMPLETE = ['', '?token=x', '?email=a%40b.c']
const PAGES = [
  {
    path: '/validate',
    en: 'Invalid validation link',
    fr: 'Lien de validation invalide',
  },
  {
    path: '/reset-password-confirm',
    en: 'Invalid password reset link',
    fr: 'Lien de réinitialisation du mot de passe invalide',
  },
]

describe('a link without its token or e-mail', () => {
  it.each(['en', 'fr'] as const)('says the link is invalid and goes to the login (%s)', async (language) => {
    const context = await browser.newContext({ locale: language === 'fr' ? 'fr-FR' : 'en-US' })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    for (const { path, ...texts } of PAGES) {
      for (const search of INCOMPLETE) {
        await page.goto(`${server.url}${path}${search}`)
        await page.getByText(texts[language], { exact: true }).waitFor()
        await expectPath(page, '/login')
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(language)
      }
    }
    expect(errors).toEqual([])
    await context.close()
  })

  it('gives its place in the history to the login (Back does not open it again)', async () => {
    const { page, context } = await openPage(browser)
    await page.goto(`${server.url}/login`)
    const before = await page.evaluate(() => history.length)
    await page.goto(`${server.url}/validate?token=x`)
    await page.getByText('Invalid validation link', { exact: true }).waitFor()
    await expectPath(page, '/login')
    // One entry more (the link's, now the login's), not two.
    expect(await page.evaluate(() => history.length)).toBe(before + 1)
    await context.close()
  })
})

describe('a link the server refuses', () => {
  it('once used, opens the page that says the activation link cannot be used', async () => {
    const { page, context } = await openPage(browser)
    const link = await outboxLink(dataDir, USER.email, '/validate')
    await page.goto(link)
    await submitNewPassword(page, USER.password, 'Activate Account')
    await page.getByText('Account validated successfully! You can now login.').waitFor()
    await expectPath(page, '/login')
    await page.goto(link)
    await submitNewPassword(page, USER.password, 'Activate Account')
    await page.getByRole('heading', { name: 'This activation link cannot be used' }).waitFor()
    await page.getByText(/Ask your administrator to invite you again/).waitFor()
    await page.getByRole('link', { name: 'Back to login' }).click()
    await expectPath(page, '/login')
    await context.close()
  })

  it('once expired, opens the page that says the reset link cannot be used and offers a new one', async () => {
    const link = await expiredResetLink()
    const { page, context } = await openPage(browser)
    await page.goto(link)
    await submitNewPassword(page, 'Brand-new-42', 'Reset password')
    await page.getByRole('heading', { name: 'This password reset link cannot be used' }).waitFor()
    await page.getByRole('link', { name: 'Request a new link' }).click()
    await expectPath(page, '/reset-password')
    await context.close()
  }, 120_000)
})

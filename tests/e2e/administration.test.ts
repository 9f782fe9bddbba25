/**
 * Administration end to end in Chromium: the platform administrator creates companies, uploads a
 * logo and invites a user; the user activates the account from the outbox link, switches company,
 * and the choice survives a reload.
 */
import { deflateSync } from 'node:zlib'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { type RunningServer, startServer } from '../support/server-process'
import { ADMIN, expectPath, openPage, outboxLink, signIn, skipTwoFactorAdvice } from './support'

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

/** A valid 2×2 PNG, made here so the test carries no binary fixture. */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (buf: Buffer) => {
    let c = 0xffffffff
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data])
    const out = Buffer.alloc(12 + data.length)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc(body), 8 + data.length)
    return out
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(2, 0)
  header.writeUInt32BE(2, 4)
  header.set([8, 2, 0, 0, 0], 8)
  const pixels = Buffer.from([0, 79, 70, 229, 79, 70, 229, 0, 79, 70, 229, 79, 70, 229])
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

async function openAdministration(page: Page) {
  await page.goto(`${server.url}/settings`)
  await page.getByRole('heading', { name: 'User management' }).waitFor()
}

async function createCompany(page: Page, name: string) {
  await page.getByRole('tab', { name: 'New company' }).click()
  await page.getByLabel('Company name').fill(name)
  await page.getByRole('button', { name: 'Create company' }).click()
  await page.getByText('Company created successfully').first().waitFor()
}

it('lets the platform administrator set up companies and invite a user who then switches company', async () => {
  const admin = await openPage(browser)
  await signIn(admin.page, server.url)
  await openAdministration(admin.page)

  await admin.page.getByRole('tab', { name: 'New company' }).click()
  await admin.page.getByRole('button', { name: 'Create company' }).click()
  await admin.page.getByText('Name must be at least 2 characters').waitFor()
  await createCompany(admin.page, 'Acme Accounting')
  await createCompany(admin.page, 'Globex Corp')

  await admin.page.getByRole('tab', { name: 'Companies' }).click()
  await admin.page.getByRole('button', { name: 'Edit Acme Accounting' }).click()
  await admin.page
    .getByLabel('Logo file')
    .setInputFiles({ name: 'acme.png', mimeType: 'image/png', buffer: tinyPng() })
  await admin.page.getByText('Logo uploaded successfully').waitFor()
  await admin.page.getByRole('button', { name: 'Save changes' }).click()
  await admin.page.getByText('Company updated successfully').waitFor()

  await admin.page.getByRole('tab', { name: 'Users' }).click()
  await admin.page.getByRole('button', { name: 'Invite user' }).click()
  const dialog = admin.page.getByRole('dialog')
  await dialog.getByLabel('Email').fill('carol@example.com')
  await dialog.getByLabel('Name', { exact: true }).fill('Carol')
  await dialog.getByLabel('Surname').fill('Danvers')
  await dialog.getByLabel('Role', { exact: true }).selectOption('CLIENT_USER')
  for (const company of ['Acme Accounting', 'Globex Corp']) {
    await dialog.getByLabel('Company', { exact: true }).selectOption({ label: company })
    await dialog.getByLabel('Company role').selectOption('COMPANY_USER')
    await dialog.getByRole('button', { name: 'Add company' }).click()
  }
  await dialog.getByRole('button', { name: 'Send invitation' }).click()
  await admin.page.getByText('User invited successfully').waitFor()
  expect(admin.errors).toEqual([])
  await admin.context.close()

  const link = await outboxLink(server.dataDir, 'carol@example.com', '/validate')
  const carol = await openPage(browser)
  await carol.page.goto(link)
  await carol.page.getByLabel('New password', { exact: true }).fill('Captain-Marvel-1')
  await carol.page.getByLabel('Confirm password').fill('Captain-Marvel-1')
  await carol.page.getByRole('button', { name: 'Activate Account' }).click()
  await carol.page.getByText('Account validated successfully! You can now login.').waitFor()
  await expectPath(carol.page, '/login')

  await carol.page.getByLabel('Email').fill('carol@example.com')
  await carol.page.getByLabel('Password', { exact: true }).fill('Captain-Marvel-1')
  await carol.page.getByRole('button', { name: 'Sign in' }).click()
  await skipTwoFactorAdvice(carol.page)
  await carol.page.getByText('Welcome back, Carol!').waitFor()

  // The first company (by name) is selected, with its logo; Globex has none.
  const switcher = carol.page.getByRole('button', { name: /Change company/ })
  await expect.poll(() => switcher.textContent()).toContain('Acme Accounting')
  expect(await switcher.locator('img').getAttribute('src')).toMatch(
    /\/api\/companies\/company\/logo\/\d+\?t=/,
  )

  await switcher.click()
  await carol.page.getByPlaceholder('Search companies').fill('glo')
  await carol.page.getByRole('button', { name: 'Globex Corp' }).click()
  await carol.page.getByText('Switched to Globex Corp').waitFor()
  await expect.poll(() => switcher.textContent()).toContain('Globex Corp')

  await carol.page.reload()
  await carol.page.getByText('Welcome back, Carol!').waitFor()
  await expect
    .poll(() => carol.page.getByRole('button', { name: /Change company/ }).textContent())
    .toContain('Globex Corp')
  const stored = await carol.page.evaluate(() => localStorage.getItem('selectedCompanyId'))
  expect(Number(stored)).toBeGreaterThan(0)

  await carol.page.getByRole('button', { name: /Change company/ }).click()
  await carol.page.getByPlaceholder('Search companies').fill('nothing like this')
  await carol.page.getByText('No company found').waitFor()

  // Not a platform administrator: no administration area in the settings.
  await carol.page.goto(`${server.url}/settings`)
  await carol.page.getByRole('heading', { name: 'Change password' }).waitFor()
  expect(await carol.page.getByRole('heading', { name: 'User management' }).count()).toBe(0)
  expect(carol.errors).toEqual([])
  await carol.context.close()
})

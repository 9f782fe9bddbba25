/**
 * Account security end to end in Chromium: an invited user activates the account from the
 * e-mailed link → first sign-in with the 2FA advice → setup with a code computed from the shown
 * secret → logout → sign-in with TOTP → with a backup code (once) → password reset from the
 * outbox link; /two-factor opened directly is turned away.
 */
import * as OTPAuth from 'otpauth'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { type RunningServer, startServer } from '../support/server-process'
import { ADMIN, expectPath, inviteUser, openPage, outboxLink, submitNewPassword } from './support'

let server: RunningServer
let browser: Browser
const USER = { email: 'dana@example.com', password: 'Dana-Scully-42', name: 'Dana' }

beforeAll(async () => {
  server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
  browser = await launchBrowser()
  await inviteUser(server.url, { email: USER.email, name: USER.name, surname: 'Scully' })
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** A TOTP code `stepsAhead` periods from now (the server accepts one step of drift, each step once). */
function totp(secret: string, stepsAhead = 0) {
  const generator = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 })
  return generator.generate({ timestamp: Date.now() + stepsAhead * 30_000 })
}

async function submitCredentials(page: Page, password: string) {
  await page.goto(`${server.url}/login`)
  await page.getByLabel('Email').fill(USER.email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

async function logout(page: Page) {
  await page.goto(`${server.url}/settings`)
  await page.getByRole('button', { name: 'Logout' }).click()
  await expectPath(page, '/login')
}

describe('two-factor authentication', () => {
  let secret = ''
  let backupCodes: string[] = []

  it('activates the invited account from the e-mailed link', async () => {
    const { page, context, errors } = await openPage(browser)
    await page.goto(await outboxLink(server.dataDir, USER.email, '/validate'))
    expect(await page.getByLabel('Email').inputValue()).toBe(USER.email)
    await page.getByLabel('New password', { exact: true }).fill(USER.password)
    await page.getByLabel('Confirm password').fill(`${USER.password}x`)
    await page.getByRole('button', { name: 'Activate Account' }).click()
    await page.getByText("Passwords don't match").waitFor()
    await page.getByLabel('Confirm password').fill(USER.password)
    await page.getByRole('button', { name: 'Activate Account' }).click()
    await page.getByText('Account validated successfully! You can now login.').waitFor()
    await expectPath(page, '/login')
    expect(errors).toEqual([])
    await context.close()
  })

  it('advises setup at first sign-in and enables 2FA with a code from the shown secret', async () => {
    const { page, context, errors } = await openPage(browser)
    await submitCredentials(page, USER.password)
    await page.getByText('For enhanced security, we recommend setting up two-factor authentication').waitFor()
    await expectPath(page, '/setup-2fa')

    await page.getByRole('button', { name: 'Get started' }).click()
    await page.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor()
    secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '')
    backupCodes = await page
      .getByRole('list', { name: 'Backup codes' })
      .getByRole('listitem')
      .allTextContents()
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/)
    expect(backupCodes).toHaveLength(10)

    await page.getByRole('button', { name: 'Next' }).click()
    await page.getByLabel('Verification code').fill('12345')
    await page.getByRole('button', { name: 'Verify and enable' }).click()
    await page.getByText('Token must be at least 6 characters').waitFor()

    await page.getByLabel('Verification code').fill(totp(secret))
    await page.getByRole('button', { name: 'Verify and enable' }).click()
    await page.getByText('2FA has been successfully set up!').waitFor()
    await expectPath(page, '/')

    await page.goto(`${server.url}/settings`)
    await page.getByText('Two-factor authentication is on.').waitFor()
    expect(errors).toEqual([])
    await context.close()
  })

  it('asks for the second factor and accepts a TOTP code, keeping credentials out of URL and storage', async () => {
    const { page, context, errors } = await openPage(browser)
    await submitCredentials(page, USER.password)
    await page.getByText('2FA verification required').waitFor()
    await expectPath(page, '/two-factor')
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    )
    expect(stored).not.toContain(USER.password)
    expect(page.url()).not.toContain(USER.password)

    await page.getByLabel('Authentication code').fill('000000')
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByText('2FA verification failed').waitFor()

    await page.getByLabel('Authentication code').fill(totp(secret, 1))
    await page.getByRole('button', { name: 'Verify' }).click()
    await expectPath(page, '/')
    await page.getByText(`Welcome back, ${USER.name}!`).waitFor()
    await logout(page)
    expect(errors).toEqual([])
    await context.close()
  })

  it('accepts a backup code once', async () => {
    const { page, context } = await openPage(browser)
    for (const expected of ['accepted', 'refused'] as const) {
      await submitCredentials(page, USER.password)
      await expectPath(page, '/two-factor')
      await page.getByLabel('Use Backup Code').check()
      await page.getByLabel('Backup code', { exact: true }).fill(backupCodes[0]!)
      await page.getByRole('button', { name: 'Verify' }).click()
      if (expected === 'accepted') {
        await expectPath(page, '/')
        await logout(page)
      } else {
        await page.getByText('2FA verification failed').waitFor()
        await page.getByRole('button', { name: 'Back to login' }).click()
        await expectPath(page, '/login')
      }
    }
    await context.close()
  })

  it('turns away /two-factor opened directly', async () => {
    const { page, context } = await openPage(browser)
    await page.goto(`${server.url}/two-factor`)
    await page.getByText('Invalid authentication attempt').waitFor()
    await expectPath(page, '/login')
    await context.close()
  })

  it('resets the password from the e-mailed link, then signs in with the new one', async () => {
    const { page, context, errors } = await openPage(browser)
    await page.goto(`${server.url}/login`)
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await expectPath(page, '/reset-password')
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor()
    await page.getByLabel('Email').fill(USER.email)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor()
    await page.getByText('spam or junk folder').waitFor()

    const link = await outboxLink(server.dataDir, USER.email, '/reset-password-confirm')
    await page.goto(link)
    await page.getByLabel('New password', { exact: true }).fill('Brand-new-42')
    await page.getByLabel('Confirm password').fill('Brand-new-41')
    await page.getByRole('button', { name: 'Reset password' }).click()
    await page.getByText("Passwords don't match").waitFor()
    await page.getByLabel('Confirm password').fill('Brand-new-42')
    await page.getByRole('button', { name: 'Reset password' }).click()
    await page.getByText('Your password has been reset. You can now sign in.').waitFor()
    await expectPath(page, '/login')

    // The link is single-use.
    await page.goto(link)
    await submitNewPassword(page, 'Another-one-42', 'Reset password')
    // Refused by the server: a page says why and offers a new link, not only a toast.
    await page.getByRole('heading', { name: 'This password reset link cannot be used' }).waitFor()
    await page.getByRole('link', { name: 'Request a new link' }).waitFor()

    await submitCredentials(page, 'Brand-new-42')
    await expectPath(page, '/two-factor')
    await page.getByLabel('Use Backup Code').check()
    await page.getByLabel('Backup code', { exact: true }).fill(backupCodes[1]!)
    await page.getByRole('button', { name: 'Verify' }).click()
    await expectPath(page, '/')
    // The 400 is the expected answer to the reused link.
    expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([])
    await context.close()
  })
})

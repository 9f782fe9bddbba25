/** Building blocks of the account-security tests: an app with an in-memory mailer, TOTP codes. */
import { Secret, TOTP } from 'otpauth'
import { createApp } from '../../server/app.ts'
import type { AppDatabase } from '../../server/db/client.ts'
import { createLogger } from '../../server/logger.ts'
import { createMemoryMailer } from '../../server/services/mail.ts'
import type { LoginRateLimiter } from '../../server/services/rate-limit.ts'
import { createClock, createCookieJar, createLogCapture, createTestApp, jsonBody } from './helpers.ts'

export type Jar = ReturnType<typeof createCookieJar>

/** `createTestApp`'s configuration and directories, with a mailer and a clock the test holds. */
export async function createAccountTestApp(
  db: AppDatabase,
  options: { env?: Record<string, string>; rateLimiter?: LoginRateLimiter } = {},
) {
  const clock = createClock()
  const base = await createTestApp(db, { clock: clock.now, env: options.env, withStatic: false })
  const mailer = createMemoryMailer()
  const logs = createLogCapture()
  const app = createApp({
    db,
    config: base.config,
    logger: createLogger(base.config, logs.stream),
    clock: clock.now,
    mailer,
    rateLimiter: options.rateLimiter,
  })
  const post = (jar: Jar, path: string, body: unknown) => jar.request(app, `/api${path}`, jsonBody(body))
  return { app, config: base.config, clock, mailer, logs: logs.lines, post, cleanup: base.cleanup }
}

/** The code an authenticator app shows for `secret` at `at` (+ `steps` periods). */
export function totpCode(secret: string, at: Date, steps = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) })
  return totp.generate({ timestamp: at.getTime() + steps * 30_000 })
}

/** The `token` and `email` query parameters of the link in a mail. */
export function linkParams(text: string, path: string): { token: string; email: string; url: URL } {
  const match = text.match(new RegExp(`https?://\\S+${path}\\?\\S+`))
  if (!match) throw new Error(`no ${path} link in the mail`)
  const url = new URL(match[0])
  return { token: url.searchParams.get('token') ?? '', email: url.searchParams.get('email') ?? '', url }
}

export { createCookieJar }

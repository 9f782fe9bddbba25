import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createLogger } from '../../server/logger.ts'
import { invitationMail, resetMail } from '../../server/mail/templates.ts'
import { createAccountService } from '../../server/services/accounts.ts'
import { createMailer, createOutboxMailer } from '../../server/services/mail.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { linkParams } from './auth-helpers.ts'
import { createCookieJar, createLogCapture, createTestApp, insertUser, jsonBody } from './helpers.ts'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createTestApp>>

beforeAll(async () => {
  database = await createTestDatabase()
  // No mailer injected and no SMTP_URL: the app writes to DATA_DIR/outbox like a laptop install.
  ctx = await createTestApp(database.db, {
    withStatic: false,
    env: { PUBLIC_URL: 'https://docs.example.com' },
  })
})
afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})

const outbox = () => join(ctx.config.dataDir, 'outbox')

async function emlFiles(): Promise<string[]> {
  try {
    return (await readdir(outbox())).filter((f) => f.endsWith('.eml')).sort()
  } catch {
    return []
  }
}

/** Waits for a new .eml in the outbox (the reset mail is sent in the background). */
async function nextEml(known: string[]): Promise<{ file: string; raw: string }> {
  const fresh = await vi.waitFor(
    async () => {
      const [name] = (await emlFiles()).filter((f) => !known.includes(f))
      if (!name) throw new Error('no .eml was written')
      return name
    },
    { timeout: 3000, interval: 10 },
  )
  const file = join(outbox(), fresh)
  return { file, raw: await readFile(file, 'utf8') }
}

const decodeQ = (q: string) =>
  Buffer.from(
    q
      .replace(/_/g, ' ')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8')

/** The Subject header, unfolded, its RFC 2047 encoded words decoded. */
function subject(raw: string): string {
  const header = raw.match(/^Subject:(.*(?:\r\n[ \t].*)*)/m)?.[1] ?? ''
  return header
    .replace(/\?=\r\n[ \t]+=\?/g, '?==?')
    .replace(/\r\n[ \t]+/g, ' ')
    .trim()
    .replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_, q: string) => decodeQ(q))
}

/** The decoded text/plain part of a raw message (quoted-printable or plain). */
function textPart(raw: string): string {
  const parts = raw.split(/\r\n--[^\r\n]+\r\n/)
  const part = parts.find((p) => /^Content-Type: text\/plain/im.test(p))
  if (!part) throw new Error('no text/plain part')
  const [head = '', ...body] = part.split('\r\n\r\n')
  const content = body.join('\r\n\r\n')
  if (!/Content-Transfer-Encoding: quoted-printable/i.test(head)) return content
  const bytes = content
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
  return Buffer.from(bytes, 'latin1').toString('utf8')
}

describe('the outbox mailer (no SMTP_URL)', () => {
  it('writes the reset mail of a French user as an RFC 822 .eml with the link, and logs the link', async () => {
    const user = await insertUser(database.db, { language: 'fr', name: 'Amélie' })
    const known = await emlFiles()
    const res = await ctx.app.request('/api/auth/password/reset', jsonBody({ email: user.email }))
    expect(res.status).toBe(200)
    const { file, raw } = await nextEml(known)

    expect(raw).toMatch(/\r\n/) // CRLF line ends
    expect(raw).not.toMatch(/[^\r]\n/)
    expect(raw).toMatch(new RegExp(`^To: ${user.email.replace(/[.+]/g, '\\$&')}\r$`, 'm'))
    expect(raw).toMatch(/^From: DocFlow <no-reply@localhost>\r$/m)
    expect(subject(raw)).toBe('Réinitialisez votre mot de passe DocFlow')
    expect(raw).toMatch(/^Content-Type: multipart\/alternative/m)
    expect(raw).toMatch(/^Content-Type: text\/html/m)

    const text = textPart(raw)
    expect(text).toContain('Bonjour Amélie,')
    expect(text).toContain('expire dans 1 heure')
    const { url, token, email } = linkParams(text, '/reset-password-confirm')
    expect(url.origin).toBe('https://docs.example.com')
    expect(email).toBe(user.email)
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(text).toContain(`email=${encodeURIComponent(user.email)}`)

    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const line = ctx.logs.find((l) => l.file === file)
    expect(line?.level).toBe(30) // info
    expect(line?.link).toBe(url.toString())

    // The written link works.
    const confirm = await ctx.app.request(
      '/api/auth/password/reset/confirm',
      jsonBody({ email, token, new_password: 'Nouveau-Mot9' }),
    )
    expect(confirm.status).toBe(200)
    const login = await createCookieJar().request(
      ctx.app,
      '/api/auth/login',
      jsonBody({ email: user.email, password: 'Nouveau-Mot9' }),
    )
    expect(login.status).toBe(200)
  })

  it('writes the invitation in English for an English user', async () => {
    const user = await insertUser(database.db, { validated: false, passwordHash: null, name: 'Ada' })
    const known = await emlFiles()
    const logs = createLogCapture()
    const logger = createLogger(ctx.config, logs.stream)
    const accounts = createAccountService({
      db: database.db,
      config: ctx.config,
      clock: () => new Date(),
      mailer: createMailer(ctx.config, logger),
      logger,
    })
    await accounts.sendInvitation(user)
    const { raw } = await nextEml(known)
    expect(subject(raw)).toBe('Activate your DocFlow account')
    const text = textPart(raw)
    expect(text).toContain('Hello Ada,')
    expect(text).toContain('expires in 72 hours')
    const { url, email } = linkParams(text, '/validate')
    expect(url.origin + url.pathname).toBe('https://docs.example.com/validate')
    expect(email).toBe(user.email)
  })

  it('creates the outbox directory when it is missing', async () => {
    const dir = join(ctx.config.dataDir, 'elsewhere', 'outbox')
    const logs = createLogCapture()
    const mailer = createOutboxMailer(
      dir,
      'DocFlow <no-reply@localhost>',
      createLogger(ctx.config, logs.stream),
    )
    await mailer.send({ to: 'x@example.com', subject: 'Hi', text: 'Hello', html: '<p>Hello</p>' })
    expect((await readdir(dir)).filter((f) => f.endsWith('.eml'))).toHaveLength(1)
  })
})

describe('mail templates', () => {
  it('escapes names in the HTML and keeps the text readable', () => {
    const mail = invitationMail('en', {
      name: '<b>Eve</b> & co',
      link: 'https://x.example/validate?token=a&email=b',
    })
    expect(mail.html).toContain('Hello &lt;b&gt;Eve&lt;/b&gt; &amp; co,')
    expect(mail.html).toContain('href="https://x.example/validate?token=a&amp;email=b"')
    expect(mail.html).not.toContain('<b>Eve</b>')
    expect(mail.text).toContain('Hello <b>Eve</b> & co,')
    expect(mail.text).toContain('https://x.example/validate?token=a&email=b')
  })

  it('has both languages for both mails', () => {
    const link = 'https://x.example/l'
    expect(invitationMail('fr', { name: 'A', link }).subject).toBe('Activez votre compte DocFlow')
    expect(resetMail('en', { name: 'A', link }).subject).toBe('Reset your DocFlow password')
    expect(resetMail('fr', { name: 'A', link }).html).toContain('<html lang="fr">')
  })
})

/**
 * Outgoing mail. `SMTP_URL` set: nodemailer's SMTP transport. Otherwise every message is
 * rendered by nodemailer's stream transport and written as an RFC 822 `.eml` file under
 * `DATA_DIR/outbox/`, and its link is logged, so a laptop install can still activate accounts.
 * Tests inject the in-memory mailer and read what was sent.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import type { Logger } from 'pino'
import type { Config } from '../config.ts'

export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
  /** The action link of the message, logged by the outbox mailer (never by the SMTP one). */
  link?: string
}

export interface Mailer {
  send(message: MailMessage): Promise<void>
}

export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>,
  logger: Logger,
): Mailer {
  return config.smtpUrl
    ? createSmtpMailer(config.smtpUrl, config.mailFrom)
    : createOutboxMailer(join(config.dataDir, 'outbox'), config.mailFrom, logger)
}

function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl)
  return {
    async send({ to, subject, text, html }) {
      await transport.sendMail({ from, to, subject, text, html })
    },
  }
}

export function createOutboxMailer(dir: string, from: string, logger: Logger): Mailer {
  // RFC 822 wants CRLF line ends; buffer: true hands back the whole message.
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' })
  return {
    async send({ to, subject, text, html, link }) {
      const info = await transport.sendMail({ from, to, subject, text, html })
      await mkdir(dir, { recursive: true, mode: 0o700 })
      // Sortable by time, never colliding, and no part of it comes from user input.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`
      const file = join(dir, name)
      // The file holds a live token: readable by the server's user only. Written under another
      // name and renamed, so whoever watches the outbox never reads half a message.
      const partial = join(dir, `.${name}.partial`)
      await writeFile(partial, info.message as Buffer, { mode: 0o600 })
      await rename(partial, file)
      logger.info({ to, subject, file, link }, 'mail written to the outbox (SMTP_URL is not set)')
    },
  }
}

/** Keeps messages in memory: for tests, which read `messages` or wait for one. */
export function createMemoryMailer() {
  const messages: MailMessage[] = []
  const waiters: { match: (m: MailMessage) => boolean; resolve: (m: MailMessage) => void }[] = []
  return {
    messages,
    async send(message: MailMessage) {
      messages.push(message)
      for (const waiter of [...waiters]) {
        if (!waiter.match(message)) continue
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(message)
      }
    },
    /** The first message (already sent or to come) matching `match`; rejects after `timeoutMs`. */
    waitFor(match: (m: MailMessage) => boolean, timeoutMs = 5000): Promise<MailMessage> {
      const sent = messages.find(match)
      if (sent) return Promise.resolve(sent)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching mail was sent')), timeoutMs)
        waiters.push({
          match,
          resolve: (m) => {
            clearTimeout(timer)
            resolve(m)
          },
        })
      })
    },
  } satisfies Mailer & Record<string, unknown>
}

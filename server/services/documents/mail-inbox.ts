/**
 * The scanner addresses' SMTP listener, in the server's process (SMTP_IN_PORT; see config.ts).
 * The dialogue refuses what would store nothing: a sender over its rate (450 4.7.1, at MAIL
 * FROM), a recipient that is no company's scanner address (550 5.1.1), a disabled company's
 * address (550 5.2.1), a sender the company does not allow (550 5.7.1), a scanner address over
 * its own rate (450 4.7.1: a sender free to change its address still meets this one). Each
 * accepted message is received by `receiveMessage`; one that cannot be parsed is refused for
 * good (554 5.6.0), so a relay does not send it again. `close()` stops accepting, aborts the messages still in DATA
 * (answered 421 4.3.2 once their data ends: the sender retries, nothing is kept of them), waits
 * for the ones committing, then for the connections to end.
 */
import type { AddressInfo } from 'node:net'
import type { Readable } from 'node:stream'
import type { Logger } from 'pino'
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server'
import { cleanText, TEXT_LIMITS } from '../../../contract/index.ts'
import type { SmtpInConfig } from '../../config.ts'
import type { AppDatabase } from '../../db/client.ts'
import type { JobQueue } from '../../jobs/queue.ts'
import { createLoginRateLimiter } from '../rate-limit.ts'
import type { FileStorage } from '../storage/index.ts'
import { Reception, receiveMessage } from './mail-message.ts'
import { findScanner, type Scanner, senderAllowed } from './mail-scanners.ts'

export interface MailInboxDeps {
  db: AppDatabase
  storage: FileStorage
  queue: JobQueue
  logger: Logger
  clock?: () => Date
  config: SmtpInConfig
  /** Each attachment's limit (MAX_UPLOAD_MB, as uploads). */
  maxAttachmentBytes: number
  /** How long `close()` lets connections finish before they are cut (default 5 s). */
  closeTimeoutMs?: number
}

/** Counters since start-up (also written to the log with each event they count). */
interface MailInboxStats {
  messages: number
  documents: number
  rejected: number
  duplicates: number
  aborted: number
  refusedRecipients: number
  refusedSenders: number
  rateLimited: number
}

export interface MailInbox {
  readonly port: number
  readonly stats: MailInboxStats
  /** Messages now being received (DATA started, not yet answered). */
  readonly receiving: number
  close(): Promise<void>
}

const smtpError = (responseCode: number, message: string) =>
  Object.assign(new Error(message), { responseCode })

/**
 * Messages per key over a sliding minute: each call that is not refused counts one. Answers
 * whether this one is refused, and for how long.
 */
function perMinute(clock: () => Date, max: number) {
  const limiter = createLoginRateLimiter({
    clock,
    windowMs: 60_000,
    maxPerAccount: max,
    maxPerClient: max,
    accountAlarm: Number.MAX_SAFE_INTEGER,
  })
  return (key: string) => {
    const decision = limiter.check(key, key)
    if (!decision.limited) limiter.recordFailure(key, key)
    return decision
  }
}

/** The envelope sender as it is stored and shown: cleaned like a subject (no bidi override). */
const senderOf = (session: SMTPServerSession) =>
  session.envelope.mailFrom
    ? cleanText(session.envelope.mailFrom.address.toLowerCase(), { max: TEXT_LIMITS.sender })
    : ''

/**
 * Checks a RCPT TO: a known and enabled scanner address, a sender it allows, within its rate; the
 * accepted scanners are kept with the session for the message that follows.
 */
async function acceptRecipient(
  inbox: {
    db: MailInboxDeps['db']
    logger: MailInboxDeps['logger']
    config: MailInboxDeps['config']
    stats: MailInboxStats
    recipientRate: ReturnType<typeof perMinute>
    scannersOf: WeakMap<SMTPServerSession, Map<string, Scanner>>
  },
  address: SMTPServerAddress,
  session: SMTPServerSession,
): Promise<void> {
  const { db, logger, config, stats, recipientRate, scannersOf } = inbox
  if (session.envelope.rcptTo.length >= config.maxRecipients)
    throw smtpError(452, '4.5.3 Too many recipients')
  const scanner = await findScanner(db, address.address)
  if (!scanner) {
    stats.refusedRecipients += 1
    throw smtpError(550, '5.1.1 No such mailbox')
  }
  if (!scanner.enabled) {
    stats.refusedRecipients += 1
    throw smtpError(550, '5.2.1 Mailbox disabled')
  }
  const sender = session.envelope.mailFrom ? session.envelope.mailFrom.address : ''
  if (!senderAllowed(scanner.allowedSenders, sender)) {
    stats.refusedSenders += 1
    logger.warn(
      { companyId: scanner.companyId, sender: senderOf(session), refusedSenders: stats.refusedSenders },
      'mail sender not allowed',
    )
    throw smtpError(550, '5.7.1 Sender not allowed for this address')
  }
  const limit = recipientRate(scanner.address)
  if (limit.limited) {
    stats.rateLimited += 1
    logger.warn(
      { companyId: scanner.companyId, recipient: scanner.address, rateLimited: stats.rateLimited },
      'mail recipient rate-limited',
    )
    throw smtpError(
      450,
      `4.7.1 Too many messages for this address, try again in ${limit.retryAfterSeconds} s`,
    )
  }
  const known = scannersOf.get(session) ?? new Map<string, Scanner>()
  known.set(scanner.address, scanner)
  scannersOf.set(session, known)
}

async function listenOn(
  server: SMTPServer,
  config: MailInboxDeps['config'],
  logger: MailInboxDeps['logger'],
) {
  server.on('error', (error) => logger.warn({ err: error }, 'smtp listener error'))
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject)
    server.listen(config.port, config.host, () => {
      server.server.off('error', reject)
      resolve()
    })
  })
}

const noStats = (): MailInboxStats => ({
  messages: 0,
  documents: 0,
  rejected: 0,
  duplicates: 0,
  aborted: 0,
  refusedRecipients: 0,
  refusedSenders: 0,
  rateLimited: 0,
})

export async function startMailInbox(deps: MailInboxDeps): Promise<MailInbox> {
  const { db, logger, config } = deps
  const clock = deps.clock ?? (() => new Date())
  const stats = noStats()
  // Messages per sender (each MAIL FROM) and per scanner address (each RCPT TO it accepts).
  const senderRate = perMinute(clock, config.senderRatePerMinute)
  const recipientRate = perMinute(clock, config.recipientRatePerMinute)
  const scannersOf = new WeakMap<SMTPServerSession, Map<string, Scanner>>()
  const receptions = new Set<{ reception: Reception; done: Promise<unknown> }>()
  let closing = false

  function onMailFrom(
    address: SMTPServerAddress,
    _session: SMTPServerSession,
    callback: (e?: Error) => void,
  ) {
    const sender = address.address.toLowerCase()
    const limit = senderRate(sender)
    if (limit.limited) {
      stats.rateLimited += 1
      logger.warn(
        { sender: cleanText(sender, { max: TEXT_LIMITS.sender }), rateLimited: stats.rateLimited },
        'mail sender rate-limited',
      )
      return callback(smtpError(450, `4.7.1 Too many messages, try again in ${limit.retryAfterSeconds} s`))
    }
    callback()
  }

  const checkRecipient = (address: SMTPServerAddress, session: SMTPServerSession) =>
    acceptRecipient({ db, logger, config, stats, recipientRate, scannersOf }, address, session)

  async function receive(stream: Readable, session: SMTPServerSession, reception: Reception) {
    const known = scannersOf.get(session) ?? new Map<string, Scanner>()
    const scanners = session.envelope.rcptTo.flatMap((r) => known.get(r.address.toLowerCase()) ?? [])
    const sender = senderOf(session)
    // Past the size limit the message is refused (smtp-server answers 552): store no more of it.
    stream.on('data', () => {
      if ((stream as Readable & { sizeExceeded?: boolean }).sizeExceeded)
        reception.abort(smtpError(552, '5.3.4 Message too large'))
    })
    const lost = () => reception.abort(smtpError(421, '4.4.2 Connection lost'))
    stream.on('error', lost)
    stream.on('close', () => {
      if (!stream.readableEnded) lost()
    })
    const outcome = await receiveMessage(
      {
        db,
        storage: deps.storage,
        queue: deps.queue,
        clock,
        maxAttachmentBytes: deps.maxAttachmentBytes,
        maxAttachments: config.maxAttachments,
      },
      reception,
      { source: stream, sender, scanners },
    )
    stats.messages += 1
    stats.documents += outcome.documents
    stats.rejected += outcome.rejected
    stats.duplicates += outcome.duplicates
    logger.info({ sender, recipients: scanners.length, ...outcome }, 'mail received')
  }

  function onData(stream: Readable, session: SMTPServerSession, callback: (e?: Error | null) => void) {
    const reception = new Reception()
    if (closing) reception.abort(smtpError(421, '4.3.2 Shutting down, try again later'))
    const done = receive(stream, session, reception).then(
      () => callback(),
      (error: Error & { responseCode?: number }) => {
        stats.aborted += 1
        logger.warn({ err: error }, 'mail not received')
        callback(error.responseCode ? error : smtpError(451, '4.3.0 Temporary failure, try again later'))
      },
    )
    const entry = { reception, done }
    receptions.add(entry)
    done.finally(() => receptions.delete(entry))
  }

  const server = new SMTPServer({
    secure: false,
    ...(config.tls ? { key: config.tls.key, cert: config.tls.cert } : {}),
    disabledCommands: config.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    authOptional: true,
    size: config.maxMessageBytes,
    logger: false,
    closeTimeout: deps.closeTimeoutMs ?? 5000,
    onMailFrom,
    onRcptTo: (address, session, callback) =>
      checkRecipient(address, session).then(
        () => callback(),
        (error: Error) => callback(error),
      ),
    onData,
  })
  await listenOn(server, config, logger)
  const port = (server.server.address() as AddressInfo).port
  logger.info({ host: config.host, port, starttls: config.tls !== null }, 'smtp listening')
  return {
    port,
    stats,
    get receiving() {
      return receptions.size
    },
    async close() {
      closing = true
      for (const { reception } of receptions)
        reception.abort(smtpError(421, '4.3.2 Shutting down, try again later'))
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await Promise.allSettled([...receptions].map((r) => r.done))
    },
  }
}

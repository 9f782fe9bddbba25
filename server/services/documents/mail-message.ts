/**
 * One message received on scanner addresses: its attachments, read as streams by mailparser, go
 * through `storeFile` one after the other (never the whole message in memory); once the message
 * has ended, each recipient's documents and refused attachments are committed by
 * `commitIngested`, after claiming the Message-ID for that recipient. Until that commit, an abort
 * (shutdown, lost connection, message too large) removes every stored file: nothing half stored.
 * A message the parser gives up on (too deeply nested, a header too large) is refused for good
 * (554 5.6.0): sent again, it would fail the same way. Attachments past the limit are counted, and
 * each company gets one `rejected` row that says how many were not filed.
 */
import { PassThrough, type Readable } from 'node:stream'
import { type AttachmentStream, MailParser } from 'mailparser'
import {
  cleanText,
  contractMessages,
  FINANCIAL_KIND,
  fillMessage,
  TEXT_LIMITS,
} from '../../../contract/index.ts'
import type { AppDatabase } from '../../db/client.ts'
import { mailMessages } from '../../db/schema.ts'
import { HttpError } from '../../http/errors.ts'
import type { JobQueue } from '../../jobs/queue.ts'
import type { FileStorage } from '../storage/index.ts'
import {
  acceptsType,
  cleanName,
  commitIngested,
  type Executor,
  type StoredFile,
  storeFile,
} from './ingest.ts'
import type { Scanner } from './mail-scanners.ts'

export interface MessageDeps {
  db: AppDatabase
  storage: FileStorage
  queue: JobQueue
  clock: () => Date
  maxAttachmentBytes: number
  maxAttachments: number
}

/** What became of a message, for the listener's counters and log. */
export interface MessageOutcome {
  documents: number
  rejected: number
  duplicates: number
}

/** A message being received: `abort` before its commit leaves nothing behind. */
export class Reception {
  aborted: Error | null = null
  committing = false
  /** Stored keys not yet committed: deleted if the message does not make it. */
  readonly keys = new Set<string>()
  private gate: PassThrough | null = null

  abort(reason: Error) {
    if (this.committing || this.aborted) return
    this.aborted = reason
    this.gate?.destroy(reason)
  }

  /** The attachment's bytes through a gate `abort` can close. */
  through(content: Readable): PassThrough {
    const gate = new PassThrough()
    gate.on('error', () => {})
    content.on('error', (error) => gate.destroy(error))
    content.pipe(gate)
    this.gate = gate
    if (this.aborted) gate.destroy(this.aborted)
    return gate
  }

  release(content: Readable) {
    if (this.gate) content.unpipe(this.gate)
    this.gate = null
    // Whatever is left of the attachment (refused, aborted) is read and dropped.
    content.resume()
  }
}

type Refusal = { name: string; reason: string }
/** A recipient's files and refusals, and how many attachments past the limit it did not get. */
type PerRecipient = { files: StoredFile[]; rejected: Refusal[]; dropped: number }

/** Why a stored attachment cannot be a document of this kind, or null when it can. */
function refusalFor(scanner: Scanner, file: StoredFile): string | null {
  if (file.size === 0) return contractMessages.fileEmpty
  if (!acceptsType(scanner.kind, file.sniffed)) return FINANCIAL_KIND[scanner.kind].refusal
  return null
}

/** Stores one attachment once, then gives each recipient accepting it a file of its own. */
async function takeAttachment(
  deps: MessageDeps,
  reception: Reception,
  attachment: AttachmentStream,
  recipients: Map<Scanner, PerRecipient>,
): Promise<void> {
  const name = cleanName(attachment.filename ?? '', 'attachment')
  const content = attachment.content as Readable
  const refuseAll = (reason: string) => {
    for (const entry of recipients.values()) entry.rejected.push({ name, reason })
  }
  const count = Math.max(...[...recipients.values()].map((e) => e.files.length + e.rejected.length), 0)
  if (count >= deps.maxAttachments) {
    for (const entry of recipients.values()) entry.dropped += 1
    return
  }
  let stored: StoredFile
  try {
    stored = await storeFile(deps.storage, reception.through(content), {
      maxBytes: deps.maxAttachmentBytes,
      name,
    })
  } catch (error) {
    if (reception.aborted) return
    // A refusal of the file (too large) is the sender's; anything else (the storage) is a
    // temporary failure of the whole message (451: the sender retries).
    if (!(error instanceof HttpError)) throw error
    refuseAll(error.status === 413 ? contractMessages.attachmentTooLarge : error.message)
    return
  }
  reception.keys.add(stored.key)
  let first = true
  for (const [scanner, entry] of recipients) {
    const reason = refusalFor(scanner, stored)
    if (reason) {
      entry.rejected.push({ name: stored.originalName, reason })
      continue
    }
    const file = first ? stored : await copyStored(deps.storage, stored, reception)
    first = false
    entry.files.push(file)
  }
  if (first) {
    reception.keys.delete(stored.key)
    await deps.storage.delete(stored.key)
  }
}

async function copyStored(storage: FileStorage, file: StoredFile, reception: Reception): Promise<StoredFile> {
  const copy = await storeFile(storage, await storage.get(file.key), {
    maxBytes: Number.MAX_SAFE_INTEGER,
    name: file.originalName,
  })
  reception.keys.add(copy.key)
  return copy
}

interface Headers {
  subject: string | null
  messageId: string | null
}

/** What a message that cannot be parsed is answered: permanent, it would fail again. */
const unparseable = (error: Error) =>
  Object.assign(new Error(`5.6.0 The message cannot be parsed (${error.message.slice(0, 100)})`), {
    responseCode: 554,
  })

/** A header's text as it is stored: cleaned by the text rule, at most `max` characters; null when empty. */
const headerText = (value: unknown, max: number) =>
  typeof value === 'string' ? cleanText(value, { max }) || null : null

/**
 * Parses the message, handing each attachment to `onAttachment` in turn; resolves with the
 * headers (cleaned). Rejects with the abort's reason, or a 554 refusal when the parser fails.
 */
function parseMessage(
  source: Readable,
  reception: Reception,
  onAttachment: (attachment: AttachmentStream) => Promise<void>,
): Promise<Headers> {
  return new Promise((resolve, reject) => {
    const parser = new MailParser({ skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true })
    const headers: Headers = { subject: null, messageId: null }
    let chain = Promise.resolve()
    parser.on('headers', (map: Map<string, unknown>) => {
      headers.subject = headerText(map.get('subject'), TEXT_LIMITS.subject)
      headers.messageId = headerText(map.get('message-id'), TEXT_LIMITS.messageId)
    })
    parser.on('data', (data: AttachmentStream | { type: 'text' }) => {
      if (data.type !== 'attachment') return
      const attachment = data as AttachmentStream
      // Images embedded in the HTML body (signature logos, cid:) are not sent documents: skipped.
      if (attachment.related) {
        ;(attachment.content as Readable).resume()
        ;(attachment.release as () => void)()
        return
      }
      chain = chain
        .then(() => (reception.aborted ? undefined : onAttachment(attachment)))
        .catch((error: Error) => reception.abort(error))
        .finally(() => {
          reception.release(attachment.content as Readable)
          ;(attachment.release as () => void)()
        })
    })
    parser.on('end', () => {
      chain.then(() => resolve(headers))
    })
    parser.on('error', (error: Error) => {
      // An earlier abort (shutdown, size, lost connection) keeps its own answer.
      reception.abort(unparseable(error))
      source.unpipe(parser)
      source.resume()
      chain.then(() => reject(reception.aborted))
    })
    // A connection lost in the middle: the message never ends, the parser neither.
    source.on('close', () => {
      if (source.readableEnded) return
      reception.abort(new Error('The message was interrupted'))
      chain.then(() => reject(reception.aborted))
    })
    source.pipe(parser)
  })
}

/**
 * The rows of one recipient: its files, its refusals, one row for the attachments past the limit
 * (`countDropped`: the first recipient of its company only), or one refusal for a message without
 * any attachment. Rows about the whole message are named after its subject.
 */
function recipientIngestion(
  scanner: Scanner,
  entry: PerRecipient,
  context: { sender: string; headers: Headers; now: Date; countDropped: boolean },
) {
  const { sender, headers, now } = context
  const name = headers.subject ?? '(no subject)'
  const rejected =
    entry.files.length + entry.rejected.length + entry.dropped === 0
      ? [{ name, reason: contractMessages.messageWithoutAttachment }]
      : entry.rejected
  if (entry.dropped > 0 && context.countDropped)
    rejected.push({ name, reason: fillMessage('tooManyAttachments', { count: entry.dropped }) })
  const messageId = headers.messageId
  return {
    target: {
      companyId: scanner.companyId,
      kind: scanner.kind,
      category: FINANCIAL_KIND[scanner.kind].category,
    },
    origin: {
      source: 'email' as const,
      sender,
      subject: headers.subject,
      messageId,
    },
    files: entry.files,
    rejected,
    now,
    claim: messageId
      ? async (tx: Executor) => {
          const claimed = await tx
            .insert(mailMessages)
            .values({ companyId: scanner.companyId, recipient: scanner.address, messageId, createdAt: now })
            .onConflictDoNothing()
            .returning({ id: mailMessages.id })
          return claimed.length > 0
        }
      : undefined,
  }
}

/**
 * Receives the message in `source` for `scanners` (the accepted recipients). Throws the abort's
 * reason when it was aborted before its commit; every stored file is then gone.
 */
export async function receiveMessage(
  deps: MessageDeps,
  reception: Reception,
  message: { source: Readable; sender: string; scanners: Scanner[] },
): Promise<MessageOutcome> {
  const recipients = new Map<Scanner, PerRecipient>(
    message.scanners.map((s) => [s, { files: [], rejected: [], dropped: 0 }]),
  )
  const outcome: MessageOutcome = { documents: 0, rejected: 0, duplicates: 0 }
  try {
    const headers = await parseMessage(message.source, reception, (attachment) =>
      takeAttachment(deps, reception, attachment, recipients),
    )
    if (reception.aborted) throw reception.aborted
    reception.committing = true
    const now = deps.clock()
    const counted = new Set<number>()
    for (const [scanner, entry] of recipients) {
      const countDropped = !counted.has(scanner.companyId)
      counted.add(scanner.companyId)
      const context = { sender: message.sender, headers, now, countDropped }
      const ingestion = recipientIngestion(scanner, entry, context)
      const created = await commitIngested(deps.db, deps.queue, ingestion)
      if (created === null) {
        outcome.duplicates += 1
        continue
      }
      for (const file of entry.files) reception.keys.delete(file.key)
      outcome.documents += created.length
      outcome.rejected += ingestion.rejected.length
    }
    return outcome
  } finally {
    await Promise.all([...reception.keys].map((key) => deps.storage.delete(key).catch(() => {})))
  }
}

/** Building blocks of the scanner inbox tests: a listener on a free port, a sender, the rows. */
import { eq, sql } from 'drizzle-orm'
import nodemailer from 'nodemailer'
import type Mail from 'nodemailer/lib/mailer'
import type { Config } from '../../server/config.ts'
import type { AppDatabase } from '../../server/db/client.ts'
import { companies, documents, logs } from '../../server/db/schema.ts'
import type { JobQueue } from '../../server/jobs/queue.ts'
import { PROCESS_QUEUE } from '../../server/jobs/queue.ts'
import { createLogger } from '../../server/logger.ts'
import { dashboardRows } from '../../server/services/documents/lifecycle/document-service.ts'
import { startMailInbox } from '../../server/services/documents/mail-inbox.ts'
import type { FileStorage } from '../../server/services/storage/index.ts'
import { createLogCapture } from './helpers.ts'

export async function startTestInbox(
  deps: { db: AppDatabase; storage: FileStorage; queue: JobQueue; config: Config },
  overrides: Partial<Config['smtpIn']> = {},
) {
  const logs = createLogCapture()
  const inbox = await startMailInbox({
    db: deps.db,
    storage: deps.storage,
    queue: deps.queue,
    logger: createLogger(deps.config, logs.stream),
    config: {
      ...deps.config.smtpIn,
      port: 0,
      host: '127.0.0.1',
      senderRatePerMinute: 1000,
      recipientRatePerMinute: 1000,
      ...overrides,
    },
    maxAttachmentBytes: deps.config.maxUploadMb * 1024 * 1024,
    closeTimeoutMs: 2000,
  })
  // What the listener logged, for tests that look for errors.
  return Object.assign(inbox, { logs: logs.lines })
}

/** Sends one message over a real SMTP session (no TLS: the listener offers none without a key). */
export function sendMail(port: number, message: Mail.Options, tls: 'ignore' | 'require' = 'ignore') {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ...(tls === 'ignore' ? { ignoreTLS: true } : { requireTLS: true, tls: { rejectUnauthorized: false } }),
  })
  return transport.sendMail(message).finally(() => transport.close())
}

/** The error a refused send rejects with (nodemailer's `response` holds the server's answer). */
export async function refusal(
  sending: Promise<unknown>,
): Promise<{ response?: string; responseCode?: number }> {
  try {
    await sending
  } catch (error) {
    return error as { response?: string; responseCode?: number }
  }
  throw new Error('the message was accepted')
}

export async function setScanners(
  db: AppDatabase,
  id: number,
  values: { invoiceScanner?: string; expenseScanner?: string; allowedSenders?: string[] },
) {
  await db.update(companies).set(values).where(eq(companies.id, id))
}

export const logsOf = (db: AppDatabase, companyId: number) =>
  dashboardRows(db).where(eq(logs.companyId, companyId)).orderBy(logs.id)
export const documentsOf = (db: AppDatabase, companyId: number) =>
  db.select().from(documents).where(eq(documents.companyId, companyId)).orderBy(documents.id)

/** The processing jobs queued for these documents. */
export async function jobsFor(db: AppDatabase, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0
  const result = await db.execute(
    sql`select count(*)::int as n from pgboss.job where name = ${PROCESS_QUEUE} and (data->>'documentId')::int in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  )
  const rows = (result as unknown as { rows: { n: number }[] }).rows
  return rows[0]!.n
}

import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MailInbox } from '../../server/services/documents/mail-inbox.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import {
  corpusFile,
  createPipelineApp,
  insertCompany,
  memberOf,
  multipart,
  waitFor,
} from './documents-support.ts'
import { jsonBody } from './helpers.ts'
import {
  documentsOf,
  jobsFor,
  logsOf,
  refusal,
  sendMail,
  setScanners,
  startTestInbox,
} from './mail-support.ts'

let database: TestDatabase
let root: string
let ctx: Awaited<ReturnType<typeof createPipelineApp>>
let inbox: MailInbox
let pdfA: Buffer
let pdfB: Buffer
let png: Buffer

const companyIds: Record<string, number> = {}
const to = (name: string) => `${name}@scan.test`

beforeAll(async () => {
  database = await createTestDatabase()
  root = await mkdtemp(join(tmpdir(), 'docflow-mail-'))
  ctx = await createPipelineApp(database.db, root, { env: { MAX_UPLOAD_MB: '1' } })
  const names = [
    'alpha',
    'beta',
    'gamma',
    'delta',
    'epsilon',
    'zeta',
    'eta',
    'theta',
    'iota',
    'kappa',
    'lambda',
    'mu',
  ]
  for (const name of names) {
    const company = await insertCompany(database.db, name)
    companyIds[name] = company.id
    await setScanners(database.db, company.id, {
      invoiceScanner: to(`${name}-invoices`),
      expenseScanner: to(`${name}-expenses`),
    })
  }
  await setScanners(database.db, companyIds.zeta!, { allowedSenders: ['boss@zeta.test', '@trusted.test'] })
  inbox = await startTestInbox({ ...ctx, db: database.db })
  pdfA = await corpusFile('0002-facture.pdf')
  pdfB = await corpusFile('0004-ticket.pdf')
  png = await corpusFile('0032-scan.png')
})
afterAll(async () => {
  await inbox?.close()
  await ctx?.close()
  await database?.close()
  await rm(root, { recursive: true, force: true })
})

/** Every committed document's file is in the storage, and nothing else is (no partial file). */
async function expectStorageHoldsExactly(companyIdsToCheck: number[]) {
  const keys: string[] = []
  for (const id of companyIdsToCheck)
    keys.push(...(await documentsOf(database.db, id)).map((d) => d.storageKey))
  const files = await ctx.storedFiles()
  expect(files.filter((f) => f.endsWith('.part'))).toEqual([])
  for (const key of keys) expect(files.some((f) => f.endsWith(key))).toBe(true)
  return { keys, files }
}

describe('the scanner inbox', () => {
  it('turns an invoice mail with two PDFs and a PNG into three documents with rows, files and jobs', async () => {
    const info = await sendMail(inbox.port, {
      from: 'supplier@vendor.test',
      to: to('alpha-invoices'),
      subject: 'Invoices of March',
      messageId: '<march-1@vendor.test>',
      text: 'Please find our invoices attached.',
      attachments: [
        { filename: 'facture-1.pdf', content: pdfA },
        { filename: 'ticket-2.pdf', content: pdfB },
        { filename: 'scan.png', content: png },
      ],
    })
    expect(info.accepted).toEqual([to('alpha-invoices')])
    const docs = await documentsOf(database.db, companyIds.alpha!)
    expect(docs.map((d) => [d.kind, d.originalName, d.contentType, d.status])).toEqual([
      ['invoice', 'facture-1.pdf', 'application/pdf', 'PROCESSING'],
      ['invoice', 'ticket-2.pdf', 'application/pdf', 'PROCESSING'],
      ['invoice', 'scan.png', 'image/png', 'PROCESSING'],
    ])
    expect(docs.map((d) => d.sizeBytes)).toEqual([pdfA.length, pdfB.length, png.length])
    const rows = await logsOf(database.db, companyIds.alpha!)
    expect(rows.map((r) => [r.name, r.type, r.status, r.source, r.sender, r.subject, r.messageId])).toEqual(
      ['facture-1.pdf', 'ticket-2.pdf', 'scan.png'].map((name) => [
        name,
        'Invoice',
        'processing',
        'email',
        'supplier@vendor.test',
        'Invoices of March',
        '<march-1@vendor.test>',
      ]),
    )
    expect(rows.map((r) => r.documentId)).toEqual(docs.map((d) => d.id))
    expect(
      await jobsFor(
        database.db,
        docs.map((d) => d.id),
      ),
    ).toBe(3)
    await expectStorageHoldsExactly([companyIds.alpha!])
    expect(inbox.stats.documents).toBeGreaterThanOrEqual(3)
  })

  it('lets the documents of a mail reach their final status like uploads', { timeout: 90_000 }, async () => {
    await ctx.startWorkers()
    const finished = await waitFor(async () => {
      const docs = await documentsOf(database.db, companyIds.alpha!)
      return docs.every((d) => d.status !== 'PROCESSING') && docs
    }, 60_000)
    // The invoice is read like an uploaded one; each row follows its document's final status.
    expect(finished[0]).toMatchObject({ status: 'COMPLETED', invoiceNumber: expect.any(String) })
    const rows = await logsOf(database.db, companyIds.alpha!)
    expect(rows.map((r) => r.status)).toEqual(finished.map((d) => d.status.toLowerCase()))
  })

  it('refuses an unknown recipient during RCPT TO (550 5.1.1) and stores nothing', async () => {
    const filesBefore = await ctx.storedFiles()
    const error = await refusal(
      sendMail(inbox.port, {
        from: 'someone@vendor.test',
        to: 'nobody@scan.test',
        subject: 'Lost',
        attachments: [{ filename: 'a.pdf', content: pdfA }],
      }),
    )
    expect(error.response).toMatch(/^550 5\.1\.1/)
    expect(await ctx.storedFiles()).toEqual(filesBefore)
    // With a known recipient beside it, the unknown one is refused and the known one served.
    const info = await sendMail(inbox.port, {
      from: 'someone@vendor.test',
      to: ['nobody@scan.test', to('beta-expenses')],
      subject: 'Receipt',
      attachments: [{ filename: 'receipt.pdf', content: pdfB }],
    })
    expect(info.rejected).toEqual(['nobody@scan.test'])
    expect((await documentsOf(database.db, companyIds.beta!)).map((d) => [d.kind, d.originalName])).toEqual([
      ['expense', 'receipt.pdf'],
    ])
  })

  it('keeps the good attachments of a mixed mail and rejects the others, each row named after its file', async () => {
    await sendMail(inbox.port, {
      from: 'scanner@office.test',
      to: to('gamma-expenses'),
      subject: 'Scans',
      // The signature's logo, embedded in the HTML, is no document.
      html: '<p>Scans</p><img src="cid:logo@office">',
      attachments: [
        { filename: 'logo.png', content: png, cid: 'logo@office' },
        { filename: 'receipt.pdf', content: pdfB },
        { filename: 'photo.png', content: png },
        { filename: 'notes.txt', content: 'not a document' },
      ],
    })
    const rows = await logsOf(database.db, companyIds.gamma!)
    expect(rows.map((r) => [r.name, r.status, r.reason])).toEqual([
      ['receipt.pdf', 'processing', null],
      ['photo.png', 'rejected', 'Only PDF files are supported for expenses'],
      ['notes.txt', 'rejected', 'Only PDF files are supported for expenses'],
    ])
    expect(rows.every((r) => r.source === 'email' && r.type === 'Expense')).toBe(true)
    const docs = await documentsOf(database.db, companyIds.gamma!)
    expect(docs.map((d) => d.originalName)).toEqual(['receipt.pdf'])
    expect(rows[0]!.documentId).toBe(docs[0]!.id)
    expect(rows.slice(1).map((r) => r.documentId)).toEqual([null, null])
    await expectStorageHoldsExactly([companyIds.gamma!])
  })

  it('rejects a 0-byte and an oversized attachment, and a mail without any attachment', async () => {
    const filesBefore = (await ctx.storedFiles()).length
    await sendMail(inbox.port, {
      from: 'scanner@office.test',
      to: to('delta-invoices'),
      subject: 'Two bad ones',
      attachments: [
        { filename: 'empty.pdf', content: Buffer.alloc(0) },
        // 1.5 MB past MAX_UPLOAD_MB=1, starting like a PDF.
        {
          filename: 'huge.pdf',
          content: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(1_500_000, 97)]),
        },
      ],
    })
    await sendMail(inbox.port, {
      from: 'scanner@office.test',
      to: to('delta-invoices'),
      subject: 'Nothing attached 3/2026',
      text: 'hi',
    })
    const rows = await logsOf(database.db, companyIds.delta!)
    expect(rows.map((r) => [r.name, r.status, r.reason])).toEqual([
      ['empty.pdf', 'rejected', 'The file is empty'],
      ['huge.pdf', 'rejected', 'The file is larger than the size limit'],
      ['Nothing attached 3/2026', 'rejected', 'The message has no attachment'],
    ])
    expect(await documentsOf(database.db, companyIds.delta!)).toEqual([])
    expect((await ctx.storedFiles()).length).toBe(filesBefore)
  })

  it('creates the documents of a message delivered twice (same Message-ID and recipient) once', async () => {
    const message = {
      from: 'supplier@vendor.test',
      to: to('epsilon-invoices'),
      subject: 'Invoice 42',
      messageId: '<invoice-42@vendor.test>',
      attachments: [{ filename: 'invoice-42.pdf', content: pdfA }],
    }
    const first = await sendMail(inbox.port, message)
    const second = await sendMail(inbox.port, message)
    expect(first.response).toMatch(/^250/)
    expect(second.response).toMatch(/^250/)
    expect((await documentsOf(database.db, companyIds.epsilon!)).map((d) => d.originalName)).toEqual([
      'invoice-42.pdf',
    ])
    expect((await logsOf(database.db, companyIds.epsilon!)).length).toBe(1)
    await expectStorageHoldsExactly([companyIds.epsilon!])
    // The same Message-ID to the company's other address is another delivery.
    await sendMail(inbox.port, { ...message, to: to('epsilon-expenses') })
    expect((await documentsOf(database.db, companyIds.epsilon!)).map((d) => d.kind)).toEqual([
      'invoice',
      'expense',
    ])
  })

  it('takes the allowed senders from the administration API (allowed_senders), normalised', async () => {
    const admin = await memberOf(database.db, ctx.app, null, 'SAAS_ADMIN')
    const put = (allowed: unknown) =>
      admin.jar.request(ctx.app, `/api/admin/company/${companyIds.iota}`, {
        ...jsonBody({ allowed_senders: allowed }),
        method: 'PUT',
      })
    const res = await put([' Boss@Iota.test ', '@Trusted.test', 'boss@iota.test'])
    expect(res.status).toBe(200)
    expect((await res.json()).allowed_senders).toEqual(['boss@iota.test', '@trusted.test'])
    const bad = await put(['not an address'])
    expect(bad.status).toBe(400)
    expect((await bad.json()).detail).toEqual([
      expect.objectContaining({ message: 'Enter an e-mail address or an @domain' }),
    ])
    const cleared = await put(null)
    expect((await cleared.json()).allowed_senders).toEqual([])
  })

  it('refuses a sender the company does not allow (550 5.7.1), counted, and takes the allowed ones', async () => {
    const refusedBefore = inbox.stats.refusedSenders
    const error = await refusal(
      sendMail(inbox.port, {
        from: 'stranger@elsewhere.test',
        to: to('zeta-invoices'),
        subject: 'Pay me',
        attachments: [{ filename: 'fake.pdf', content: pdfA }],
      }),
    )
    expect(error.response).toMatch(/^550 5\.7\.1/)
    expect(inbox.stats.refusedSenders).toBe(refusedBefore + 1)
    for (const from of ['boss@zeta.test', 'copier@trusted.test'])
      await sendMail(inbox.port, {
        from,
        to: to('zeta-invoices'),
        subject: `From ${from}`,
        attachments: [{ filename: 'ok.pdf', content: pdfA }],
      })
    expect((await logsOf(database.db, companyIds.zeta!)).map((r) => r.sender)).toEqual([
      'boss@zeta.test',
      'copier@trusted.test',
    ])
  })

  it('answers the logs API with the source, sender, subject and Message-ID of each row', async () => {
    const member = await memberOf(database.db, ctx.app, companyIds.eta!)
    await sendMail(inbox.port, {
      from: 'Supplier <supplier@vendor.test>',
      to: to('eta-invoices'),
      subject: 'Invoice 7',
      messageId: '<invoice-7@vendor.test>',
      attachments: [{ filename: 'invoice-7.pdf', content: pdfA }],
    })
    const upload = await member.jar.request(
      ctx.app,
      '/api/documents/upload',
      multipart(
        { documentType: 'invoice', company_id: String(companyIds.eta) },
        { name: 'uploaded.pdf', data: pdfA },
      ),
    )
    expect(upload.status).toBe(201)
    const res = await member.jar.request(ctx.app, `/api/logs?company_id=${companyIds.eta}&sort_order=asc`)
    const body = (await res.json()) as Record<string, unknown>[]
    expect(body.map((r) => [r.name, r.source, r.sender, r.subject, r.message_id, r.reason])).toEqual([
      ['invoice-7.pdf', 'email', 'supplier@vendor.test', 'Invoice 7', '<invoice-7@vendor.test>', null],
      ['uploaded.pdf', 'upload', null, null, null, null],
    ])
  })

  it('answers 421 to a message in DATA when the listener shuts down, and keeps nothing of it', async () => {
    const closing = await startTestInbox({ ...ctx, db: database.db })
    const filesBefore = await ctx.storedFiles()
    let release = () => {}
    // Large enough to get past the buffers between nodemailer and mailparser.
    const padded = (pdf: Buffer) => Buffer.concat([pdf, Buffer.alloc(300_000, 10)])
    const cut = new Readable({ read() {} })
    cut.push(padded(pdfB))
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    held.then(() => {
      cut.push(Buffer.alloc(100_000, 10))
      cut.push(null)
    })
    const sending = refusal(
      sendMail(closing.port, {
        from: 'scanner@office.test',
        to: to('theta-invoices'),
        subject: 'Cut by a shutdown',
        attachments: [
          { filename: 'whole.pdf', content: padded(pdfA) },
          { filename: 'cut.pdf', content: cut },
        ],
      }),
    )
    // The first attachment is stored, the second one on its way: then the shutdown starts.
    await waitFor(async () => {
      const files = await ctx.storedFiles()
      return closing.receiving === 1 && files.some((f) => !filesBefore.includes(f) && !f.endsWith('.part'))
    })
    const closed = closing.close()
    release()
    const error = await sending
    expect(error.responseCode).toBe(421)
    await closed
    expect(await documentsOf(database.db, companyIds.theta!)).toEqual([])
    expect(await logsOf(database.db, companyIds.theta!)).toEqual([])
    expect(await ctx.storedFiles()).toEqual(filesBefore)
    expect(closing.receiving).toBe(0)
  })

  it('rate-limits a sender (450 4.7.1) and still takes other senders', async () => {
    const limited = await startTestInbox({ ...ctx, db: database.db }, { senderRatePerMinute: 2 })
    try {
      const message = (from: string, subject: string) => ({
        from,
        to: to('iota-expenses'),
        subject,
        attachments: [{ filename: `${subject}.pdf`, content: pdfB }],
      })
      await sendMail(limited.port, message('busy@office.test', 'one'))
      await sendMail(limited.port, message('busy@office.test', 'two'))
      const error = await refusal(sendMail(limited.port, message('busy@office.test', 'three')))
      expect(error.response).toMatch(/^450 4\.7\.1/)
      expect(limited.stats.rateLimited).toBe(1)
      await sendMail(limited.port, message('other@office.test', 'four'))
      expect((await logsOf(database.db, companyIds.iota!)).map((r) => r.name)).toEqual([
        'one.pdf',
        'two.pdf',
        'four.pdf',
      ])
    } finally {
      await limited.close()
    }
  })

  it('offers STARTTLS only with a key and a certificate', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docflow-tls-'))
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')]
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    )
    const secured = await startTestInbox(
      { ...ctx, db: database.db },
      { tls: { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') } },
    )
    try {
      const message = {
        from: 'scanner@office.test',
        to: to('iota-invoices'),
        subject: 'Over TLS',
        attachments: [{ filename: 'tls.pdf', content: pdfA }],
      }
      const info = await sendMail(secured.port, message, 'require')
      expect(info.response).toMatch(/^250/)
      const plain = await refusal(sendMail(inbox.port, message, 'require'))
      expect(String((plain as Error).message)).toMatch(/STARTTLS/)
      expect((await logsOf(database.db, companyIds.iota!)).filter((r) => r.name === 'tls.pdf')).toHaveLength(
        1,
      )
    } finally {
      await secured.close()
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('answers 451 when the storage fails in the middle of a message, and keeps nothing of it', async () => {
    let puts = 0
    const failing: typeof ctx.storage = {
      ...ctx.storage,
      put: (key, source) => {
        puts += 1
        if (puts === 2) {
          source.destroy()
          return Promise.reject(new Error('disk full'))
        }
        return ctx.storage.put(key, source)
      },
    }
    const broken = await startTestInbox({ ...ctx, storage: failing, db: database.db })
    try {
      const filesBefore = await ctx.storedFiles()
      const error = await refusal(
        sendMail(broken.port, {
          from: 'scanner@office.test',
          to: to('theta-expenses'),
          subject: 'Disk full',
          attachments: [
            { filename: 'stored.pdf', content: pdfB },
            { filename: 'failed.pdf', content: pdfB },
          ],
        }),
      )
      expect(error.response).toMatch(/^451 /)
      expect(puts).toBe(2)
      expect(await logsOf(database.db, companyIds.theta!)).toEqual([])
      expect(await ctx.storedFiles()).toEqual(filesBefore)
    } finally {
      await broken.close()
    }
  })

  it('files no more than the limit of a 500-attachment mail to two addresses, with one row naming what was dropped', async () => {
    const attachments = Array.from({ length: 500 }, (_, i) => ({ filename: `a${i}.bin`, content: 'x' }))
    await sendMail(inbox.port, {
      from: 'flood@office.test',
      to: [to('kappa-invoices'), to('kappa-expenses')],
      subject: 'Five hundred',
      attachments,
    })
    const rows = await logsOf(database.db, companyIds.kappa!)
    // Each address takes its 20 attachments (refused here: not PDFs); the 480 others make one row.
    const dropped = rows.filter((r) => r.reason?.startsWith('Too many attachments'))
    expect(dropped.map((r) => [r.name, r.type, r.status, r.reason])).toEqual([
      ['Five hundred', 'Invoice', 'rejected', 'Too many attachments in one message: 480 not filed'],
    ])
    expect(rows).toHaveLength(20 + 20 + 1)
    expect(rows.filter((r) => r.name.startsWith('a')).map((r) => r.name)).toEqual([
      ...Array.from({ length: 20 }, (_, i) => `a${i}.bin`),
      ...Array.from({ length: 20 }, (_, i) => `a${i}.bin`),
    ])
  })

  it('refuses for good (554 5.6.0) a mail it cannot parse, and keeps nothing of it', async () => {
    const filesBefore = await ctx.storedFiles()
    const head = (subject: string, type: string) =>
      `From: a@office.test\r\nTo: ${to('lambda-invoices')}\r\nSubject: ${subject}\r\nMIME-Version: 1.0\r\nContent-Type: ${type}\r\n\r\n`
    let nested = head('Nested', 'multipart/mixed; boundary="b0"')
    for (let i = 1; i < 5000; i++)
      nested += `--b${i - 1}\r\nContent-Type: multipart/mixed; boundary="b${i}"\r\n\r\n`
    nested += '--b4999\r\nContent-Type: text/plain\r\n\r\nhi\r\n'
    const bigPartHeader = `${head('Part header', 'multipart/mixed; boundary="b"')}--b\r\nContent-Type: application/pdf\r\nX-Filler: ${'a'.repeat(1024 * 1024)}\r\nContent-Disposition: attachment; filename="a.pdf"\r\n\r\n%PDF-1.4\r\n--b--\r\n`
    const longHeaderLine = `${head('x'.repeat(10 * 1024 * 1024), 'text/plain')}hello\r\n`
    for (const raw of [nested, bigPartHeader, longHeaderLine]) {
      const error = await refusal(
        sendMail(inbox.port, { envelope: { from: 'a@office.test', to: [to('lambda-invoices')] }, raw }),
      )
      expect(error.response).toMatch(/^554 5\.6\.0 /)
    }
    expect(await logsOf(database.db, companyIds.lambda!)).toEqual([])
    expect(await documentsOf(database.db, companyIds.lambda!)).toEqual([])
    expect(await ctx.storedFiles()).toEqual(filesBefore)
  })

  it('rate-limits a scanner address (450 4.7.1) whoever sends to it, and still serves the others', async () => {
    const limited = await startTestInbox({ ...ctx, db: database.db }, { recipientRatePerMinute: 2 })
    try {
      const message = (from: string, address: string) => ({
        from,
        to: to(address),
        subject: `${from} to ${address}`,
        attachments: [{ filename: 'r.pdf', content: pdfB }],
      })
      await sendMail(limited.port, message('one@office.test', 'mu-expenses'))
      await sendMail(limited.port, message('two@office.test', 'mu-expenses'))
      const error = await refusal(sendMail(limited.port, message('three@office.test', 'mu-expenses')))
      expect(error.response).toMatch(/^450 4\.7\.1 Too many messages for this address/)
      expect(limited.stats.rateLimited).toBe(1)
      await sendMail(limited.port, message('three@office.test', 'mu-invoices'))
      expect((await logsOf(database.db, companyIds.mu!)).map((r) => r.sender)).toEqual([
        'one@office.test',
        'two@office.test',
        'three@office.test',
      ])
    } finally {
      await limited.close()
    }
  })

  it('cleans the envelope sender, the subject and the Message-ID like a file name', async () => {
    await sendMail(inbox.port, {
      envelope: { from: 'inv\u202Efdp.exe@vendor.test', to: [to('mu-invoices')] },
      from: 'inv\u202Efdp.exe@vendor.test',
      to: to('mu-invoices'),
      subject: 'Invoice\u202E\u0000 \u200Bfdp.exe',
      messageId: '<id\u202E\u200F-1@vendor.test>',
      attachments: [{ filename: 'in\u202Ev.pdf', content: pdfA }],
    })
    const [row] = (await logsOf(database.db, companyIds.mu!)).filter((r) => r.name === 'inv.pdf')
    expect(row).toMatchObject({
      sender: 'invfdp.exe@vendor.test',
      subject: 'Invoice fdp.exe',
      messageId: '<id-1@vendor.test>',
    })
  })
})

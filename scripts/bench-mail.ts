/**
 * `npm run bench:mail`: the real server process (`server/main.ts`) with its scanner inbox on a
 * free port. Prints (1) how many messages with one 200 KB PDF each the listener accepts per
 * second over real SMTP sessions (BENCH_MAIL_MESSAGES, default 200, over BENCH_MAIL_CONNECTIONS
 * pooled connections, default 4), checking that every one became a document (nothing lost), and
 * (2) the server's memory growth (RSS and V8 heap, sampled inside the process every 50 ms) while
 * it receives one 40 MB attachment (BENCH_MAIL_BIG_MB). Processing is off (WORKERS=0): this
 * measures reception only.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createWriteStream, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import { migrateDatabase, openPglite } from '../server/db/client.ts'
import { companies } from '../server/db/schema.ts'
import { freePort, repoRoot } from '../tests/support/server-process.ts'

const MESSAGES = Number(process.env.BENCH_MAIL_MESSAGES ?? 200)
const CONNECTIONS = Number(process.env.BENCH_MAIL_CONNECTIONS ?? 4)
const BIG_MB = Number(process.env.BENCH_MAIL_BIG_MB ?? 40)
const CORPUS = process.env.CORPUS_DIR ?? join(repoRoot, '../shared/corpus')
const SCANNER = 'invoices@bench.test'
const ADMIN = { email: 'bench@example.com', password: 'BenchPassw0rd' }

type Memory = { rss: number; heapUsed: number }
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

/** A 200 KB PDF: a corpus scan of about that size, padded (after its end) to exactly 200 KB. */
function pdf200k(): Buffer {
  const file = readFileSync(join(CORPUS, 'files', '0065-facture-hotel-scan.pdf'))
  const size = 200 * 1024
  return file.length >= size ? file : Buffer.concat([file, Buffer.alloc(size - file.length, 10)])
}

async function seed(dataDir: string) {
  const db = await openPglite(join(dataDir, 'pgdata'))
  await migrateDatabase(db)
  const [company] = await db.db
    .insert(companies)
    .values({ name: 'Bench', invoiceScanner: SCANNER })
    .returning()
  await db.close()
  return company!.id
}

/** The server, printing its memory every 50 ms on stderr (`MEM {json}`) from a preloaded probe. */
function startServer(dataDir: string, httpPort: number, smtpPort: number) {
  const probe =
    'data:text/javascript,setInterval(()=>{const m=process.memoryUsage();process.stderr.write("MEM "+JSON.stringify({rss:m.rss,heapUsed:m.heapUsed})+"\\n")},50).unref()'
  const samples: Memory[] = []
  const child = spawn(process.execPath, ['--import', probe, '--import', 'tsx', 'server/main.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(httpPort),
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      WORKERS: '0',
      LOG_LEVEL: 'warn',
      SMTP_IN_PORT: String(smtpPort),
      SMTP_IN_SENDER_RATE: '1000000',
      SMTP_IN_RECIPIENT_RATE: '1000000',
      MAX_UPLOAD_MB: String(BIG_MB + 10),
      SMTP_IN_MAX_MESSAGE_MB: String(Math.ceil(BIG_MB * 1.4) + 10),
      STATIC_DIR: join(dataDir, 'no-static'),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let rest = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n')
    rest = lines.pop() ?? ''
    for (const line of lines) {
      if (line.startsWith('MEM ')) samples.push(JSON.parse(line.slice(4)) as Memory)
      else if (line.trim()) process.stderr.write(`${line}\n`)
    }
  })
  return { child, samples }
}

async function waitReady(url: string) {
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(url)
      .then((r) => r.ok)
      .catch(() => false)
    if (ok) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`not ready: ${url}`)
}

/** The company's documents and dashboard rows, through the API as the administrator. */
async function counts(base: string, companyId: number) {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(ADMIN),
  })
  const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? ''
  const get = async (path: string) => (await fetch(`${base}${path}`, { headers: { cookie } })).json()
  const documents = (await get(`/api/documents?company_id=${companyId}&limit=1`)) as { total: number }
  const summary = (await get(`/api/logs/summary?company_id=${companyId}`)) as { total: number }
  return { documents: documents.total, rows: summary.total }
}

async function throughput(smtpPort: number, pdf: Buffer) {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: smtpPort,
    ignoreTLS: true,
    pool: true,
    maxConnections: CONNECTIONS,
    maxMessages: Number.POSITIVE_INFINITY,
  })
  const started = performance.now()
  const answers = await Promise.all(
    Array.from({ length: MESSAGES }, (_, i) =>
      transport.sendMail({
        from: `scanner${i % 8}@office.test`,
        to: SCANNER,
        subject: `Bench ${i}`,
        messageId: `<bench-${i}@office.test>`,
        attachments: [{ filename: `bench-${i}.pdf`, content: pdf }],
      }),
    ),
  )
  const seconds = (performance.now() - started) / 1000
  transport.close()
  return { seconds, accepted: answers.filter((a) => /^250/.test(a.response)).length }
}

async function bigMessage(root: string, smtpPort: number, samples: Memory[]) {
  const path = join(root, 'big.pdf')
  const out = createWriteStream(path)
  out.write('%PDF-1.7\n')
  const chunk = Buffer.alloc(1024 * 1024, 32)
  for (let i = 0; i < BIG_MB; i++) if (!out.write(chunk)) await once(out, 'drain')
  out.end()
  await once(out, 'finish')
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, ignoreTLS: true })
  await new Promise((r) => setTimeout(r, 300))
  const before = samples.at(-1)!
  const from = samples.length
  const started = performance.now()
  const answer = await transport.sendMail({
    from: 'big@office.test',
    to: SCANNER,
    subject: 'Big',
    attachments: [{ filename: 'big.pdf', path }],
  })
  const seconds = (performance.now() - started) / 1000
  await new Promise((r) => setTimeout(r, 200))
  transport.close()
  const during = samples.slice(from)
  const peak = (key: keyof Memory) => Math.max(...during.map((s) => s[key]))
  return {
    seconds,
    response: answer.response,
    rssGrowth: peak('rss') - before.rss,
    heapGrowth: peak('heapUsed') - before.heapUsed,
    before,
  }
}

const root = await mkdtemp(join(tmpdir(), 'docflow-bench-mail-'))
const children: ChildProcess[] = []
try {
  const dataDir = join(root, 'data')
  const companyId = await seed(dataDir)
  const [httpPort, smtpPort] = [await freePort(), await freePort()]
  const server = startServer(dataDir, httpPort, smtpPort)
  children.push(server.child)
  const base = `http://127.0.0.1:${httpPort}`
  await waitReady(`${base}/api/health`)

  const small = await throughput(smtpPort, pdf200k())
  const afterSmall = await counts(base, companyId)
  const lost = MESSAGES - afterSmall.documents
  console.log(`messages: ${MESSAGES} × one 200 KB PDF over ${CONNECTIONS} connections`)
  console.log(
    `accepted: ${small.accepted} in ${small.seconds.toFixed(1)} s → ${(small.accepted / small.seconds).toFixed(1)} messages/s`,
  )
  console.log(`documents: ${afterSmall.documents}, dashboard rows: ${afterSmall.rows} → lost: ${lost}`)

  const big = await bigMessage(root, smtpPort, server.samples)
  const afterBig = await counts(base, companyId)
  console.log(
    `${BIG_MB} MB attachment: ${big.response.split(' ')[0]} in ${big.seconds.toFixed(1)} s; documents now ${afterBig.documents}`,
  )
  console.log(
    `server memory before: RSS ${mb(big.before.rss)} MB, heap ${mb(big.before.heapUsed)} MB; ` +
      `peak growth while receiving: RSS +${mb(big.rssGrowth)} MB, heap +${mb(big.heapGrowth)} MB`,
  )
  if (lost !== 0 || afterBig.documents !== MESSAGES + 1) process.exitCode = 1
} finally {
  for (const child of children) child.kill('SIGTERM')
  await Promise.all(children.map((c) => (c.exitCode === null ? once(c, 'exit') : null)))
  await rm(root, { recursive: true, force: true })
}

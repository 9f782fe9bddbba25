/**
 * `npm run bench:upload`: uploads a 200 MB file to the real server process (`server/main.ts`)
 * and prints the server's peak memory growth (RSS) next to a raw-pipe baseline measured in the
 * same run (a bare Node HTTP server piping the request to a file). Growth must stay ≤ 64 MB.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createReadStream, createWriteStream, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { migrateDatabase, openPglite } from '../server/db/client.ts'
import { companies } from '../server/db/schema.ts'

const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 200)
const LIMIT_MB = 64
const root = await mkdtemp(join(tmpdir(), 'docflow-bench-upload-'))
const children: ChildProcess[] = []

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })

const rssMb = (pid: number) => {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)
  return m ? Number(m[1]) / 1024 : 0
}

async function waitReady(url: string) {
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(url)
      if (res.status < 500) return
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`not ready: ${url}`)
}

/** Streams a multipart body with one file; samples the server's RSS while it runs. */
async function upload(
  port: number,
  path: string,
  fields: Record<string, string>,
  file: string,
  pid: number,
  cookie = '',
) {
  const boundary = `----bench${Date.now()}`
  let head = ''
  for (const [k, v] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`
  const tail = `\r\n--${boundary}--\r\n`
  const length = Buffer.byteLength(head) + SIZE_MB * 1024 * 1024 + Buffer.byteLength(tail)
  const base = rssMb(pid)
  let peak = base
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid))
  }, 10)
  const started = performance.now()
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(
      {
        port,
        path,
        method: 'POST',
        headers: {
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': length,
          Cookie: cookie,
        },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    const body = Readable.from(
      (async function* () {
        yield Buffer.from(head)
        yield* createReadStream(file)
        yield Buffer.from(tail)
      })(),
    )
    body.pipe(req)
  })
  clearInterval(sampler)
  peak = Math.max(peak, rssMb(pid))
  return { status, growth: peak - base, seconds: (performance.now() - started) / 1000 }
}

try {
  // The file: a PDF header then random-ish bytes.
  const file = join(root, 'big.pdf')
  const chunk = Buffer.alloc(1024 * 1024)
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 7919) & 0xff
  chunk.write('%PDF-1.7\n')
  await pipeline(
    Readable.from(
      (function* () {
        for (let i = 0; i < SIZE_MB; i++) yield i === 0 ? chunk : chunk.subarray(0)
      })(),
    ),
    createWriteStream(file),
  )

  // Baseline: a bare server piping the request body to a file.
  const rawPort = await freePort()
  const raw = spawn(
    process.execPath,
    [
      '-e',
      `require('http').createServer((q,s)=>{q.pipe(require('fs').createWriteStream(${JSON.stringify(join(root, 'raw.bin'))})).on('finish',()=>s.end('ok'))}).listen(${rawPort})`,
    ],
    { stdio: 'ignore' },
  )
  children.push(raw)
  await waitReady(`http://127.0.0.1:${rawPort}/`)
  // The raw server answers GET by reading an empty body: wait for it to settle first.
  await new Promise((r) => setTimeout(r, 500))
  const baseline = await upload(rawPort, '/', {}, file, raw.pid!)

  // The product: a database with one company and its first administrator, then the real server.
  const dataDir = join(root, 'data')
  const db = await openPglite(join(dataDir, 'pgdata'))
  await migrateDatabase(db)
  const [company] = await db.db.insert(companies).values({ name: 'Bench' }).returning()
  await db.close()
  const port = await freePort()
  const email = 'bench@example.com'
  const password = 'BenchPassw0rd'
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_EMAIL: email,
      ADMIN_PASSWORD: password,
      MAX_UPLOAD_MB: String(SIZE_MB + 10),
      WORKERS: '0',
      SMTP_IN_PORT: '0',
      LOG_LEVEL: 'warn',
      STATIC_DIR: join(root, 'no-static'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  children.push(server)
  await waitReady(`http://127.0.0.1:${port}/api/health`)
  const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? ''
  if (!cookie) throw new Error(`login failed: ${login.status} ${await login.text()}`)
  const product = await upload(
    port,
    '/api/documents/upload',
    { company_id: String(company!.id), documentType: 'document', category: 'Autres' },
    file,
    server.pid!,
    cookie,
  )
  if (product.status !== 201) throw new Error(`upload answered ${product.status}`)
  console.log(`file: ${SIZE_MB} MB`)
  console.log(
    `raw pipe baseline: peak RSS growth ${baseline.growth.toFixed(1)} MB (${baseline.seconds.toFixed(1)} s)`,
  )
  console.log(
    `docflow server:    peak RSS growth ${product.growth.toFixed(1)} MB (${product.seconds.toFixed(1)} s, status ${product.status})`,
  )
  console.log(`limit: ${LIMIT_MB} MB → ${product.growth <= LIMIT_MB ? 'OK' : 'OVER'}`)
  if (product.growth > LIMIT_MB) process.exitCode = 1
} finally {
  for (const child of children) child.kill('SIGTERM')
  await new Promise((r) => setTimeout(r, 500))
  await rm(root, { recursive: true, force: true })
}

/**
 * `npm run bench:load`: the real server process (`server/main.ts`, default settings) under load,
 * on loopback only, bounded in time.
 *
 * 1. Idle latency: one user uploads text-layer invoices one at a time and waits for each to
 *    reach its final status (upload → final status on an idle queue).
 * 2. Load: 50 users (10 companies of 5) each upload 4 text-layer invoices from the corpus and
 *    poll the bulk status (`GET /api/documents/status`) every 3 s until their documents are
 *    final, while another company uploads a bomb (a PNG of 20 000 × 20 000 pixels, generated
 *    here, about 0.4 MB) and `/api/health` is polled throughout.
 *
 * Prints upload p50/p99, status p99, health p99, documents processed per minute and per
 * second, upload → final status p50/p99 (from the server's own timestamps), and whether every
 * document reached a final status. Embedded PGlite by default; `TEST_DATABASE_URL=postgres://…`
 * runs it on a scratch database of that PostgreSQL server. `BENCH_BOMB=0` leaves the bomb out,
 * `BENCH_LOAD_TIMEOUT_S` (default 240) bounds the wait for final statuses,
 * `BENCH_SERVER_NODE_OPTIONS` gives the server process Node options (a CPU profile).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'
import { inArray } from 'drizzle-orm'
import { type DatabaseHandle, migrateDatabase, openPglite, openPostgres } from '../server/db/client.ts'
import { companies, documents, userCompanies, users } from '../server/db/schema.ts'
import { hashPassword } from '../server/services/passwords.ts'
import { createScratchDatabase } from '../tests/support/db.ts'
import { type RunningServer, repoRoot, startServer } from '../tests/support/server-process.ts'

const CORPUS = process.env.CORPUS_DIR ?? join(repoRoot, '../shared/corpus')
const COMPANIES = 10
const USERS_PER_COMPANY = 5
const FILES_PER_USER = 4
const IDLE_UPLOADS = 10
const STATUS_EVERY_MS = 3000
const HEALTH_EVERY_MS = 100
const TIMEOUT_MS = Number(process.env.BENCH_LOAD_TIMEOUT_S ?? 240) * 1000
const WITH_BOMB = process.env.BENCH_BOMB !== '0'
const PASSWORD = 'BenchPassw0rd!'
const FINAL = new Set(['COMPLETED', 'FAILED', 'REJECTED'])

const serverUrl = process.env.TEST_DATABASE_URL
const root = await mkdtemp(join(tmpdir(), 'docflow-bench-load-'))
const dataDir = join(root, 'data')
let server = null as RunningServer | null
let poller = null as ChildProcess | null
let scratch = null as Awaited<ReturnType<typeof createScratchDatabase>> | null
let pgHandle = null as DatabaseHandle | null

const quantile = (values: number[], q: number) => {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
}
const ms = (v: number) => (Number.isNaN(v) ? '—' : `${Math.round(v)} ms`)
const pause = (delay: number) => new Promise((r) => setTimeout(r, delay))

/** A grayscale PNG of size² pixels, all white: tiny once deflated, huge once decoded. */
function bombPng(size: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (buf: Buffer) => {
    let c = 0xffffffff
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const out = Buffer.alloc(body.length + 8)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc(body), body.length + 4)
    return out
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8 // bit depth
  header[9] = 0 // grayscale
  // One filter byte then `size` white pixels per row; deflated a row block at a time would be
  // smaller on memory, but 400 MB once is fine on a machine running this bench.
  const raw = Buffer.alloc((size + 1) * size, 0xff)
  for (let y = 0; y < size; y++) raw[y * (size + 1)] = 0
  const idat = deflateSync(raw, { level: 9 })
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

async function openDatabase(): Promise<{ handle: DatabaseHandle; env: Record<string, string> }> {
  if (serverUrl) {
    scratch = await createScratchDatabase(serverUrl)
    const handle = await openPostgres(scratch.url)
    pgHandle = handle
    return { handle, env: { DATABASE_URL: scratch.url } }
  }
  return { handle: await openPglite(join(dataDir, 'pgdata')), env: {} }
}

interface Actor {
  email: string
  companyId: number
  cookie: string
}

async function seed(handle: DatabaseHandle) {
  const passwordHash = await hashPassword(PASSWORD)
  const actors: Actor[] = []
  let n = 0
  const addCompany = async (name: string, members: number) => {
    const [company] = await handle.db.insert(companies).values({ name }).returning()
    for (let i = 0; i < members; i++) {
      const email = `bench${++n}@example.com`
      const [user] = await handle.db
        .insert(users)
        .values({
          email,
          name: 'Bench',
          surname: `User ${n}`,
          role: 'INTERNAL_USER',
          validated: true,
          enabled: true,
          passwordHash,
        })
        .returning()
      await handle.db
        .insert(userCompanies)
        .values({ userId: user!.id, companyId: company!.id, role: 'COMPANY_USER' })
      actors.push({ email, companyId: company!.id, cookie: '' })
    }
    return actors.slice(-members)
  }
  const idle = (await addCompany('Bench idle', 1))[0]!
  const load: Actor[] = []
  for (let c = 1; c <= COMPANIES; c++)
    load.push(...(await addCompany(`Bench company ${c}`, USERS_PER_COMPANY)))
  const bomber = (await addCompany('Bench bomb', 1))[0]!
  return { idle, load, bomber }
}

const invoices = readFileSync(join(CORPUS, 'truth.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { file: string; kind: string; render: string })
  .filter((t) => t.kind === 'invoice' && t.render === 'pdf_text')
  .map((t) => ({ name: t.file, data: readFileSync(join(CORPUS, 'files', t.file)) }))

async function main() {
  const { handle, env } = await openDatabase()
  await migrateDatabase(handle)
  const actors = await seed(handle)
  // PGlite belongs to one process: hand it to the server.
  if (!serverUrl) await handle.close()

  // BENCH_SERVER_NODE_OPTIONS: Node options of the server process only (`--cpu-prof
  // --cpu-prof-dir=…` profiles it under this load).
  const nodeOptions = process.env.BENCH_SERVER_NODE_OPTIONS
  server = await startServer(nodeOptions ? { ...env, NODE_OPTIONS: nodeOptions } : env, { dataDir })
  const base = server.url

  const call = async (actor: Actor, path: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}/api${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), cookie: actor.cookie, origin: base },
      signal: AbortSignal.timeout(60_000),
    })
    return res
  }
  const login = async (actor: Actor) => {
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email: actor.email, password: PASSWORD }),
    })
    if (res.status !== 200) throw new Error(`login ${actor.email}: ${res.status} ${await res.text()}`)
    actor.cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
  }
  const upload = async (actor: Actor, file: { name: string; data: Buffer }) => {
    const form = new FormData()
    form.append('documentType', 'invoice')
    form.append('company_id', String(actor.companyId))
    form.append('file', new Blob([new Uint8Array(file.data)]), file.name)
    const started = performance.now()
    const res = await call(actor, '/documents/upload', { method: 'POST', body: form })
    const elapsed = performance.now() - started
    if (res.status !== 201) throw new Error(`upload ${file.name}: ${res.status} ${await res.text()}`)
    return { id: (await res.json()).id as number, ms: elapsed }
  }
  const statuses = async (actor: Actor, ids: number[]) => {
    const started = performance.now()
    const res = await call(
      actor,
      `/api/documents/status?kind=invoice&company_id=${actor.companyId}&document_ids=${ids.join(',')}`,
    )
    const elapsed = performance.now() - started
    if (res.status !== 200) throw new Error(`status: ${res.status} ${await res.text()}`)
    return { rows: (await res.json()) as { id: number; status: string }[], ms: elapsed }
  }

  for (const actor of [actors.idle, ...actors.load, actors.bomber]) await login(actor)

  // 1. Idle queue: one document at a time, upload → final status seen by a 20 ms poll.
  const idleLatency: number[] = []
  for (let i = 0; i < IDLE_UPLOADS; i++) {
    const started = performance.now()
    const { id } = await upload(actors.idle, invoices[i % invoices.length]!)
    for (;;) {
      const res = await call(
        actors.idle,
        `/api/document/invoice/${id}/status?company_id=${actors.idle.companyId}`,
      )
      if (FINAL.has(((await res.json()) as { status: string }).status)) break
      if (performance.now() - started > 60_000) throw new Error(`idle upload ${id} not final after 60 s`)
      await pause(20)
    }
    idleLatency.push(performance.now() - started)
  }
  console.log(
    `idle queue: upload → final status p50 ${ms(quantile(idleLatency, 0.5))}, max ${ms(Math.max(...idleLatency))} (${IDLE_UPLOADS} invoices one at a time)`,
  )

  // 2. Load.
  // Built before the health poller starts: deflating 400 MB takes this process a few seconds.
  const bombFile = WITH_BOMB ? bombPng(20_000) : Buffer.alloc(0)
  // Health is polled from a process of its own, so that this process's work (building 200
  // multipart bodies) does not count as the server's latency.
  poller = spawn(
    process.execPath,
    [
      '-e',
      `let stop = false, out = [], failed = 0
process.on('SIGTERM', () => { stop = true })
;(async () => {
  while (!stop) {
    const t = performance.now(), at = Date.now()
    try {
      const r = await fetch(${JSON.stringify(`${base}/api/health`)}, { signal: AbortSignal.timeout(5000) })
      await r.arrayBuffer()
      if (!r.ok) failed++
    } catch { failed++ }
    out.push([at, performance.now() - t])
    await new Promise((r) => setTimeout(r, ${HEALTH_EVERY_MS}))
  }
  process.stdout.write(JSON.stringify({ out, failed }))
})()`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let pollerOutput = ''
  poller!.stdout?.on('data', (d) => {
    pollerOutput += d
  })
  const pollerDone = new Promise((r) => poller!.once('exit', r))

  let bombId: number | null = null
  const bombUpload = WITH_BOMB
    ? (async () => {
        console.log(`bomb: PNG 20000 × 20000 pixels, ${(bombFile.length / 1024).toFixed(0)} kB`)
        bombId = (await upload(actors.bomber, { name: 'bomb.png', data: bombFile })).id
      })()
    : Promise.resolve()
  // Let the bomb reach a worker first: the worst case for everyone else.
  await bombUpload
  await pause(500)

  const uploadMs: number[] = []
  const statusMs: number[] = []
  const uploaded: number[] = []
  const loadStarted = performance.now()
  const loadEnd = Date.now() + TIMEOUT_MS
  const finalSeen = new Map<number, string>()
  const failures: string[] = []
  let lastUploadAt = 0
  await Promise.all(
    actors.load.map(async (actor, i) => {
      const mine: number[] = []
      for (let k = 0; k < FILES_PER_USER; k++) {
        const started = performance.now()
        try {
          const { id, ms: elapsed } = await upload(
            actor,
            invoices[(i * FILES_PER_USER + k) % invoices.length]!,
          )
          uploadMs.push(elapsed)
          lastUploadAt = Math.max(lastUploadAt, Date.now())
          mine.push(id)
          uploaded.push(id)
        } catch (error) {
          // Counted at the time it took to fail (a 60 s timeout counts as 60 s).
          uploadMs.push(performance.now() - started)
          failures.push(`upload: ${(error as Error).message.split('\n')[0]}`)
        }
      }
      while (mine.length > 0 && Date.now() < loadEnd) {
        await pause(STATUS_EVERY_MS)
        const started = performance.now()
        try {
          const { rows, ms: elapsed } = await statuses(actor, mine)
          statusMs.push(elapsed)
          for (const r of rows) if (FINAL.has(r.status)) finalSeen.set(r.id, r.status)
        } catch (error) {
          statusMs.push(performance.now() - started)
          failures.push(`status: ${(error as Error).message.split('\n')[0]}`)
        }
        if (mine.every((id) => finalSeen.has(id))) break
      }
    }),
  )
  const loadSeconds = (performance.now() - loadStarted) / 1000
  const loadCompanies = [...new Set(actors.load.map((a) => a.companyId))]
  poller!.kill('SIGTERM')
  await pollerDone
  const polled = JSON.parse(pollerOutput) as { out: [number, number][]; failed: number }
  const healthFailures = polled.failed
  const health = polled.out.map(([, latency]) => latency)
  // Split at the last upload's answer: the burst of 200 uploads, then processing alone.
  const healthUploading = polled.out.filter(([at]) => at <= lastUploadAt).map(([, latency]) => latency)
  const healthProcessing = polled.out.filter(([at]) => at > lastUploadAt).map(([, latency]) => latency)

  // The server's own timestamps: created (upload committed) → processed (final status recorded).
  const reader = serverUrl
    ? handle
    : await (async () => {
        await server!.stop()
        return openPglite(join(dataDir, 'pgdata'))
      })()
  const rows = await reader.db
    .select({
      id: documents.id,
      status: documents.status,
      createdAt: documents.createdAt,
      processedAt: documents.processedAt,
    })
    .from(documents)
    .where(inArray(documents.companyId, loadCompanies))
  const done = rows.filter((r) => r.processedAt && FINAL.has(r.status))
  const e2e = done.map((r) => r.processedAt!.getTime() - r.createdAt.getTime())
  const first = Math.min(...rows.map((r) => r.createdAt.getTime()))
  const last = Math.max(...done.map((r) => r.processedAt!.getTime()))
  const perSecond = done.length / Math.max(0.001, (last - first) / 1000)
  const bomb =
    bombId === null
      ? null
      : (
          await reader.db
            .select()
            .from(documents)
            .where(inArray(documents.id, [bombId]))
        )[0]
  if (!serverUrl) await reader.close()

  const byStatus = (s: string) => rows.filter((r) => r.status === s).length
  console.log(
    `load: ${actors.load.length} users in ${COMPANIES} companies, ${uploaded.length} invoices, ${loadSeconds.toFixed(1)} s${WITH_BOMB ? ', with a bomb' : ''}`,
  )
  console.log(`upload: p50 ${ms(quantile(uploadMs, 0.5))}, p99 ${ms(quantile(uploadMs, 0.99))}`)
  console.log(`status (bulk, every 3 s): p99 ${ms(quantile(statusMs, 0.99))} (${statusMs.length} requests)`)
  console.log(
    `health: p50 ${ms(quantile(health, 0.5))}, p99 ${ms(quantile(health, 0.99))}, max ${ms(Math.max(...health))} (${health.length} requests, ${healthFailures} failed or timed out at 5 s)`,
  )
  console.log(
    `health while the uploads arrive: p99 ${ms(quantile(healthUploading, 0.99))} (${healthUploading.length}); afterwards, while processing runs: p99 ${ms(quantile(healthProcessing, 0.99))} (${healthProcessing.length})`,
  )
  console.log(
    `processed: ${(perSecond * 60).toFixed(0)} documents per minute, ${perSecond.toFixed(2)} per second (first upload → last final status)`,
  )
  console.log(
    `upload → final status under load: p50 ${ms(quantile(e2e, 0.5))}, p99 ${ms(quantile(e2e, 0.99))}`,
  )
  if (bomb) {
    console.log(
      `bomb: ${bomb.status}${bomb.errors.length ? ` (${bomb.errors.join(', ')})` : ''}${bomb.processedAt ? ` after ${((bomb.processedAt.getTime() - bomb.createdAt.getTime()) / 1000).toFixed(1)} s` : ''}`,
    )
  }
  if (failures.length > 0) {
    const kinds = new Map<string, number>()
    for (const f of failures) kinds.set(f, (kinds.get(f) ?? 0) + 1)
    console.log(`failed requests: ${[...kinds].map(([k, n]) => `${n} × ${k}`).join('; ')}`)
  }
  // An upload accepted (201) whose document is missing is lost; a row whose upload timed out on
  // the client side is counted with the others.
  const stored = new Set(rows.map((r) => r.id))
  const lost = uploaded.filter((id) => !stored.has(id)).length
  const unfinished = rows.length - done.length
  console.log(
    `final: ${done.length}/${rows.length} stored (${uploaded.length} of ${actors.load.length * FILES_PER_USER} uploads answered 201; COMPLETED ${byStatus('COMPLETED')}, FAILED ${byStatus('FAILED')}), still processing ${unfinished}, lost ${lost}${done.length === rows.length && lost === 0 ? ' — every document reached a final status' : ''}`,
  )
  if (done.length !== rows.length || lost > 0 || failures.length > 0) process.exitCode = 1
}

try {
  await main()
} finally {
  if (poller && poller.exitCode === null) poller.kill('SIGKILL')
  await server?.stop()
  await pgHandle?.close().catch(() => {})
  await scratch?.drop().catch(() => {})
  await rm(root, { recursive: true, force: true })
}

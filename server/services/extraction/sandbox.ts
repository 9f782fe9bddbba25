/**
 * Extraction in a sandbox: warm child processes (sandbox-child.ts) run extractDocument, so
 * nothing an uploaded file does to pdf.js, the image decoders or tesseract can crash, freeze or
 * starve the server's own process.
 *
 * Each child takes one document at a time (the file's bytes over IPC, a few ms even for large
 * files) and is watched from here: a wall-clock budget per document and per page (the child
 * reports each page it starts), a resident-memory ceiling read from /proc (WASM memory is outside
 * V8's heap limit, which `--max-old-space-size` sets too) and its exit. On any of these the child
 * is killed, the document's call rejects with a SandboxError (the job fails and is retried) and a
 * fresh child is started. After a document that left the child above `recycleMb` (a large scan's
 * decoded pages, tesseract's grown WASM heap), the child is replaced too, so the memory goes back
 * to the baseline instead of being kept for ever.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Logger } from 'pino'
import type { Extraction } from './index.ts'
import { DEFAULT_LIMITS, type ExtractionLimits, type UnreadableCode, UnreadableFileError } from './limits.ts'

export type ParentMessage = {
  type: 'extract'
  id: number
  data: Uint8Array
  contentType: string
  limits: ExtractionLimits
}

export type ChildMessage =
  | { type: 'ready'; pid: number }
  | { type: 'page'; id: number; page: number }
  | { type: 'done'; id: number; result: Extraction }
  | { type: 'failed'; id: number; error: { name: string; message: string; code?: string } }
  | { type: 'crashed'; id: number | null; message: string }
  | { type: 'rss'; rss: number }

/** Why the sandbox gave up on a document: the job fails and is retried. */
export class SandboxError extends Error {
  constructor(
    readonly kind: 'timeout' | 'memory' | 'crash',
    message: string,
  ) {
    super(message)
    this.name = 'SandboxError'
  }
}

export interface SandboxOptions {
  /** Child processes, each processing one document at a time (default 1). */
  size?: number
  /** tesseract.js workers in each child (default 1). */
  ocrWorkers?: number
  limits?: Partial<ExtractionLimits>
  /** Wall-clock budget of one document (default 240 s). */
  documentTimeoutMs?: number
  /** Wall-clock budget of one page (default 90 s). */
  pageTimeoutMs?: number
  /** Resident memory above which a child is killed mid-document (default 1536 MB). */
  memoryMb?: number
  /** Resident memory above which a child is replaced after its document (default 512 MB). */
  recycleMb?: number
  /** A child is also replaced after this many documents (bounds slow leaks; default 500). */
  maxJobsPerChild?: number
  logger?: Logger
}

export interface ExtractionSandbox {
  extract(data: Uint8Array, contentType: string): Promise<Extraction>
  /** Starts the children now rather than at the first document. */
  warm(): Promise<void>
  close(): Promise<void>
  /** The live children: process id, whether a document is in it, resident bytes (diagnostics, tests). */
  children(): { pid: number; busy: boolean; rss: number }[]
}

const SANDBOX_DEFAULTS = {
  documentTimeoutMs: 240_000,
  pageTimeoutMs: 90_000,
  memoryMb: 1536,
  recycleMb: 512,
  maxJobsPerChild: 500,
}

const ENTRY = fileURLToPath(new URL('./sandbox-child.ts', import.meta.url))
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const READY_TIMEOUT_MS = 60_000
const MEMORY_POLL_MS = 100
const PAGE_SIZE = 4096
const HAS_PROC = (() => {
  try {
    readFileSync('/proc/self/statm')
    return true
  } catch {
    return false
  }
})()

interface Job {
  id: number
  onMessage(message: ChildMessage): void
  onExit(description: string): void
}

interface Child {
  proc: ChildProcess
  ready: Promise<void>
  jobs: number
  /** Last resident size the child reported (platforms without /proc). */
  reportedRss: number
  job: Job | null
  /** Became ready once: only then is its death replaced at once (no start-up crash loop). */
  started: boolean
  dead: boolean
  /** The last lines the child wrote on stderr: what a crash said. */
  stderr: string
}

function pick(env: NodeJS.ProcessEnv, names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((n) => (env[n] === undefined ? [] : [[n, env[n]!]])))
}

function residentBytes(child: Child): number {
  const pid = child.proc.pid
  if (!HAS_PROC || pid === undefined) return child.reportedRss
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]) * PAGE_SIZE
  } catch {
    return 0
  }
}

/** One sandbox's settings and its children: the state the functions below share. */
interface Pool {
  size: number
  limits: ExtractionLimits
  documentTimeoutMs: number
  pageTimeoutMs: number
  memoryBytes: number
  recycleBytes: number
  maxJobs: number
  ocrWorkers: number
  logger: Logger | undefined
  children: Set<Child>
  idle: Child[]
  waiting: { resolve: (child: Child) => void; reject: (error: Error) => void }[]
  closed: boolean
  sequence: number
}

function createPool(options: SandboxOptions): Pool {
  return {
    size: Math.max(1, options.size ?? 1),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    documentTimeoutMs: options.documentTimeoutMs ?? SANDBOX_DEFAULTS.documentTimeoutMs,
    pageTimeoutMs: options.pageTimeoutMs ?? SANDBOX_DEFAULTS.pageTimeoutMs,
    memoryBytes: (options.memoryMb ?? SANDBOX_DEFAULTS.memoryMb) * 1024 * 1024,
    recycleBytes: (options.recycleMb ?? SANDBOX_DEFAULTS.recycleMb) * 1024 * 1024,
    maxJobs: options.maxJobsPerChild ?? SANDBOX_DEFAULTS.maxJobsPerChild,
    ocrWorkers: options.ocrWorkers ?? 1,
    logger: options.logger,
    children: new Set<Child>(),
    idle: [],
    waiting: [],
    closed: false,
    sequence: 0,
  }
}

function spawnChild(pool: Pool): Child {
  const proc = fork(ENTRY, [], {
    execArgv: ['--import', TSX, `--max-old-space-size=${Math.round(pool.memoryBytes / 1024 / 1024)}`],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    // Only what Node and tesseract need: the child never sees the database URL or secrets.
    env: {
      ...pick(process.env, ['PATH', 'HOME', 'TMPDIR', 'TEMP', 'TMP', 'LANG', 'NODE_ENV', 'SYSTEMROOT']),
      DOCFLOW_SANDBOX_OCR_WORKERS: String(pool.ocrWorkers),
      DOCFLOW_SANDBOX_REPORT_RSS: HAS_PROC ? '' : '1',
    },
  })
  const child: Child = {
    proc,
    ready: Promise.resolve(),
    jobs: 0,
    reportedRss: 0,
    job: null,
    started: false,
    dead: false,
    stderr: '',
  }
  proc.stderr?.on('data', (chunk: Buffer) => {
    child.stderr = (child.stderr + chunk.toString('utf8')).slice(-2000)
  })
  child.ready = watchChild(pool, child)
  // Nobody may be waiting on a spare child's start-up: its failure is seen by the next job.
  child.ready.catch(() => {})
  pool.children.add(child)
  return child
}

/**
 * Listens to a new child for its life: resolves once it is ready, passes its messages to its job
 * and, when it ends, drops it from the pool, fails its job and starts a replacement.
 */
function watchChild(pool: Pool, child: Child): Promise<void> {
  const proc = child.proc
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new SandboxError('crash', 'The extraction process did not start'))
      kill(child)
    }, READY_TIMEOUT_MS)
    proc.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') {
        clearTimeout(timer)
        child.started = true
        resolve()
      } else if (message.type === 'rss') child.reportedRss = message.rss
      else child.job?.onMessage(message)
    })
    let gone = false
    const end = (description: string) => {
      if (gone) return
      gone = true
      clearTimeout(timer)
      child.dead = true
      pool.children.delete(child)
      const at = pool.idle.indexOf(child)
      if (at >= 0) pool.idle.splice(at, 1)
      reject(new SandboxError('crash', `The extraction process ended before it was ready (${description})`))
      child.job?.onExit(description)
      child.job = null
      if (child.started) replenish(pool)
    }
    proc.once('exit', (code, signal) => end(signal ? `signal ${signal}` : `exit code ${code}`))
    // The process could not be started (or signalled): without this listener the error
    // would be thrown in the server's process.
    proc.on('error', (error) => {
      pool.logger?.error({ err: error }, 'extraction process error')
      if (proc.pid === undefined || proc.exitCode !== null) end(error.message)
    })
  })
}

function kill(child: Child) {
  if (child.dead) return
  child.dead = true
  child.proc.kill('SIGKILL')
}

/** Keeps `size` children alive (warm) once any has been started. */
function replenish(pool: Pool) {
  while (!pool.closed && pool.children.size < pool.size) release(pool, spawnChild(pool))
}

function release(pool: Pool, child: Child) {
  if (child.dead || pool.closed) return
  const next = pool.waiting.shift()
  if (next) next.resolve(child)
  else pool.idle.push(child)
}

function acquire(pool: Pool): Promise<Child> {
  const child = pool.idle.shift()
  if (child) return Promise.resolve(child)
  if (pool.children.size < pool.size) return Promise.resolve(spawnChild(pool))
  return new Promise((resolve, reject) => pool.waiting.push({ resolve, reject }))
}

/** Ends a child that finished its work (no job): politely, then for good. */
function retire(pool: Pool, child: Child) {
  child.dead = true
  pool.children.delete(child)
  child.proc.kill('SIGTERM')
  setTimeout(() => child.proc.kill('SIGKILL'), 2000).unref()
}

/** The callbacks that end one job: each clears the job's timers before it settles. */
interface JobEnd {
  resolve(result: Extraction): void
  fail(error: Error): void
}

/** Runs one document in a child, watched by its page and document timers and the memory poll. */
function run(pool: Pool, child: Child, bytes: Uint8Array, contentType: string): Promise<Extraction> {
  const id = ++pool.sequence
  const { pageTimeoutMs, documentTimeoutMs, memoryBytes } = pool
  // IPC serialises a view's whole underlying buffer: send exactly the file's bytes.
  const data =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes)
  return new Promise<Extraction>((resolve, reject) => {
    let pageTimer: NodeJS.Timeout | undefined
    const fail = (error: Error) => {
      finish()
      reject(error)
    }
    const abort = (kind: SandboxError['kind'], message: string) => {
      fail(new SandboxError(kind, message))
      pool.logger?.warn({ pid: child.proc.pid, kind }, `extraction process killed: ${message}`)
      kill(child)
    }
    const armPage = () => {
      clearTimeout(pageTimer)
      pageTimer = setTimeout(
        () => abort('timeout', `A page took longer than ${Math.round(pageTimeoutMs / 1000)} s to process`),
        pageTimeoutMs,
      )
    }
    const documentTimer = setTimeout(
      () =>
        abort('timeout', `The file took longer than ${Math.round(documentTimeoutMs / 1000)} s to process`),
      documentTimeoutMs,
    )
    const memoryTimer = setInterval(() => {
      const rss = residentBytes(child)
      if (rss > memoryBytes)
        abort(
          'memory',
          `The file needed more than ${Math.round(memoryBytes / 1024 / 1024)} MB of memory to process`,
        )
    }, MEMORY_POLL_MS)
    const finish = () => {
      clearTimeout(documentTimer)
      clearTimeout(pageTimer)
      clearInterval(memoryTimer)
      child.job = null
    }
    const done = (result: Extraction) => {
      finish()
      resolve(result)
    }
    child.job = jobFor(child, id, armPage, { resolve: done, fail })
    armPage()
    child.proc.send(
      { type: 'extract', id, data, contentType, limits: pool.limits } satisfies ParentMessage,
      (error) => {
        if (error && child.job?.id === id)
          fail(new SandboxError('crash', `Cannot reach the extraction process: ${error.message}`))
      },
    )
  })
}

/** What a running job does with its child's messages and its child's death. */
function jobFor(child: Child, id: number, armPage: () => void, end: JobEnd): Job {
  return {
    id,
    onMessage(message) {
      if ('id' in message && message.id !== id && message.type !== 'crashed') return
      if (message.type === 'page') armPage()
      else if (message.type === 'done') end.resolve(message.result)
      else if (message.type === 'failed') {
        const { name, message: text, code } = message.error
        end.fail(
          name === 'UnreadableFileError'
            ? new UnreadableFileError(code as UnreadableCode, text)
            : Object.assign(new Error(text), { name }),
        )
      } else if (message.type === 'crashed') {
        // The child exits on its own right after; its exit is the crash's end.
        child.stderr = `${child.stderr}\n${message.message}`.slice(-2000)
      }
    },
    onExit(description) {
      const said = child.stderr.trim().split('\n').slice(-3).join(' | ')
      end.fail(
        new SandboxError(
          description === 'signal SIGABRT' ? 'memory' : 'crash',
          `The extraction process died (${description})${said ? `: ${said}` : ''}`,
        ),
      )
    },
  }
}

async function extract(pool: Pool, data: Uint8Array, contentType: string): Promise<Extraction> {
  if (pool.closed) throw new Error('The extraction sandbox is closed')
  const child = await acquire(pool)
  try {
    await child.ready
    return await run(pool, child, data, contentType)
  } finally {
    child.jobs++
    if (!child.dead && (child.jobs >= pool.maxJobs || residentBytes(child) > pool.recycleBytes)) {
      pool.logger?.info(
        { pid: child.proc.pid, rssMb: Math.round(residentBytes(child) / 1024 / 1024), jobs: child.jobs },
        'extraction process recycled',
      )
      retire(pool, child)
    }
    if (child.dead) replenish(pool)
    else release(pool, child)
  }
}

async function close(pool: Pool) {
  pool.closed = true
  for (const w of pool.waiting.splice(0)) w.reject(new Error('The extraction sandbox is closed'))
  const exits = [...pool.children].map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.proc.exitCode !== null || child.proc.signalCode !== null) return resolve()
        child.proc.once('exit', () => resolve())
        child.proc.kill('SIGTERM')
        setTimeout(() => child.proc.kill('SIGKILL'), 2000).unref()
      }),
  )
  await Promise.all(exits)
  pool.children.clear()
  pool.idle.length = 0
}

export function createExtractionSandbox(options: SandboxOptions = {}): ExtractionSandbox {
  const pool = createPool(options)
  return {
    extract: (data, contentType) => extract(pool, data, contentType),
    async warm() {
      if (pool.closed) return
      replenish(pool)
      await Promise.all([...pool.children].map((c) => c.ready.catch(() => {})))
    },
    close: () => close(pool),
    children: () =>
      [...pool.children]
        .filter((c) => !c.dead && c.proc.pid !== undefined)
        .map((c) => ({ pid: c.proc.pid!, busy: c.job !== null, rss: residentBytes(c) })),
  }
}

/**
 * The durable job queue: pg-boss on the application's own database, PostgreSQL or PGlite (through
 * pg-boss's `db.executeSql` adapter). A job is created inside the upload's transaction, so a
 * document never exists without its job nor a job without its document.
 *
 * pg-boss stores the jobs; the processing loop is ours, for three reasons:
 * - latency and throughput: a worker that found a job fetches the next one at once, and an idle
 *   worker is woken by a NOTIFY sent from the enqueuing transaction (delivered at its commit, to
 *   every process listening: the server's own workers and `npm run worker` processes), so the
 *   polling interval only matters when a notification is lost;
 * - crash recovery: a running job's process refreshes its `started_on` every few seconds
 *   (heartbeat) and the job's pg-boss expiry is a short lease from it, so the job of a process
 *   that died (kill -9, lost machine) is failed and retried within a minute, while the time one
 *   attempt may take (`expireInSeconds`, JOB_TIMEOUT_SECONDS) is enforced by the loop itself;
 * - fairness: a job's priority is minus the number of documents of its company already waiting,
 *   so each company's n-th waiting document competes with the other companies' n-th, and a
 *   single upload jumps ahead of another company's 100-file batch.
 */
import { and, eq, ne, type SQL, sql } from 'drizzle-orm'
import PgBoss from 'pg-boss'
import type { Logger } from 'pino'
import { type AppDatabase, embeddedClient } from '../db/client.ts'
import { documents } from '../db/schema.ts'

export const PROCESS_QUEUE = 'document-process'
export const DEAD_QUEUE = 'document-process-dead'
/** NOTIFY channel of new jobs: wakes idle workers of every process at the enqueue's commit. */
const WAKE_CHANNEL = 'docflow_jobs'

export interface QueueOptions {
  /** Attempts after the first one. */
  retryLimit: number
  retryDelaySeconds: number
  /** Time budget of one attempt: a job running longer is failed (and retried). */
  expireInSeconds: number
  /** How often a running job's process refreshes its heartbeat (`started_on`). */
  heartbeatSeconds: number
  /** A running job whose heartbeat is older than this is taken as cut by a crash and retried. */
  leaseSeconds: number
  /** pg-boss maintenance (archiving, deleting old jobs). */
  maintenanceIntervalSeconds: number
  /** How often an idle worker looks for jobs when no notification woke it. */
  pollingIntervalSeconds: number
}

export const DEFAULT_QUEUE_OPTIONS: QueueOptions = {
  retryLimit: 2,
  retryDelaySeconds: 5,
  expireInSeconds: 600,
  // Heartbeat every 5 s, lease 20 s: four missed beats before a job is taken from its process.
  // Worst case from a crash to another worker starting the job: the lease, one heartbeat tick
  // (the expiry check runs with it), pg-boss's retry delay (5–10 s) and a poll: under a minute.
  heartbeatSeconds: 5,
  leaseSeconds: 20,
  maintenanceIntervalSeconds: 30,
  pollingIntervalSeconds: 1,
}

export interface ProcessJob {
  documentId: number
}

export interface JobContext {
  id: string
  /** 0 on the first attempt. */
  retryCount: number
  retryLimit: number
}

/** Anything pg-boss can run SQL through: the app's database or an open transaction. */
type Executor = Pick<AppDatabase, 'execute'>

/** pg-boss speaks `$1` placeholders; drizzle wants a SQL object. */
function toSql(text: string, values: unknown[] = []): SQL {
  const chunks: SQL[] = []
  let last = 0
  for (const m of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(last, m.index)))
    chunks.push(sql`${values[Number(m[1]) - 1] ?? null}`)
    last = (m.index ?? 0) + m[0].length
  }
  chunks.push(sql.raw(text.slice(last)))
  return sql.join(chunks)
}

export function executorAdapter(db: Executor): PgBoss.Db {
  return {
    async executeSql(text, values) {
      const result = (await db.execute(toSql(text, values))) as unknown as { rows: unknown[] }
      return { rows: result.rows }
    },
  }
}

/** pg-boss's own statements (schema creation is several statements in one string). */
function clientAdapter(db: AppDatabase): PgBoss.Db {
  const client = embeddedClient(db)
  if (client) {
    return {
      async executeSql(text, values) {
        if (!values || values.length === 0) {
          const results = await client.exec(text)
          return { rows: results[results.length - 1]?.rows ?? [] }
        }
        const result = await client.query(text, values)
        return { rows: result.rows }
      },
    }
  }
  const pool = (db as unknown as { $client: unknown }).$client as {
    query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>
  }
  return { executeSql: (text, values) => pool.query(text, values) }
}

export interface JobQueue {
  start(): Promise<void>
  /**
   * Creates the processing job inside the caller's transaction, with its company's fair
   * priority, and notifies the workers (delivered when the transaction commits).
   */
  enqueue(tx: Executor, job: ProcessJob, owner: { companyId: number }): Promise<void>
  /** Starts `concurrency` processing loops and one worker for dead letters. */
  work(
    concurrency: number,
    handler: (job: ProcessJob, ctx: JobContext) => Promise<void>,
    onDead: (job: ProcessJob) => Promise<void>,
  ): Promise<void>
  /** Jobs left active by a process that died (PGlite: only one process can have been running). */
  requeueOrphans(): Promise<number>
  stop(options?: { graceful?: boolean }): Promise<void>
  readonly options: QueueOptions
}

/** An abortable pause: resolves after `ms` or as soon as `wake()` is called. */
function createAlarm() {
  let ring: (() => void) | null = null
  return {
    sleep(ms: number) {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms)
        function done() {
          clearTimeout(timer)
          ring = null
          resolve()
        }
        ring = done
      })
    },
    wake() {
      ring?.()
    },
  }
}

/**
 * Subscribes to the wake channel: PGlite delivers notifications in-process; PostgreSQL needs a
 * connection of its own, kept out of the pool for as long as the workers run (re-opened after
 * an error; until then the polling interval still finds the jobs).
 */
async function listen(db: AppDatabase, logger: Logger, onWake: () => void): Promise<() => Promise<void>> {
  const embedded = embeddedClient(db)
  if (embedded) return embedded.listen(WAKE_CHANNEL, onWake)
  const client = (db as unknown as { $client: unknown }).$client
  type Connection = {
    query(text: string): Promise<unknown>
    on(event: string, fn: (arg: unknown) => void): void
    removeAllListeners(event: string): void
    release(error?: unknown): void
  }
  const pool = client as { connect(): Promise<Connection> }
  let connection: Connection | null = null
  let closed = false
  let retry: NodeJS.Timeout | undefined
  const released = new WeakSet<Connection>()
  const open = async () => {
    if (closed) return
    try {
      const c = await pool.connect()
      c.on('notification', () => onWake())
      // Released once: an error after close() (the server dropping the connection) must not
      // release the client a second time (pg-pool throws, and nothing would catch it). The
      // listener stays, so a late error is logged rather than thrown as an unhandled 'error'.
      c.on('error', (error) => {
        logger.warn({ err: error }, 'job notification connection lost')
        c.removeAllListeners('notification')
        if (!released.has(c)) {
          released.add(c)
          c.release(error)
        }
        if (connection === c) connection = null
        if (closed) return
        retry = setTimeout(open, 5000)
        retry.unref()
      })
      await c.query(`LISTEN ${WAKE_CHANNEL}`)
      connection = c
      if (closed) await close()
    } catch (error) {
      logger.warn({ err: error }, 'cannot listen for job notifications; polling only')
      retry = setTimeout(open, 5000)
      retry.unref()
    }
  }
  const close = async () => {
    closed = true
    clearTimeout(retry)
    const c = connection
    connection = null
    if (!c) return
    c.removeAllListeners('notification')
    await c.query(`UNLISTEN ${WAKE_CHANNEL}`).catch(() => {})
    if (released.has(c)) return
    released.add(c)
    c.release()
  }
  await open()
  return close
}

/** Creates (or updates) the processing queue and its dead letters. */
async function ensureQueues(boss: PgBoss, opts: QueueOptions): Promise<void> {
  await boss.start()
  await boss.createQueue(DEAD_QUEUE, { name: DEAD_QUEUE, retryLimit: 0 })
  const queue = {
    name: PROCESS_QUEUE,
    retryLimit: opts.retryLimit,
    retryDelay: opts.retryDelaySeconds,
    retryBackoff: true,
    // pg-boss fails an active job once started_on + expire_in has passed: with the heartbeat
    // moving started_on forward, this is the lease, not the time budget of an attempt.
    expireInSeconds: opts.leaseSeconds,
    deadLetter: DEAD_QUEUE,
  }
  if (await boss.getQueue(PROCESS_QUEUE)) await boss.updateQueue(PROCESS_QUEUE, queue)
  else await boss.createQueue(PROCESS_QUEUE, queue)
}

/**
 * Queues a document's job behind the company's documents already waiting or running (this one
 * excluded); the same statement queues the wake-up, which is only delivered when the transaction
 * commits.
 */
async function enqueueJob(
  boss: PgBoss,
  tx: Parameters<JobQueue['enqueue']>[0],
  job: ProcessJob,
  owner: Parameters<JobQueue['enqueue']>[2],
): Promise<void> {
  const result = (await tx.execute(
    sql`select count(*)::int as n, pg_notify(${WAKE_CHANNEL}, '') from ${documents} where ${and(
      eq(documents.companyId, owner.companyId),
      eq(documents.status, 'PROCESSING'),
      ne(documents.id, job.documentId),
    )}`,
  )) as unknown as { rows: { n: number }[] }
  const waiting = result.rows[0]?.n ?? 0
  await boss.send(PROCESS_QUEUE, job, { db: executorAdapter(tx), priority: -waiting })
}

/** Runs one fetched job within its time budget, then completes it, or fails it for a retry. */
async function runJob(
  run: { boss: PgBoss; logger: Logger; running: Set<string>; seconds: number },
  job: PgBoss.JobWithMetadata<ProcessJob>,
  handler: Parameters<JobQueue['work']>[1],
): Promise<void> {
  const { boss, logger, running, seconds } = run
  let budget: NodeJS.Timeout | undefined
  try {
    const overrun = new Promise<never>((_, reject) => {
      budget = setTimeout(
        () => reject(new Error(`handler execution exceeded ${seconds * 1000}ms`)),
        seconds * 1000,
      )
    })
    await Promise.race([
      handler(job.data, { id: job.id, retryCount: job.retryCount, retryLimit: job.retryLimit }),
      overrun,
    ])
    running.delete(job.id)
    await boss.complete(PROCESS_QUEUE, job.id)
  } catch (error) {
    running.delete(job.id)
    // Sends the job back for a retry (or to the dead letters once out of attempts).
    await boss
      .fail(PROCESS_QUEUE, job.id, error as object)
      .catch((e) => logger.error({ err: e, jobId: job.id }, 'failing a job failed'))
  } finally {
    clearTimeout(budget)
    running.delete(job.id)
  }
}

/** Refreshes this process's running jobs, then fails (retries) those of dead processes. */
async function refreshLeases(
  client: ReturnType<typeof clientAdapter>,
  boss: PgBoss,
  running: Set<string>,
  leaseSeconds: number,
): Promise<void> {
  if (running.size > 0) {
    await client.executeSql(
      // The lease too: the job got the one of the process that enqueued it.
      `UPDATE pgboss.job SET started_on = now(), expire_in = $3 * interval '1s'
       WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`,
      [PROCESS_QUEUE, [...running], leaseSeconds],
    )
  }
  // pg-boss's own expiry statement (under its advisory lock): also sends the jobs that are
  // out of retries to the dead-letter queue.
  await boss.expire()
}

/** The jobs left active by a process that stopped, sent back to the queue; how many. */
async function requeueActive(client: ReturnType<typeof clientAdapter>, boss: PgBoss): Promise<number> {
  const { rows } = await client.executeSql(`select id from pgboss.job where name = $1 and state = 'active'`, [
    PROCESS_QUEUE,
  ])
  const ids = (rows as { id: string }[]).map((r) => r.id)
  // fail() sends the job back to 'retry' while it has attempts left (a crash counts as one).
  for (const id of ids) await boss.fail(PROCESS_QUEUE, id, { message: 'worker stopped' })
  return ids.length
}

export function createJobQueue(
  db: AppDatabase,
  logger: Logger,
  options: Partial<QueueOptions> = {},
): JobQueue {
  const opts = { ...DEFAULT_QUEUE_OPTIONS, ...options }
  const client = clientAdapter(db)
  const boss = new PgBoss({
    db: client,
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds,
  } as PgBoss.ConstructorOptions)
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'))
  let started: Promise<void> | null = null
  const start = () => {
    started ??= ensureQueues(boss, opts)
    return started
  }

  // The processing loops of this process.
  const alarms: ReturnType<typeof createAlarm>[] = []
  const loops: Promise<void>[] = []
  /** Jobs this process is running: their heartbeat is refreshed, and they are failed at a stop. */
  const running = new Set<string>()
  let stopping = false
  let heartbeat: NodeJS.Timeout | undefined
  let unlisten: (() => Promise<void>) | null = null
  const wakeAll = () => {
    for (const alarm of alarms) alarm.wake()
  }

  const beat = () => refreshLeases(client, boss, running, opts.leaseSeconds)

  async function loop(alarm: ReturnType<typeof createAlarm>, handler: Parameters<JobQueue['work']>[1]) {
    while (!stopping) {
      let job: PgBoss.JobWithMetadata<ProcessJob> | undefined
      try {
        ;[job] = (await boss.fetch<ProcessJob>(PROCESS_QUEUE, {
          batchSize: 1,
          includeMetadata: true,
        })) as PgBoss.JobWithMetadata<ProcessJob>[]
      } catch (error) {
        logger.error({ err: error }, 'fetching a job failed')
      }
      if (!job) {
        if (!stopping) await alarm.sleep(opts.pollingIntervalSeconds * 1000)
        continue
      }
      running.add(job.id)
      await runJob({ boss, logger, running, seconds: opts.expireInSeconds }, job, handler)
    }
  }

  return {
    options: opts,
    start,
    async enqueue(tx, job, owner) {
      await start()
      await enqueueJob(boss, tx, job, owner)
    },
    async work(concurrency, handler, onDead) {
      await start()
      stopping = false
      unlisten = await listen(db, logger, wakeAll)
      for (let i = 0; i < concurrency; i++) {
        const alarm = createAlarm()
        alarms.push(alarm)
        loops.push(loop(alarm, handler))
      }
      heartbeat = setInterval(() => {
        beat().catch((error) => logger.error({ err: error }, 'job heartbeat failed'))
      }, opts.heartbeatSeconds * 1000)
      heartbeat.unref()
      await boss.work<ProcessJob>(
        DEAD_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: Math.max(opts.pollingIntervalSeconds, 2) },
        async ([job]) => {
          if (job) await onDead(job.data)
        },
      )
    },
    async requeueOrphans() {
      await start()
      return requeueActive(client, boss)
    },
    async stop({ graceful = true } = {}) {
      if (!started) return
      stopping = true
      wakeAll()
      clearInterval(heartbeat)
      await unlisten?.().catch(() => {})
      unlisten = null
      if (graceful) {
        // Lets the running jobs finish (15 s at most, as pg-boss's own stop).
        await Promise.race([Promise.all(loops), new Promise((r) => setTimeout(r, 15_000).unref())])
      }
      // Jobs still running go back to the queue now rather than after their lease.
      if (running.size > 0) {
        for (const id of running) {
          await boss.fail(PROCESS_QUEUE, id, { message: 'worker stopped' }).catch(() => {})
        }
        running.clear()
      }
      alarms.length = 0
      loops.length = 0
      await boss.stop({ graceful, wait: true, timeout: 15_000 } as PgBoss.StopOptions)
      started = null
    },
  }
}

/**
 * The durable job queue: pg-boss on the application's own database, PostgreSQL or PGlite (through
 * pg-boss's `db.executeSql` adapter). A job is created inside the upload's transaction, so a
 * document never exists without its job nor a job without its document.
 */
import { PGlite } from '@electric-sql/pglite'
import { type SQL, sql } from 'drizzle-orm'
import PgBoss from 'pg-boss'
import type { Logger } from 'pino'
import type { AppDatabase } from '../db/client.ts'

export const PROCESS_QUEUE = 'document-process'
export const DEAD_QUEUE = 'document-process-dead'

export interface QueueOptions {
  /** Attempts after the first one. */
  retryLimit: number
  retryDelaySeconds: number
  /** A job running longer than this is considered crashed and retried. */
  expireInSeconds: number
  /** How often expired jobs are looked for. */
  maintenanceIntervalSeconds: number
  pollingIntervalSeconds: number
}

export const DEFAULT_QUEUE_OPTIONS: QueueOptions = {
  retryLimit: 2,
  retryDelaySeconds: 5,
  expireInSeconds: 600,
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
  const client = (db as unknown as { $client: unknown }).$client
  if (client instanceof PGlite) {
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
  const pool = client as { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> }
  return { executeSql: (text, values) => pool.query(text, values) }
}

export interface JobQueue {
  start(): Promise<void>
  /** Creates the processing job inside the caller's transaction. */
  enqueue(tx: Executor, job: ProcessJob): Promise<void>
  /** Registers `concurrency` workers for processing jobs and one for dead letters. */
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

export function createJobQueue(
  db: AppDatabase,
  logger: Logger,
  options: Partial<QueueOptions> = {},
): JobQueue {
  const opts = { ...DEFAULT_QUEUE_OPTIONS, ...options }
  const boss = new PgBoss({
    db: clientAdapter(db),
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds,
  } as PgBoss.ConstructorOptions)
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'))
  let started: Promise<void> | null = null
  const start = () => {
    started ??= (async () => {
      await boss.start()
      await boss.createQueue(DEAD_QUEUE, { name: DEAD_QUEUE, retryLimit: 0 })
      const queue = {
        name: PROCESS_QUEUE,
        retryLimit: opts.retryLimit,
        retryDelay: opts.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: opts.expireInSeconds,
        deadLetter: DEAD_QUEUE,
      }
      if (await boss.getQueue(PROCESS_QUEUE)) await boss.updateQueue(PROCESS_QUEUE, queue)
      else await boss.createQueue(PROCESS_QUEUE, queue)
    })()
    return started
  }
  return {
    options: opts,
    start,
    async enqueue(tx, job) {
      await start()
      await boss.send(PROCESS_QUEUE, job, { db: executorAdapter(tx) })
    },
    async work(concurrency, handler, onDead) {
      await start()
      for (let i = 0; i < concurrency; i++) {
        await boss.work<ProcessJob>(
          PROCESS_QUEUE,
          { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: opts.pollingIntervalSeconds },
          async ([job]) => {
            if (!job) return
            await handler(job.data, { id: job.id, retryCount: job.retryCount, retryLimit: job.retryLimit })
          },
        )
      }
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
      const { rows } = await clientAdapter(db).executeSql(
        `select id from pgboss.job where name = $1 and state = 'active'`,
        [PROCESS_QUEUE],
      )
      const ids = (rows as { id: string }[]).map((r) => r.id)
      // fail() sends the job back to 'retry' while it has attempts left (a crash counts as one).
      for (const id of ids) await boss.fail(PROCESS_QUEUE, id, { message: 'worker stopped' })
      return ids.length
    },
    async stop({ graceful = true } = {}) {
      if (!started) return
      await boss.stop({ graceful, wait: true, timeout: 15_000 } as PgBoss.StopOptions)
      started = null
    },
  }
}

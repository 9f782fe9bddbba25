import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzleNodePg, type NodePgDatabase } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite, type PgliteDatabase } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { ThreadedPGlite } from './pglite-threaded.ts'
import * as schema from './schema.ts'

/** One type for both drivers: code never needs to know which one runs. */
export type AppDatabase = PgDatabase<PgQueryResultHKT, typeof schema>

export interface DatabaseHandle {
  db: AppDatabase
  driver: 'pglite' | 'postgres'
  close(): Promise<void>
}

const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url))

/** PostgreSQL when `databaseUrl` is set, else the embedded PGlite under `dataDir/pgdata`. */
export async function openDatabase(options: {
  databaseUrl?: string
  dataDir: string
}): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(join(options.dataDir, 'pgdata'))
}

/**
 * `dataDir` undefined gives an in-memory database (tests). PGlite runs in a thread of its own
 * (see pglite-threaded.ts): its statements never hold up the HTTP server's thread.
 */
export async function openPglite(dataDir?: string): Promise<DatabaseHandle> {
  const release = dataDir ? lockDataDir(dataDir) : () => {}
  let client: ThreadedPGlite
  try {
    client = await ThreadedPGlite.create(dataDir)
  } catch (error) {
    release()
    throw error
  }
  // drizzle's PGlite driver only calls `query` and `transaction`, which the thread's proxy has.
  const db = drizzlePglite({ client: client as unknown as PGlite, schema })
  // PGlite has no autovacuum: without fresh statistics the planner keeps its first guesses and
  // stops choosing the dashboard's indexes as rows pile up. Refresh them now and then.
  const statistics = setInterval(() => {
    client.exec('ANALYZE').catch(() => {})
  }, ANALYZE_EVERY_MS)
  statistics.unref()
  return {
    db: db as unknown as AppDatabase,
    driver: 'pglite',
    async close() {
      clearInterval(statistics)
      await client.close()
      release()
    },
  }
}

const ANALYZE_EVERY_MS = 10 * 60_000

/** The embedded database behind `db` (PGlite's `query`, `exec`, `listen`), or null on PostgreSQL. */
export function embeddedClient(db: Pick<AppDatabase, 'execute'>): ThreadedPGlite | null {
  const client = (db as unknown as { $client?: unknown }).$client
  return client instanceof ThreadedPGlite ? client : null
}

/** Planner statistics refreshed now (after migrations at start-up, and in benchmarks after seeding). */
export async function refreshStatistics(handle: DatabaseHandle): Promise<void> {
  await handle.db.execute(sql`ANALYZE`)
}

const heldLocks = new Set<string>()

/**
 * PGlite does not guard its directory: two processes on one directory corrupt it. A pid file
 * next to it refuses a second process; a file left by a dead process is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lockFile = `${dataDir}.lock`
  const inUse = (owner: number) =>
    new Error(
      `the database in ${dataDir} is in use by another process (pid ${owner}); stop it or set DATA_DIR`,
    )
  if (heldLocks.has(lockFile)) throw inUse(process.pid)
  mkdirSync(dirname(lockFile), { recursive: true })
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' })
      heldLocks.add(lockFile)
      return () => {
        heldLocks.delete(lockFile)
        rmSync(lockFile, { force: true })
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const owner = Number(readFileSync(lockFile, 'utf8').trim())
    // Our own pid in a file we do not hold is a leftover (a container restarts as pid 1 again).
    if (owner > 0 && owner !== process.pid && isAlive(owner)) {
      throw inUse(owner)
    }
    rmSync(lockFile, { force: true })
  }
  throw new Error(`cannot lock ${dataDir}`)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export async function openPostgres(url: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  // An idle connection dropped by the server is replaced on the next checkout; without a
  // listener the 'error' event would crash the process.
  pool.on('error', () => {})
  try {
    await pool.query('select 1')
  } catch (error) {
    await pool.end().catch(() => {})
    throw new Error(`Cannot connect to DATABASE_URL: ${(error as Error).message}`)
  }
  const db = drizzleNodePg({ client: pool, schema })
  return {
    db: db as unknown as AppDatabase,
    driver: 'postgres',
    close: () => pool.end(),
  }
}

/** Applies the committed drizzle-kit migrations with the migrator of the handle's driver. */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_FOLDER }
  if (handle.driver === 'pglite') {
    await migratePglite(handle.db as unknown as PgliteDatabase<typeof schema>, config)
  } else {
    await migrateNodePg(handle.db as unknown as NodePgDatabase<typeof schema>, config)
  }
}

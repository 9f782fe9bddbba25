/**
 * Migration tests: a database migrated up to an older migration, so that a test writes rows as
 * that version did, then runs the rest; on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { afterAll, beforeAll, it } from 'vitest'
import { type DatabaseHandle, openPglite, openPostgres } from '../../server/db/client.ts'
import { createScratchDatabase } from './db.ts'

const MIGRATIONS = fileURLToPath(new URL('../../server/db/migrations', import.meta.url))

/** Applies the migrations up to index `last` (the folder copied to `dir` with a shorter journal). */
async function migrateUpTo(handle: DatabaseHandle, dir: string, last: number) {
  const folder = join(dir, `migrations-${last}`)
  await cp(MIGRATIONS, folder, { recursive: true })
  const journalPath = join(folder, 'meta', '_journal.json')
  const journal = JSON.parse(await readFile(journalPath, 'utf8'))
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx <= last)
  await writeFile(journalPath, JSON.stringify(journal))
  const config = { migrationsFolder: folder }
  if (handle.driver === 'pglite') await migratePglite(handle.db as never, config)
  else await migrateNodePg(handle.db as never, config)
}

/**
 * One test per driver: a fresh database migrated up to index `last`, handed to `run` (which writes
 * its rows, runs the remaining migrations with `migrateDatabase` and checks), then closed.
 */
export function itMigrates(what: string, last: number, run: (handle: DatabaseHandle) => Promise<void>) {
  const runOn = async (open: () => Promise<DatabaseHandle>) => {
    const dir = await mkdtemp(join(tmpdir(), 'docflow-migration-'))
    const handle = await open()
    try {
      await migrateUpTo(handle, dir, last)
      await run(handle)
    } finally {
      await handle.close()
      await rm(dir, { recursive: true, force: true })
    }
  }
  it(`${what}, on PGlite`, () => runOn(() => openPglite()), 60_000)
  const serverUrl = process.env.TEST_DATABASE_URL
  if (serverUrl) {
    let scratch: Awaited<ReturnType<typeof createScratchDatabase>>
    beforeAll(async () => {
      scratch = await createScratchDatabase(serverUrl)
    })
    afterAll(async () => {
      await scratch?.drop()
    })
    it(`${what}, on PostgreSQL`, () => runOn(() => openPostgres(scratch.url)), 60_000)
  }
}

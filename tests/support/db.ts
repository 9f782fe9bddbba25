/**
 * A migrated, empty database for one test file: a fresh `t_<random>` database on the server
 * named by TEST_DATABASE_URL (dropped on close), else an in-memory PGlite. Start-up costs
 * seconds, so create one per file (beforeAll), never per test.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { type DatabaseHandle, migrateDatabase, openPglite, openPostgres } from '../../server/db/client.ts'

export type TestDatabase = DatabaseHandle

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) {
    const handle = await openPglite()
    await migrateDatabase(handle)
    return handle
  }

  const name = `t_${randomBytes(6).toString('hex')}`
  await withAdminClient(serverUrl, (client) => client.query(`create database ${name}`))
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  let handle: DatabaseHandle
  try {
    handle = await openPostgres(url.toString())
    await migrateDatabase(handle)
  } catch (error) {
    await withAdminClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`))
    throw error
  }
  return {
    ...handle,
    async close() {
      await handle.close()
      await withAdminClient(serverUrl, (client) =>
        client.query(`drop database if exists ${name} with (force)`),
      )
    },
  }
}

async function withAdminClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

/** An empty database on the server of `serverUrl`, for a process under test to migrate itself. */
export async function createScratchDatabase(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `e_${randomBytes(6).toString('hex')}`
  await withAdminClient(serverUrl, (client) => client.query(`create database ${name}`))
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      await withAdminClient(serverUrl, (client) =>
        client.query(`drop database if exists ${name} with (force)`),
      )
    },
  }
}

import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateDatabase, openDatabase } from '../../server/db/client.ts'
import { users } from '../../server/db/schema.ts'

let dataDir: string
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docflow-db-'))
})
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

describe('embedded database (PGlite under DATA_DIR)', () => {
  it('keeps data across reopen, and refuses a second opener while held', async () => {
    const first = await openDatabase({ dataDir })
    expect(first.driver).toBe('pglite')
    await migrateDatabase(first)
    await first.db
      .insert(users)
      .values({ email: 'kept@example.com', name: 'Kep', surname: 'T', role: 'CLIENT_USER' })
    await expect(openDatabase({ dataDir })).rejects.toThrow(/in use by another process/)
    await first.close()
    await expect(stat(join(dataDir, 'pgdata.lock'))).rejects.toThrow()

    // A lock left by a dead process is taken over.
    await writeFile(join(dataDir, 'pgdata.lock'), '999999')
    const second = await openDatabase({ dataDir })
    await migrateDatabase(second) // already applied: a no-op
    const rows = await second.db.select().from(users)
    expect(rows.map((r) => r.email)).toEqual(['kept@example.com'])
    await second.close()
  })
})

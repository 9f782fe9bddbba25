/**
 * Migration 0014 adds the `Idempotency-Key` of an upload to its document: the documents stored
 * before keep none (and as many keyless documents as before may follow), while a key is unique
 * within a company and free in another one.
 */
import { type SQL, sql } from 'drizzle-orm'
import { describe, expect } from 'vitest'
import { migrateDatabase } from '../../server/db/client.ts'
import { documents } from '../../server/db/schema.ts'
import { databaseError } from '../../server/db/sql-state.ts'
import { itMigrates } from '../support/migrations.ts'

describe('migration 0014: upload keys', () => {
  itMigrates(
    'keeps the earlier documents keyless and one document per key and company',
    13,
    async (handle) => {
      const { db } = handle
      const insertId = async (query: SQL) =>
        ((await db.execute(query)) as unknown as { rows: { id: number }[] }).rows[0]!.id
      const company = (name: string) =>
        insertId(sql`insert into companies (name) values (${name}) returning id`)
      const [first, second] = [await company('Migration A'), await company('Migration B')]
      let stored = 0
      const insertDocument = (companyId: number, uploadKey?: string) =>
        db.insert(documents).values({
          companyId,
          kind: 'document',
          category: 'Administration',
          status: 'COMPLETED',
          originalName: 'a.pdf',
          contentType: 'application/pdf',
          sizeBytes: 1,
          sha256: '0'.repeat(64),
          storageKey: `key-${++stored}`,
          ...(uploadKey === undefined ? {} : { uploadKey }),
        })
      const before = await insertId(
        sql`insert into documents (company_id, kind, category, status, original_name, content_type, size_bytes, sha256, storage_key)
        values (${first}, 'document', 'Administration', 'COMPLETED', 'before.pdf', 'application/pdf', 1, ${'0'.repeat(64)}, 'before')
        returning id`,
      )

      await migrateDatabase(handle)

      const earlier = (await db.execute(
        sql`select upload_key from documents where id = ${before}`,
      )) as unknown as {
        rows: { upload_key: string | null }[]
      }
      expect(earlier.rows).toEqual([{ upload_key: null }])
      await insertDocument(first)
      await insertDocument(first)
      await insertDocument(first, 'k-1')
      await insertDocument(second, 'k-1')
      const refused = await insertDocument(first, 'k-1').then(
        () => null,
        (error: unknown) => databaseError(error)?.code,
      )
      expect(refused).toBe('23505')
      const counted = (await db.execute(
        sql`select count(*)::int as n, count(upload_key)::int as keyed from documents`,
      )) as unknown as { rows: { n: number; keyed: number }[] }
      expect(counted.rows[0]).toEqual({ n: 5, keyed: 2 })
    },
  )
})

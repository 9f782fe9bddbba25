/**
 * Migration 0011 makes a document's dashboard row show the document's status: rows written by the
 * previous version (each with its own copy, one of them out of step) lose their copy and show the
 * document's; rows without a document keep theirs; a document's row now goes with its document.
 */
import { eq, type SQL, sql } from 'drizzle-orm'
import { describe, expect } from 'vitest'
import { migrateDatabase } from '../../server/db/client.ts'
import { documents, logs } from '../../server/db/schema.ts'
import { dashboardRows } from '../../server/services/documents/lifecycle/document-service.ts'
import { itMigrates } from '../support/migrations.ts'

/** document status (or none), the row's own status as 0010 kept it → the status the row shows after. */
const CASES: [string, 'COMPLETED' | 'FAILED' | 'PROCESSING' | null, string, string][] = [
  ['completed, in step', 'COMPLETED', 'completed', 'completed'],
  ['failed, in step', 'FAILED', 'failed', 'failed'],
  ['processing, in step', 'PROCESSING', 'processing', 'processing'],
  ['failed, its row patched by a client', 'FAILED', 'completed', 'failed'],
  ['a refused file, no document', null, 'rejected', 'rejected'],
  ['a row a client created', null, 'pending', 'pending'],
]

describe('migration 0011: a dashboard row shows its document’s status', () => {
  itMigrates('moves the rows', 10, async (handle) => {
    const { db } = handle
    const insertId = async (query: SQL) =>
      ((await db.execute(query)) as unknown as { rows: { id: number }[] }).rows[0]!.id
    const companyId = await insertId(sql`insert into companies (name) values ('Migration') returning id`)
    const ids: { document: number | null; log: number }[] = []
    for (const [what, status, own] of CASES) {
      const document =
        status === null
          ? null
          : await insertId(
              sql`insert into documents (company_id, kind, category, status, original_name, content_type, size_bytes, sha256, storage_key)
                values (${companyId}, 'invoice', 'Invoices', ${status}, ${what}, 'application/pdf', 1, ${'0'.repeat(64)}, ${what})
                returning id`,
            )
      const log = await insertId(
        sql`insert into logs (company_id, document_id, name, type, status)
          values (${companyId}, ${document}, ${what}, 'Invoice', ${own}) returning id`,
      )
      ids.push({ document, log })
    }

    await migrateDatabase(handle)

    const shown = []
    for (const [i, [what]] of CASES.entries()) {
      const [row] = await dashboardRows(db).where(eq(logs.id, ids[i]!.log))
      const [stored] = await db.select({ status: logs.status }).from(logs).where(eq(logs.id, ids[i]!.log))
      shown.push([what, row!.status, stored!.status === null])
    }
    expect(shown).toEqual(CASES.map(([what, status, , after]) => [what, after, status !== null]))
    // A document's row goes with its document.
    const { document, log } = ids[0]!
    await db.delete(documents).where(eq(documents.id, document!))
    expect(await db.select().from(logs).where(eq(logs.id, log))).toEqual([])
  })
})

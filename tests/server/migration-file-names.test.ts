/**
 * Migration 0004 repairs file names stored garbled (UTF-8 read as latin1) and leaves every other
 * name as it was, on PGlite and (with TEST_DATABASE_URL) on PostgreSQL: the database is migrated
 * up to 0003, rows are written as the previous version stored them, then 0004 runs.
 */
import { randomUUID } from 'node:crypto'
import { eq, type SQL, sql } from 'drizzle-orm'
import { describe, expect } from 'vitest'
import { migrateDatabase } from '../../server/db/client.ts'
import { documents, logs } from '../../server/db/schema.ts'
import { itMigrates } from '../support/migrations.ts'

/** name as the previous version stored it → name after the migration. */
const CASES: [string, string, string][] = [
  ['garbled é (U+00E9 → C3 A9)', 'facture_Ã©tÃ©.pdf', 'facture_été.pdf'],
  ['garbled ç', 'reÃ§u_cafÃ©.pdf', 'reçu_café.pdf'],
  ['garbled ü', 'Rechnung_MÃ¼nchen.pdf', 'Rechnung_München.pdf'],
  // À is C3 80: garbled, it holds a C1 control character.
  ['garbled À (with a C1 control)', 'Ã\u0080 payer.pdf', 'À payer.pdf'],
  ['garbled €, 3 bytes', 'facture_â\u0082¬.pdf', 'facture_€.pdf'],
  ['garbled emoji, 4 bytes', 'reÃ§u_ð\u009f\u0091\u008d.pdf', 'reçu_👍.pdf'],
  // Repaired into U+202E, which then goes like every bidirectional control.
  ['garbled right-to-left override', 'invâ\u0080®fdp.exe', 'invfdp.exe'],
  ['plain ASCII', 'invoice-2026.pdf', 'invoice-2026.pdf'],
  ['stored right (latin1 bytes are not UTF-8)', 'café.pdf', 'café.pdf'],
  ['stored right, several accents', 'Müller_Straße_été.pdf', 'Müller_Straße_été.pdf'],
  ['stored right, beyond U+00FF', 'facture_€_Ã©.pdf', 'facture_€_Ã©.pdf'],
  ['stored right, other scripts', 'عقد_2026.pdf', 'عقد_2026.pdf'],
  ['not UTF-8 once re-encoded (C3 followed by ASCII)', 'Ãtude.pdf', 'Ãtude.pdf'],
  ['a bidi control stored by RFC 5987', 'inv\u202Efdp.exe', 'invfdp.exe'],
  ['only controls', '\u202E\u0007', 'file'],
  // The ambiguity accepted: a real name shaped like garbled UTF-8 is "repaired" too.
  ['ambiguous: really typed Ã©tude.pdf', 'Ã©tude.pdf', 'étude.pdf'],
]

describe('migration 0004: garbled file names', () => {
  itMigrates('repairs garbled names and leaves the others', 3, async (handle) => {
    const { db } = handle
    // Written with SQL, as the 0003 schema stood: the current schema has columns 0003 lacks.
    const insertId = async (query: SQL) =>
      ((await db.execute(query)) as unknown as { rows: { id: number }[] }).rows[0]!.id
    const companyId = await insertId(sql`insert into companies (name) values ('Migration') returning id`)
    const ids: { document: number; log: number; manualLog: number }[] = []
    for (const [, stored] of CASES) {
      const document = await insertId(
        sql`insert into documents (company_id, kind, category, status, original_name, content_type, size_bytes, sha256, storage_key)
            values (${companyId}, 'document', 'Administration', 'COMPLETED', ${stored}, 'application/pdf', 1, ${'0'.repeat(64)}, ${randomUUID()})
            returning id`,
      )
      const log = await insertId(
        sql`insert into logs (company_id, document_id, name, type, status)
            values (${companyId}, ${document}, ${stored}, 'Document', 'completed') returning id`,
      )
      // A row the client created itself (JSON, never garbled): not touched.
      const manualLog = await insertId(
        sql`insert into logs (company_id, name, type, status) values (${companyId}, ${stored}, 'Invoice', 'completed') returning id`,
      )
      ids.push({ document, log, manualLog })
    }

    await migrateDatabase(handle)

    const results = []
    for (const [i, [what, stored]] of CASES.entries()) {
      const [doc] = await db.select().from(documents).where(eq(documents.id, ids[i]!.document))
      const [log] = await db.select().from(logs).where(eq(logs.id, ids[i]!.log))
      const [manual] = await db.select().from(logs).where(eq(logs.id, ids[i]!.manualLog))
      results.push([what, doc!.originalName, log!.name, manual!.name === stored])
    }
    expect(results).toEqual(CASES.map(([what, , repaired]) => [what, repaired, repaired, true]))
    // The helper function is gone.
    const fn = await db.execute(
      "select count(*)::int as n from pg_proc where proname = 'docflow_repaired_file_name'",
    )
    expect((fn as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0)
  })
})

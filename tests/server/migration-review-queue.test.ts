/**
 * Migration 0013 starts the review queue with the documents processed before it: a finished
 * invoice or expense that is FAILED, warned or holds a field under 0.6 confidence needs review,
 * unless a user corrected it after it was processed; the dashboard rows copy the flag, and keep
 * copying it when the document changes.
 */
import { eq, type SQL, sql } from 'drizzle-orm'
import { describe, expect } from 'vitest'
import { migrateDatabase } from '../../server/db/client.ts'
import { documents, logs } from '../../server/db/schema.ts'
import { itMigrates } from '../support/migrations.ts'

type Case = {
  what: string
  kind?: string
  status: 'COMPLETED' | 'FAILED' | 'PROCESSING'
  warnings?: string[]
  confidence?: number
  corrected?: 'after' | 'before'
  needsReview: boolean
}

const CASES: Case[] = [
  { what: 'clean and sure', status: 'COMPLETED', confidence: 0.95, needsReview: false },
  { what: 'failed', status: 'FAILED', needsReview: true },
  { what: 'warned', status: 'COMPLETED', warnings: ['date_in_future'], needsReview: true },
  { what: 'a field under 0.6', status: 'COMPLETED', confidence: 0.4, needsReview: true },
  {
    what: 'warned, corrected since',
    status: 'COMPLETED',
    warnings: ['duplicate'],
    corrected: 'after',
    needsReview: false,
  },
  {
    what: 'failed, corrected before its last processing',
    status: 'FAILED',
    corrected: 'before',
    needsReview: true,
  },
  { what: 'still processing', status: 'PROCESSING', needsReview: false },
  { what: 'a general document', kind: 'document', status: 'COMPLETED', needsReview: false },
]

describe('migration 0013: the review queue of documents processed before it', () => {
  itMigrates('flags the documents to review and copies the flag to their rows', 12, async (handle) => {
    const { db } = handle
    const insertId = async (query: SQL) =>
      ((await db.execute(query)) as unknown as { rows: { id: number }[] }).rows[0]!.id
    const companyId = await insertId(sql`insert into companies (name) values ('Migration') returning id`)
    const ids: number[] = []
    for (const c of CASES) {
      const evidence =
        c.confidence === undefined
          ? {}
          : { invoice_date: { page: 1, box: [0, 0, 0.1, 0.1], confidence: c.confidence, alternatives: [] } }
      const id = await insertId(
        sql`insert into documents (company_id, kind, category, status, original_name, content_type, size_bytes,
            sha256, storage_key, warnings, field_evidence, processed_at)
          values (${companyId}, ${c.kind ?? 'invoice'}, 'Invoices', ${c.status}, ${c.what}, 'application/pdf', 1,
            ${'0'.repeat(64)}, ${c.what}, ${JSON.stringify(c.warnings ?? [])}::jsonb, ${JSON.stringify(evidence)}::jsonb,
            '2026-06-01T10:00:00Z')
          returning id`,
      )
      await db.execute(
        sql`insert into logs (company_id, document_id, name, type) values (${companyId}, ${id}, ${c.what}, 'Invoice')`,
      )
      if (c.corrected)
        await db.execute(
          sql`insert into document_changes (document_id, company_id, field, created_at)
            values (${id}, ${companyId}, 'invoice_number',
              ${c.corrected === 'after' ? '2026-06-02T10:00:00Z' : '2026-05-01T10:00:00Z'})`,
        )
      ids.push(id)
    }

    await migrateDatabase(handle)

    const flags = []
    for (const [i, c] of CASES.entries()) {
      const [doc] = await db
        .select({ flag: documents.needsReview })
        .from(documents)
        .where(eq(documents.id, ids[i]!))
      const [row] = await db.select({ flag: logs.needsReview }).from(logs).where(eq(logs.documentId, ids[i]!))
      flags.push([c.what, doc!.flag, row!.flag])
    }
    expect(flags).toEqual(CASES.map((c) => [c.what, c.needsReview, c.needsReview]))
    // The row keeps following its document.
    await db.update(documents).set({ needsReview: false }).where(eq(documents.id, ids[1]!))
    const [row] = await db.select({ flag: logs.needsReview }).from(logs).where(eq(logs.documentId, ids[1]!))
    expect(row!.flag).toBe(false)
  })
})

/**
 * A company's invoices or expenses as the list calls answer them (`GET /invoices/company`, by
 * status), newest first, read in batches bounded by rows and by bytes: a batch holds at most
 * BATCH_ROWS documents and, past its first, no more than BATCH_BYTES of e-invoice data (the one
 * column whose size a document decides; every other text is bounded by the field limits), so
 * neither a company's count of documents nor one large document makes the server hold an answer.
 */
import { and, desc, inArray, lt, type SQL, sql } from 'drizzle-orm'
import type { AppDatabase } from '../../db/client.ts'
import { type DocumentRow, documents } from '../../db/schema.ts'

export interface BatchLimits {
  rows: number
  bytes: number
}

const BATCH: BatchLimits = { rows: 100, bytes: 4 * 1024 * 1024 }

/** The documents `where` selects, newest first, one batch at a time. */
export async function* documentBatches(
  db: AppDatabase,
  where: SQL | undefined,
  limits: BatchLimits = BATCH,
): AsyncGenerator<DocumentRow[]> {
  let before: number | null = null
  for (;;) {
    const sizes: { id: number; bytes: number }[] = await db
      .select({
        id: documents.id,
        bytes: sql<number>`coalesce(octet_length(${documents.einvoice}::text), 0)::int`,
      })
      .from(documents)
      .where(and(where, before === null ? undefined : lt(documents.id, before)))
      .orderBy(desc(documents.id))
      .limit(limits.rows)
    if (sizes.length === 0) return
    const ids: number[] = []
    let bytes = 0
    for (const size of sizes) {
      if (ids.length > 0 && bytes + Number(size.bytes) > limits.bytes) break
      ids.push(size.id)
      bytes += Number(size.bytes)
    }
    yield await db.select().from(documents).where(inArray(documents.id, ids)).orderBy(desc(documents.id))
    if (ids.length === sizes.length && sizes.length < limits.rows) return
    before = ids[ids.length - 1]!
  }
}

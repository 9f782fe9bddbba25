/** Building blocks of the review tests: processed invoices and expenses inserted as rows, with their log entry. */
import { createHash, randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { AppDatabase } from '../../server/db/client.ts'
import { type DocumentRow, documents, logs } from '../../server/db/schema.ts'
import { dashboardRows } from '../../server/services/documents/lifecycle/document-service.ts'

/** A processed invoice or expense (COMPLETED, consistent totals, unless overridden) and its log entry. */
export async function insertProcessed(
  db: AppDatabase,
  companyId: number,
  overrides: Partial<typeof documents.$inferInsert> = {},
): Promise<DocumentRow> {
  const kind = overrides.kind ?? 'invoice'
  const name = overrides.originalName ?? `${randomUUID()}.pdf`
  const [row] = await db
    .insert(documents)
    .values({
      companyId,
      kind,
      category: kind === 'invoice' ? 'Invoices' : 'Expenses',
      status: 'COMPLETED',
      originalName: name,
      contentType: 'application/pdf',
      sizeBytes: 10,
      sha256: createHash('sha256').update(name).digest('hex'),
      storageKey: randomUUID(),
      invoiceNumber: kind === 'invoice' ? `N-${randomUUID().slice(0, 8)}` : null,
      documentDate: '2025-06-01',
      businessName: 'Supplier',
      totalChargeExcludingVat: 100,
      totalVatAmount: 20,
      totalInvoiceIncludingVat: 120,
      hasVat: true,
      currency: 'EUR',
      ...overrides,
    })
    .returning()
  // The row shows the document's status: it has none of its own.
  await db.insert(logs).values({
    companyId,
    documentId: row!.id,
    name,
    type: kind === 'invoice' ? 'Invoice' : 'Expense',
    category: row!.category,
  })
  return row!
}

/** The status the document's dashboard row shows. */
export async function logStatusOf(db: AppDatabase, documentId: number): Promise<string | undefined> {
  const [log] = await dashboardRows(db).where(eq(logs.documentId, documentId))
  return log?.status
}

export const patchJson = (body: unknown): RequestInit => ({
  method: 'PATCH',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
})

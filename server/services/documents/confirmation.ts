/**
 * A reviewer's confirmation of an invoice or expense as it is (`document.confirm`): its status
 * stays, who and when are recorded (the document's `reviewed_at` / `reviewed_by` and a history
 * line), and it leaves the review queue until it is processed again.
 */
import { and, eq } from 'drizzle-orm'
import { CONFIRMED_FIELD } from '../../../contract/document-calls.ts'
import type { FinancialKind } from '../../../contract/index.ts'
import type { AppDatabase } from '../../db/client.ts'
import { type DocumentRow, documentChanges, documents } from '../../db/schema.ts'
import { HttpError } from '../../http/errors.ts'
import { applyTransition } from './lifecycle/document-service.ts'

export async function confirmDocument(
  db: AppDatabase,
  input: { companyId: number; id: number; kind: FinancialKind; userId: number; now: Date },
): Promise<DocumentRow> {
  const { companyId, id, kind, userId, now } = input
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(documents)
      .where(and(eq(documents.id, id), eq(documents.companyId, companyId), eq(documents.kind, kind)))
      .for('update')
    if (!row) throw new HttpError(404, 'Document not found')
    // 409 while the document is being processed (nothing to confirm yet).
    const { row: updated } = await applyTransition(
      tx,
      row,
      { type: 'document.confirm' },
      { reviewedAt: now, reviewedBy: userId, updatedAt: now },
    )
    await tx.insert(documentChanges).values({
      documentId: id,
      companyId,
      field: CONFIRMED_FIELD,
      oldValue: null,
      newValue: updated!.status,
      userId,
      createdAt: now,
    })
    return updated!
  })
}

/** A correction's history, read for the company the request acts for. */
import { and, desc, eq } from 'drizzle-orm'
import type { FinancialKind } from '../../../contract/index.ts'
import type { AppDatabase } from '../../db/client.ts'
import { documentChanges, documents, users } from '../../db/schema.ts'
import { HttpError } from '../../http/errors.ts'

/** The changes made to the company's document, newest first; 404 when it is not the company's. */
export async function documentHistory(db: AppDatabase, companyId: number, id: number, kind: FinancialKind) {
  const [doc] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.id, id), eq(documents.companyId, companyId), eq(documents.kind, kind)))
  if (!doc) throw new HttpError(404, 'Document not found')
  const rows = await db
    .select({ change: documentChanges, email: users.email })
    .from(documentChanges)
    .leftJoin(users, eq(users.id, documentChanges.userId))
    .where(eq(documentChanges.documentId, id))
    .orderBy(desc(documentChanges.createdAt), desc(documentChanges.id))
  return rows.map(({ change, email }) => ({
    field: change.field,
    old_value: change.oldValue,
    new_value: change.newValue,
    user: change.userId !== null && email !== null ? { id: change.userId, email } : null,
    at: change.createdAt.toISOString(),
  }))
}

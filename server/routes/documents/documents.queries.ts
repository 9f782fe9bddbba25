/** The document calls' reads, each scoped to the company the request acts for. */
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm'
import type { DocumentKind } from '../../../contract/index.ts'
import type { AppDatabase } from '../../db/client.ts'
import { type DocumentRow, documents } from '../../db/schema.ts'
import { HttpError } from '../../http/errors.ts'

export const DOCUMENT_NOT_FOUND = 'Document not found'

/** The company's document (of `kind`, when given); 404 otherwise. */
export async function findDocument(
  db: AppDatabase,
  companyId: number,
  id: number,
  kind?: DocumentKind,
): Promise<DocumentRow> {
  const conditions: SQL[] = [eq(documents.id, id), eq(documents.companyId, companyId)]
  if (kind) conditions.push(eq(documents.kind, kind))
  const [row] = await db
    .select()
    .from(documents)
    .where(and(...conditions))
  if (!row) throw new HttpError(404, DOCUMENT_NOT_FOUND)
  return row
}

/**
 * The company's document an upload with this `Idempotency-Key` created, if one did, with what the
 * retry is checked against (its content's SHA-256 and its kind).
 */
export async function findUploaded(
  db: AppDatabase,
  companyId: number,
  uploadKey: string,
): Promise<Pick<DocumentRow, 'id' | 'status' | 'sha256' | 'kind'> | null> {
  const [row] = await db
    .select({ id: documents.id, status: documents.status, sha256: documents.sha256, kind: documents.kind })
    .from(documents)
    .where(and(eq(documents.companyId, companyId), eq(documents.uploadKey, uploadKey)))
  return row ?? null
}

/** One page of the company's documents, newest first, and their total. */
export async function documentPage(
  db: AppDatabase,
  companyId: number,
  { page, limit }: { page: number; limit: number },
): Promise<{ rows: DocumentRow[]; total: number }> {
  const where = eq(documents.companyId, companyId)
  const rows = await db
    .select()
    .from(documents)
    .where(where)
    .orderBy(desc(documents.id))
    .limit(limit)
    .offset((page - 1) * limit)
  const [total] = await db.select({ n: count() }).from(documents).where(where)
  return { rows, total: total?.n ?? 0 }
}

/** The company's documents of `kind` among `ids` (those of other companies are simply absent). */
export function documentsByIds(db: AppDatabase, companyId: number, kind: DocumentKind, ids: number[]) {
  return db
    .select()
    .from(documents)
    .where(and(eq(documents.companyId, companyId), eq(documents.kind, kind), inArray(documents.id, ids)))
}

/** The company's documents still processing, newest first. */
export function processingDocuments(db: AppDatabase, companyId: number) {
  return db
    .select()
    .from(documents)
    .where(and(eq(documents.companyId, companyId), eq(documents.status, 'PROCESSING')))
    .orderBy(desc(documents.id))
}

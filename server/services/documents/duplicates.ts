/** The likely duplicate of a document: an earlier invoice or expense of the company, same file or same supplier and number. */
import { and, desc, eq, lt, ne, or, sql } from 'drizzle-orm'
import type { AppDatabase } from '../../db/client.ts'
import { documents } from '../../db/schema.ts'
import type { ExtractedFields } from '../extraction/fields.ts'
import { duplicateKey } from './quality.ts'

export interface Duplicate {
  document_id: number
  name: string
  kind: string
}

/** The most recent earlier document this one duplicates, or null. */
export async function findDuplicate(
  db: AppDatabase,
  doc: { id: number; companyId: number; sha256: string },
  fields: Pick<ExtractedFields, 'business_name' | 'invoice_number'>,
): Promise<Duplicate | null> {
  const key = duplicateKey(fields)
  const sameFile = eq(documents.sha256, doc.sha256)
  const sameSupplierAndNumber = key
    ? and(
        sql`lower(regexp_replace(trim(${documents.businessName}), '\\s+', ' ', 'g')) = ${key.name}`,
        sql`lower(regexp_replace(${documents.invoiceNumber}, '\\s', '', 'g')) = ${key.number}`,
      )
    : undefined
  const [earlier] = await db
    .select({ id: documents.id, name: documents.originalName, kind: documents.kind })
    .from(documents)
    .where(
      and(
        eq(documents.companyId, doc.companyId),
        ne(documents.kind, 'document'),
        lt(documents.id, doc.id),
        sameSupplierAndNumber ? or(sameFile, sameSupplierAndNumber) : sameFile,
      ),
    )
    .orderBy(desc(documents.id))
    .limit(1)
  return earlier ? { document_id: earlier.id, name: earlier.name, kind: earlier.kind } : null
}

/**
 * A page's stored words, read for the company the request acts for. A document processed before
 * the words were kept, a general document and a file nothing could be read from have none: 404
 * saying so (processing the document again stores them).
 */
import { and, eq } from 'drizzle-orm'
import type { PageWords } from '../../../contract/index.ts'
import type { AppDatabase } from '../../db/client.ts'
import { documentPages, documents } from '../../db/schema.ts'
import { HttpError } from '../../http/errors.ts'

export const DOCUMENT_NOT_FOUND = 'Document not found'
const PAGE_NOT_FOUND = 'Page not found'
/** No words stored: a general document, a file nothing could be read from, or one processed before they were kept. */
const NO_WORDS =
  'No words are stored for this page: the document was not read, or was read before words were kept'

/**
 * Page `page` of the company's document: 404 when the document is not the company's, the page is
 * not one of its pages, or its words were never stored.
 */
export async function readPageWords(
  db: AppDatabase,
  target: { companyId: number; id: number; page: number },
): Promise<PageWords> {
  const [doc] = await db
    .select({ pages: documents.pages })
    .from(documents)
    .where(and(eq(documents.id, target.id), eq(documents.companyId, target.companyId)))
  if (!doc) throw new HttpError(404, DOCUMENT_NOT_FOUND)
  if (doc.pages !== null && target.page > doc.pages) throw new HttpError(404, PAGE_NOT_FOUND)
  const [row] = await db
    .select({ width: documentPages.width, height: documentPages.height, words: documentPages.words })
    .from(documentPages)
    .where(and(eq(documentPages.documentId, target.id), eq(documentPages.page, target.page)))
  if (!row) throw new HttpError(404, NO_WORDS)
  return row
}

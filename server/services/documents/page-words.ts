/**
 * The words of a processed document's pages (`document_pages`), written with its processing's
 * outcome (read by `GET /documents/{id}/pages/{n}/words`, routes/document-pages).
 */
import { eq } from 'drizzle-orm'
import { cleanText } from '../../../contract/index.ts'
import type { AppDatabase } from '../../db/client.ts'
import { documentPages } from '../../db/schema.ts'
import type { PageWords as ReadPage } from '../extraction/index.ts'

type Executor = Parameters<Parameters<AppDatabase['transaction']>[0]>[0]

/** Longest word kept (a run of characters without a space: a long reference, a URL). */
const MAX_WORD = 200

/** Replaces the document's pages with what its processing read (in the outcome's transaction). */
export async function storePageWords(tx: Executor, documentId: number, pages: ReadPage[]): Promise<void> {
  await tx.delete(documentPages).where(eq(documentPages.documentId, documentId))
  if (pages.length === 0) return
  await tx.insert(documentPages).values(
    pages.map((p) => ({
      documentId,
      page: p.page,
      width: p.width,
      height: p.height,
      // What a file's text layer holds follows the text rule too (no NUL, no lone surrogate).
      words: p.words
        .map((w) => ({ text: cleanText(w.text, { max: MAX_WORD }), box: w.box }))
        .filter((w) => w.text !== ''),
    })),
  )
}

/**
 * The extraction engine: a file's bytes in, the Invoice / Expense fields out. PDFs are read
 * from their text layer; only images and pages without text go through OCR.
 */
import { type ExtractedFields, extractFields } from './fields.ts'
import type { OcrPool } from './ocr.ts'
import { type PageText, readPdf } from './pdf-text.ts'

export type { ExtractedFields } from './fields.ts'
export { createOcrPool, type OcrPool } from './ocr.ts'

export interface Extraction {
  fields: ExtractedFields
  pages: number
  textPages: number
  ocrPages: number
  textMs: number
  ocrMs: number
}

/** A file the engine cannot read (not a PDF/image it can parse, or nothing legible in it). */
export class UnreadableFileError extends Error {
  constructor(
    readonly code: 'unreadable_file' | 'no_text',
    message: string,
  ) {
    super(message)
    this.name = 'UnreadableFileError'
  }
}

export async function extractDocument(
  data: Uint8Array,
  contentType: string,
  ocr: OcrPool,
): Promise<Extraction> {
  let pages: PageText[]
  let textPages = 0
  let ocrPages = 0
  let textMs = 0
  let ocrMs = 0
  if (contentType === 'application/pdf') {
    const started = performance.now()
    let pdf: Awaited<ReturnType<typeof readPdf>>
    try {
      pdf = await readPdf(data)
    } catch (error) {
      throw new UnreadableFileError('unreadable_file', `The PDF cannot be read: ${(error as Error).message}`)
    }
    try {
      textMs = performance.now() - started
      pages = pdf.pages
      textPages = pages.length - pdf.emptyPages.length
      for (const n of pdf.emptyPages) {
        const image = await pdf.pageImage(n)
        if (!image) continue
        const t = performance.now()
        const page = await ocr.recognize(image, { pageWidthPt: pages[n - 1]!.width })
        ocrMs += performance.now() - t
        ocrPages += 1
        pages[n - 1] = { ...page, page: n, lines: page.lines.map((l) => ({ ...l, page: n })) }
      }
    } finally {
      await pdf.close()
    }
  } else if (contentType === 'image/png' || contentType === 'image/jpeg') {
    const t = performance.now()
    try {
      pages = [await ocr.recognize(Buffer.from(data))]
    } catch (error) {
      throw new UnreadableFileError('unreadable_file', `The image cannot be read: ${String(error)}`)
    }
    ocrMs = performance.now() - t
    ocrPages = 1
  } else {
    throw new UnreadableFileError('unreadable_file', `Unsupported content type ${contentType}`)
  }
  if (pages.every((p) => p.lines.length === 0)) {
    throw new UnreadableFileError('no_text', 'No text could be read from the file')
  }
  const t = performance.now()
  const fields = extractFields(pages)
  if (ocrPages === 0) textMs += performance.now() - t
  return { fields, pages: pages.length, textPages, ocrPages, textMs, ocrMs }
}

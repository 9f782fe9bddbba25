/**
 * The extraction engine: a file's bytes in, the Invoice / Expense fields out. PDFs are read
 * from their text layer; only images and pages without text go through OCR.
 */
import { type ExtractedFields, extractFields } from './fields.ts'
import {
  checkImage,
  DEFAULT_LIMITS,
  type ExtractionLimits,
  largestPdfImage,
  tooLarge,
  tooManyPages,
  UnreadableFileError,
} from './limits.ts'
import type { OcrPool } from './ocr.ts'
import { type PageText, readPdf } from './pdf-text.ts'

export type { ExtractedFields } from './fields.ts'
export { DEFAULT_LIMITS, type ExtractionLimits, UnreadableFileError } from './limits.ts'
export { createOcrPool, type OcrPool } from './ocr.ts'

export interface Extraction {
  fields: ExtractedFields
  pages: number
  textPages: number
  ocrPages: number
  textMs: number
  ocrMs: number
}

export interface ExtractOptions {
  /** Pixel and page limits checked before decoding (default DEFAULT_LIMITS). */
  limits?: Partial<ExtractionLimits>
  /** Called as each page starts (text layer and OCR), so a watchdog can time pages. */
  onPage?: (page: number) => void
}

export async function extractDocument(
  data: Uint8Array,
  contentType: string,
  ocr: OcrPool,
  options: ExtractOptions = {},
): Promise<Extraction> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits }
  let pages: PageText[]
  let textPages = 0
  let ocrPages = 0
  let textMs = 0
  let ocrMs = 0
  if (contentType === 'application/pdf') {
    const started = performance.now()
    let pdf: Awaited<ReturnType<typeof readPdf>>
    try {
      pdf = await readPdf(data, {
        maxPages: limits.maxPages,
        maxImagePixels: limits.maxPixels,
        onPage: options.onPage,
      })
    } catch (error) {
      if (error instanceof UnreadableFileError) throw error
      throw new UnreadableFileError('unreadable_file', `The PDF cannot be read: ${(error as Error).message}`)
    }
    try {
      textMs = performance.now() - started
      pages = pdf.pages
      textPages = pages.length - pdf.emptyPages.length
      // Limits of the pages to OCR, checked before any page image is decoded.
      if (pdf.emptyPages.length > limits.maxOcrPages)
        throw tooManyPages(pdf.emptyPages.length, limits.maxOcrPages, true)
      if (pdf.emptyPages.length > 0) {
        const largest = largestPdfImage(data)
        const error = largest && tooLarge(largest, limits, 'An image of the PDF')
        if (error) throw error
      }
      for (const n of pdf.emptyPages) {
        options.onPage?.(n)
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
    checkImage(data, contentType, limits)
    options.onPage?.(1)
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

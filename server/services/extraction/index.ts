/**
 * The extraction engine: a file's bytes in, the Invoice / Expense fields out. PDFs are read
 * from their text layer; only images and pages without text go through OCR.
 */
import type { EInvoice } from '../einvoice/index.ts'
import { readEmbeddedInvoice, readXmlInvoice, type VisualReading } from './einvoice.ts'
import { type ExtractedFields, extractFields } from './fields.ts'
import {
  checkImage,
  DEFAULT_LIMITS,
  type ExtractionLimits,
  imageSize,
  largestPdfImage,
  tooLarge,
  tooManyPages,
  UnreadableFileError,
} from './limits.ts'
import { defaultLayout, type OcrHint, type OcrLayout, type OcrPool, type OcrRegion } from './ocr.ts'
import type { LineReading } from './ocr-letters.ts'
import { dateStrips, rereadDoubtful } from './ocr-lines.ts'
import { correctPage } from './ocr-words.ts'
import { type PageWords, pageWords } from './page-words.ts'
import { type Line, type PageText, readPdf } from './pdf-text.ts'
import type { Models } from './scoring/model.ts'
import { secondOpinions } from './second-opinion.ts'

export type { ExtractedFields } from './fields.ts'
export { UnreadableFileError } from './limits.ts'
export { createOcrPool, type OcrHint, type OcrPool } from './ocr.ts'
export { dateStrips } from './ocr-lines.ts'
export type { PageWords } from './page-words.ts'

export interface Extraction {
  fields: ExtractedFields
  pages: number
  textPages: number
  ocrPages: number
  textMs: number
  ocrMs: number
  /** An e-invoice's data, when the file is one (its fields then come from it). */
  einvoice?: EInvoice
  /** For an e-invoice PDF: what the visual engine read on its page. */
  visual?: VisualReading | null
  /** Each page's words as first read (text layer or OCR), for the review screens; none for XML. */
  words?: PageWords[]
}

export interface ExtractOptions {
  /** Pixel and page limits checked before decoding (default DEFAULT_LIMITS). */
  limits?: Partial<ExtractionLimits>
  /** Called as each page starts (text layer and OCR), so a watchdog can time pages. */
  onPage?: (page: number) => void
  /** Weights in place of the committed ones (the bench's grouped cross-validation of the whole engine). */
  models?: Models
}

/** A scanned page's ways of being read again. */
interface Reread {
  n: number
  closer: () => Promise<PageText>
  /** The page read as one block of lines (OcrLayout `block`). */
  block: () => Promise<PageText>
  strip: (region: OcrRegion) => Promise<PageText>
  /** A second opinion on one line's letters (ocr-letters.ts), when the pool has one. */
  line: (region: OcrRegion) => Promise<LineReading | null>
}

export type PageReading =
  | { einvoice: Extraction }
  | {
      pages: PageText[]
      rereads: Reread[]
      textPages: number
      ocrPages: number
      textMs: number
      ocrMs: number
    }

/** An e-invoice PDF's reading: its data, with its pages' counts and words. */
function embeddedExtraction(
  embedded: Pick<Extraction, 'fields' | 'einvoice' | 'visual'>,
  pdf: { pages: PageText[]; emptyPages: number[] },
  ms: number,
): Extraction {
  const textPages = pdf.pages.length - pdf.emptyPages.length
  return {
    ...embedded,
    pages: pdf.pages.length,
    textPages,
    ocrPages: 0,
    textMs: ms,
    ocrMs: 0,
    words: pageWords(pdf.pages),
  }
}

/**
 * A document's page model (text layer, OCR for images and pages without text, its doubtful top
 * lines read again) with the ways to read its scanned pages again, or, for an e-invoice, its data.
 */
export async function readPages(
  data: Uint8Array,
  contentType: string,
  pool: OcrPool,
  options: ExtractOptions = {},
): Promise<PageReading> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits }
  // Every OCR reading has its doubtful words checked against the vocabulary.
  const ocr: Pick<OcrPool, 'recognize'> = {
    recognize: async (image, hint) => correctPage(await pool.recognize(image, hint)),
  }
  let pages: PageText[]
  let textPages = 0
  let ocrPages = 0
  let textMs = 0
  let ocrMs = 0
  /**
   * The OCR'd pages, each with its other readings (closer: enlarged, ink darkened; as one block;
   * strips; a line's second opinion), used in turn while required fields are missing.
   */
  const rereads: Reread[] = []
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
      const embedded = await readEmbeddedInvoice(pdf)
      if (embedded) return { einvoice: embeddedExtraction(embedded, pdf, performance.now() - started) }
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
        const widthPt = pages[n - 1]!.width
        const hint: OcrHint = { pageWidthPt: widthPt, layout: defaultLayout({ widthPt }) }
        const t = performance.now()
        const first = await ocr.recognize(image, hint)
        // The top lines it was unsure of (the merchant or supplier) read again, enlarged.
        const page = await rereadDoubtful(first, (region) => ocr.recognize(image, { ...hint, region }))
        ocrMs += performance.now() - t
        ocrPages += 1
        pages[n - 1] = { ...page, page: n, lines: page.lines.map((l) => ({ ...l, page: n })) }
        rereads.push({
          n,
          closer: () => ocr.recognize(image, { ...hint, enhance: true }),
          block: () => ocr.recognize(image, { ...hint, layout: 'block' }),
          strip: (region) => ocr.recognize(image, { ...hint, region }),
          line: async (region) => (pool.readLine ? pool.readLine(image, { ...hint, region }) : null),
        })
      }
    } finally {
      await pdf.close()
    }
  } else if (contentType === 'application/xml') {
    const started = performance.now()
    const reading = readXmlInvoice(data)
    return {
      einvoice: {
        ...reading,
        pages: 0,
        textPages: 0,
        ocrPages: 0,
        textMs: performance.now() - started,
        ocrMs: 0,
      },
    }
  } else if (contentType === 'image/png' || contentType === 'image/jpeg') {
    const t = performance.now()
    checkImage(data, contentType, limits)
    options.onPage?.(1)
    const image = Buffer.from(data)
    let layout: OcrLayout = 'auto'
    try {
      const first = await ocr.recognize(image)
      layout = first.layout ?? 'auto'
      pages = [await rereadDoubtful(first, (region) => ocr.recognize(image, { layout, region }))]
    } catch (error) {
      throw new UnreadableFileError('unreadable_file', `The image cannot be read: ${String(error)}`)
    }
    ocrMs = performance.now() - t
    ocrPages = 1
    rereads.push({
      n: 1,
      closer: () => ocr.recognize(image, { layout, enhance: true }),
      block: () => ocr.recognize(image, { layout: 'block' }),
      strip: (region) => ocr.recognize(image, { layout, region }),
      line: async (region) => (pool.readLine ? pool.readLine(image, { layout, region }) : null),
    })
  } else {
    throw new UnreadableFileError('unreadable_file', `Unsupported content type ${contentType}`)
  }
  return { pages, rereads, textPages, ocrPages, textMs, ocrMs }
}

export async function extractDocument(
  data: Uint8Array,
  contentType: string,
  pool: OcrPool,
  options: ExtractOptions = {},
): Promise<Extraction> {
  const reading = await readPages(data, contentType, pool, options)
  if ('einvoice' in reading) return reading.einvoice
  const { pages, rereads, textPages, ocrPages } = reading
  let { textMs, ocrMs } = reading
  if (pages.every((p) => p.lines.length === 0)) {
    throw new UnreadableFileError('no_text', 'No text could be read from the file')
  }
  // The first reading's words (an image's size in pixels), before any page is read again.
  const words = pageWords(pages, contentType.startsWith('image/') ? imageSize(data, contentType) : undefined)
  const t = performance.now()
  const { models } = options
  let fields = extractFields(pages, models)
  if (ocrPages === 0) textMs += performance.now() - t
  // A required field OCR found no candidate for (a faded date, a total row read as noise): the
  // scanned pages are read again closer (enlarged, ink darkened), then as one block of lines, and
  // the missing fields taken from those readings, so a document is FAILED only when no reading
  // holds a candidate. (A reading in the other layout, column for auto or auto for column, filled
  // none of the 13 missing fields it was asked for on the visible scans: no longer read.)
  for (const which of ['closer', 'block'] as const) {
    if (rereads.length === 0 || !missingRequired(fields)) break
    const t2 = performance.now()
    const again = [...pages]
    for (const reread of rereads) {
      options.onPage?.(reread.n)
      try {
        const page = await reread[which]()
        again[reread.n - 1] = {
          ...page,
          page: reread.n,
          lines: page.lines.map((l) => ({ ...l, page: reread.n })),
        }
      } catch {
        // The first reading stands.
      }
    }
    ocrMs += performance.now() - t2
    fields = fillMissing(fields, extractFields(again, models))
  }
  // Still no date: the lines that should hold one (a date label, a till's time, a row of digits
  // and slashes) are read again on their own, enlarged, and the date taken from them.
  if (rereads.length > 0 && !fields.document_date) {
    const t3 = performance.now()
    const again = [...pages]
    for (const reread of rereads) {
      const page = pages[reread.n - 1]!
      const strips = dateStrips(page)
      if (strips.length === 0) continue
      options.onPage?.(reread.n)
      const read: Line[] = []
      for (const region of strips) {
        try {
          read.push(...(await reread.strip(region)).lines.map((l) => ({ ...l, page: reread.n })))
        } catch {
          // That strip stays as first read.
        }
      }
      const inStrip = (l: Line) => strips.some((r) => l.y >= r.y0 && l.y < r.y1)
      again[reread.n - 1] = {
        ...page,
        lines: [...page.lines.filter((l) => !inStrip(l)), ...read].sort((a, b) => a.y - b.y || a.x0 - b.x0),
      }
    }
    ocrMs += performance.now() - t3
    const strips = extractFields(again, models)
    fields = {
      ...fields,
      document_date: strips.document_date,
      evidence: { ...fields.evidence, document_date: strips.evidence?.document_date },
    }
  }
  // What tesseract read of the total rows, the name and the date, checked by a second recogniser.
  if (rereads.length > 0) {
    const t4 = performance.now()
    const decided = fields
    fields = await secondOpinions(fields, pages, rereads, models)
    // A date the second recogniser read otherwise was not decided where the evidence points.
    if (fields.document_date !== decided.document_date)
      fields = { ...fields, evidence: { ...fields.evidence, document_date: undefined } }
    ocrMs += performance.now() - t4
  }
  return { fields, pages: pages.length, textPages, ocrPages, textMs, ocrMs, words }
}

function missingRequired(f: ExtractedFields): boolean {
  return !f.document_date || !f.business_name || f.total_invoice_including_vat === null
}

/** The first reading's fields, with the ones it lacks taken from the second (totals as a group). */
function fillMissing(first: ExtractedFields, second: ExtractedFields): ExtractedFields {
  const out = { ...first }
  if (!out.document_date && second.document_date) {
    out.document_date = second.document_date
    out.evidence = { ...out.evidence, document_date: second.evidence?.document_date }
  }
  if (!out.business_name && second.business_name) {
    out.business_name = second.business_name
    out.business_address = second.business_address
    out.evidence = { ...out.evidence, business_name: second.evidence?.business_name }
  }
  if (out.total_invoice_including_vat === null && second.total_invoice_including_vat !== null) {
    out.total_invoice_including_vat = second.total_invoice_including_vat
    out.total_charge_excluding_vat = second.total_charge_excluding_vat
    out.total_vat_amount = second.total_vat_amount
    out.evidence = {
      ...out.evidence,
      total_invoice_including_vat: second.evidence?.total_invoice_including_vat,
      total_charge_excluding_vat: second.evidence?.total_charge_excluding_vat,
      total_vat_amount: second.evidence?.total_vat_amount,
    }
  }
  if (!out.invoice_number && second.invoice_number) {
    out.invoice_number = second.invoice_number
    out.evidence = { ...out.evidence, invoice_number: second.evidence?.invoice_number }
  }
  // A currency line the first reading garbled ("All amounts are in RM").
  if (!out.currency && second.currency) {
    out.currency = second.currency
    out.evidence = { ...out.evidence, currency: second.evidence?.currency }
  }
  return out
}

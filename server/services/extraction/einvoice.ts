/**
 * The e-invoice path of the engine: a bare UBL / CII XML file, or a PDF carrying its invoice XML
 * (Factur-X, ZUGFeRD, XRechnung). The fields come from the XML, never from OCR; for a PDF the
 * visual engine still reads the text layer so the caller can tell when the page and the data
 * disagree.
 */
import {
  type EInvoice,
  EInvoiceError,
  einvoiceFields,
  findInvoiceAttachment,
  readInvoiceXml,
} from '../einvoice/index.ts'
import { type ExtractedFields, extractFields } from './fields.ts'
import { UnreadableFileError } from './limits.ts'
import type { PdfText } from './pdf-text.ts'

/** What the visual engine read on the page of an e-invoice PDF (null for a bare XML or no text). */
export type VisualReading = Pick<
  ExtractedFields,
  'invoice_number' | 'document_date' | 'total_invoice_including_vat'
>

export interface EInvoiceReading {
  einvoice: EInvoice
  fields: ExtractedFields
  visual: VisualReading | null
}

function parse(data: Uint8Array): EInvoice {
  try {
    return readInvoiceXml(data)
  } catch (error) {
    if (error instanceof EInvoiceError) throw new UnreadableFileError('einvoice_invalid', error.message)
    throw error
  }
}

/** A bare XML e-invoice. Throws UnreadableFileError `einvoice_invalid` when it is refused. */
export function readXmlInvoice(data: Uint8Array): EInvoiceReading {
  const einvoice = parse(data)
  return { einvoice, fields: einvoiceFields(einvoice), visual: null }
}

/** The invoice XML a PDF carries, read; null when it carries none. */
export async function readEmbeddedInvoice(pdf: PdfText): Promise<EInvoiceReading | null> {
  const attachment = findInvoiceAttachment(await pdf.attachments())
  if (!attachment) return null
  const einvoice = parse(attachment.content)
  const textPages = pdf.pages.filter((p) => p.lines.length > 0)
  const seen = textPages.length > 0 ? extractFields(textPages) : null
  return {
    einvoice,
    fields: einvoiceFields(einvoice),
    visual: seen && {
      invoice_number: seen.invoice_number,
      document_date: seen.document_date,
      total_invoice_including_vat: seen.total_invoice_including_vat,
    },
  }
}

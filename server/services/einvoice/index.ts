/**
 * E-invoices: a bare UBL / CII XML file, or the invoice XML a Factur-X / ZUGFeRD PDF carries as
 * an attachment, read exactly onto the e-invoice model and the Invoice fields.
 */
import type { ExtractedFields } from '../extraction/fields.ts'
import { mapCii } from './cii.ts'
import type { EInvoice } from './model.ts'
import { mapUbl } from './ubl.ts'
import { parseInvoiceXml, sniffInvoiceRoot } from './xml.ts'

export type { EInvoice } from './model.ts'
export { checkRules } from './rules.ts'
export { applyTextRule, FIELD_TERMS } from './text-rule.ts'
export { EInvoiceError, sniffInvoiceRoot } from './xml.ts'

/** Parses and maps an e-invoice XML. Throws EInvoiceError when it is refused or no e-invoice. */
export function readInvoiceXml(data: Uint8Array): EInvoice {
  const { root, doc } = parseInvoiceXml(data)
  if (root === 'cii') return mapCii(doc, 'CII')
  if (root === 'zugferd1') return mapCii(doc, 'ZUGFeRD1')
  return mapUbl(doc, root === 'ubl-credit-note')
}

/** The attachment names the Factur-X, ZUGFeRD 1.0 / 2.x and XRechnung specifications give. */
// Compared in lower case: ZUGFeRD 1.0 writes `ZUGFeRD-invoice.xml`, 2.x `zugferd-invoice.xml`.
const INVOICE_ATTACHMENTS = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml']

export interface PdfAttachment {
  filename: string
  content: Uint8Array
}

/**
 * The invoice XML among a PDF's attachments: by the standard names first, else the first XML
 * attachment whose root is an e-invoice (pdf.js does not expose the /AF relationships).
 */
export function findInvoiceAttachment(attachments: PdfAttachment[]): PdfAttachment | null {
  const byName = attachments.find((a) => INVOICE_ATTACHMENTS.includes(a.filename.toLowerCase()))
  if (byName) return byName
  return (
    attachments.find(
      (a) =>
        a.filename.toLowerCase().endsWith('.xml') &&
        sniffInvoiceRoot(new TextDecoder().decode(a.content.subarray(0, 16_384))) !== null,
    ) ?? null
  )
}

/** The seller's address as one line: street lines, then postcode and city. */
function addressLine(inv: EInvoice): string | null {
  const a = inv.seller.address
  if (!a) return null
  const town = [a.postcode, a.city].filter(Boolean).join(' ')
  return [...a.lines, town].filter(Boolean).join(', ') || null
}

/** The Invoice fields an e-invoice gives (BT-1, BT-2, BT-27, BT-35…38, BT-31, BT-84, BT-5, BT-109/110/112). */
export function einvoiceFields(inv: EInvoice): ExtractedFields {
  const vat = inv.totals.vat
  return {
    invoice_number: inv.number,
    document_date: inv.issue_date,
    business_name: inv.seller.name,
    business_address: addressLine(inv),
    vat_number: inv.seller.vat_id?.replace(/\s/g, '') ?? null,
    iban: inv.ibans[0]?.replace(/\s/g, '') ?? null,
    currency: inv.currency,
    has_vat: vat !== null && vat !== 0,
    total_vat_amount: vat,
    total_charge_excluding_vat: inv.totals.tax_exclusive,
    total_invoice_including_vat: inv.totals.tax_inclusive,
  }
}

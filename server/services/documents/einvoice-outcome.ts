/**
 * What an extraction adds to a document beyond its fields: where each field came from (`xml`,
 * `text`, `ocr`), an e-invoice's structured data and due date (BT-9), the EN 16931 rules it
 * breaks (errors) and whether the PDF's page disagrees with its XML (`einvoice_mismatch`).
 */
import type { FieldSource } from '../../db/schema.ts'
import { checkRules } from '../einvoice/index.ts'
import type { Extraction } from '../extraction/index.ts'
import type { QualityCode } from './quality.ts'

export interface ExtractionExtras {
  fieldSources: Record<string, FieldSource>
  einvoice: Record<string, unknown> | null
  dueDate: string | null
  errors: QualityCode[]
  warnings: QualityCode[]
}

const compactNumber = (s: string) => s.replace(/[\s./-]/g, '').toLowerCase()

/** The page's number, date or total (where the visual engine read one) differs from the XML's. */
function pageDisagrees(result: Extraction): boolean {
  const seen = result.visual
  if (!seen) return false
  const f = result.fields
  if (
    seen.invoice_number &&
    f.invoice_number &&
    compactNumber(seen.invoice_number) !== compactNumber(f.invoice_number)
  )
    return true
  if (seen.document_date && f.document_date && seen.document_date !== f.document_date) return true
  const [a, b] = [seen.total_invoice_including_vat, f.total_invoice_including_vat]
  // Credit notes print their total with or without the minus sign the XML gives.
  return a !== null && b !== null && Math.abs(Math.abs(a) - Math.abs(b)) > 0.0101
}

export function extractionExtras(
  result: Extraction,
  kind: 'invoice' | 'expense' = 'invoice',
): ExtractionExtras {
  const source: FieldSource = result.einvoice ? 'xml' : result.ocrPages > 0 ? 'ocr' : 'text'
  const fieldSources: Record<string, FieldSource> = {}
  for (const [field, value] of Object.entries(result.fields)) {
    if (value === null || field === 'has_vat') continue
    fieldSources[field === 'document_date' ? `${kind}_date` : field] = source
  }
  const inv = result.einvoice
  if (!inv) return { fieldSources, einvoice: null, dueDate: null, errors: [], warnings: [] }
  if (inv.due_date) fieldSources.due_date = 'xml'
  return {
    fieldSources,
    einvoice: inv as unknown as Record<string, unknown>,
    dueDate: inv.due_date,
    errors: checkRules(inv),
    warnings: pageDisagrees(result) ? ['einvoice_mismatch'] : [],
  }
}

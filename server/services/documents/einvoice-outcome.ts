/**
 * What an extraction adds to a document beyond its fields: where each field came from (`xml`,
 * `text`, `ocr`), an e-invoice's structured data and due date (BT-9), the EN 16931 rules it
 * breaks (errors) and whether the PDF's page disagrees with its XML (`einvoice_mismatch`).
 */
import type { FieldEvidence, FieldSource } from '../../db/schema.ts'
import { checkRules } from '../einvoice/index.ts'
import type { Extraction } from '../extraction/index.ts'
import type { QualityCode } from './quality.ts'

export interface ExtractionExtras {
  fieldSources: Record<string, FieldSource>
  /** By the same names as fieldSources: where the page's values were read (see scoring/). */
  fieldEvidence: Record<string, FieldEvidence>
  einvoice: Record<string, unknown> | null
  dueDate: string | null
  errors: QualityCode[]
  warnings: QualityCode[]
  /** What a finding is about, kept in `quality_details` under its code. */
  details: Record<string, Record<string, unknown>>
}

/** A field whose value on the page differs from the e-invoice's XML. */
interface PageDifference {
  field: 'invoice_number' | 'document_date' | 'total_invoice_including_vat'
  page: string | number
  xml: string | number
}

const compactNumber = (s: string) => s.replace(/[\s./-]/g, '').toLowerCase()

/** The page's number, date or total (where the visual engine read one) that differ from the XML's. */
function pageDifferences(result: Extraction): PageDifference[] {
  const seen = result.visual
  if (!seen) return []
  const f = result.fields
  const out: PageDifference[] = []
  if (
    seen.invoice_number &&
    f.invoice_number &&
    compactNumber(seen.invoice_number) !== compactNumber(f.invoice_number)
  )
    out.push({ field: 'invoice_number', page: seen.invoice_number, xml: f.invoice_number })
  if (seen.document_date && f.document_date && seen.document_date !== f.document_date)
    out.push({ field: 'document_date', page: seen.document_date, xml: f.document_date })
  const [a, b] = [seen.total_invoice_including_vat, f.total_invoice_including_vat]
  // Credit notes print their total with or without the minus sign the XML gives.
  if (a !== null && b !== null && Math.abs(Math.abs(a) - Math.abs(b)) > 0.0101)
    out.push({ field: 'total_invoice_including_vat', page: a, xml: b })
  return out
}

export function extractionExtras(
  result: Extraction,
  kind: 'invoice' | 'expense' = 'invoice',
): ExtractionExtras {
  const source: FieldSource = result.einvoice ? 'xml' : result.ocrPages > 0 ? 'ocr' : 'text'
  const fieldSources: Record<string, FieldSource> = {}
  const fieldEvidence: Record<string, FieldEvidence> = {}
  const name = (field: string) => (field === 'document_date' ? `${kind}_date` : field)
  for (const [field, value] of Object.entries(result.fields)) {
    if (value === null || field === 'has_vat' || field === 'evidence') continue
    fieldSources[name(field)] = source
  }
  const inv = result.einvoice
  if (!inv) {
    for (const [field, evidence] of Object.entries(result.fields.evidence ?? {}))
      if (evidence) fieldEvidence[name(field)] = evidence
    return {
      fieldSources,
      fieldEvidence,
      einvoice: null,
      dueDate: null,
      errors: [],
      warnings: [],
      details: {},
    }
  }
  if (inv.due_date) fieldSources.due_date = 'xml'
  const differences = pageDifferences(result)
  return {
    fieldSources,
    fieldEvidence,
    einvoice: inv as unknown as Record<string, unknown>,
    dueDate: inv.due_date,
    errors: checkRules(inv),
    warnings: differences.length > 0 ? ['einvoice_mismatch'] : [],
    details: differences.length > 0 ? { einvoice_mismatch: { fields: differences } } : {},
  }
}

/**
 * The text rule on what processing is about to store, whatever read it (an e-invoice's XML, the
 * text layer, OCR): texts are cleaned (no control, bidirectional or invisible format character,
 * no lone surrogate), and a text longer than its field holds, or an amount beyond the column,
 * refuses the document with the field named (`einvoice_invalid` with its EN 16931 term for an
 * e-invoice, `invalid_data` otherwise) instead of a database error that every retry meets again.
 */
import {
  cleanLines,
  cleanText,
  FIELD_LIMITS,
  type LimitedField,
  MAX_AMOUNT,
} from '../../../contract/index.ts'
import { applyTextRule, FIELD_TERMS } from '../einvoice/index.ts'
import type { ExtractedFields, Extraction } from '../extraction/index.ts'

/** A value that breaks the rule: its field (or place in the e-invoice), the limit, and why. */
interface FieldRefusal {
  field: string
  /** The EN 16931 term, for an e-invoice. */
  term?: string
  limit: number
  problem: 'too_long' | 'out_of_range' | 'too_large'
}

export interface Refusal {
  code: 'einvoice_invalid' | 'invalid_data'
  detail: FieldRefusal
}

const AMOUNT_FIELDS = [
  'total_charge_excluding_vat',
  'total_vat_amount',
  'total_invoice_including_vat',
] as const

/** The fields with their texts cleaned, and the first one that breaks the rule. */
function cleanFields(fields: ExtractedFields): { fields: ExtractedFields; refused: FieldRefusal | null } {
  const out = { ...fields }
  const broken: FieldRefusal[] = []
  for (const field of Object.keys(FIELD_LIMITS) as LimitedField[]) {
    const value = out[field]
    if (typeof value !== 'string') continue
    const clean = (field === 'business_address' ? cleanLines(value) : cleanText(value)) || null
    out[field] = clean
    if (clean !== null && clean.length > FIELD_LIMITS[field])
      broken.push({ field, limit: FIELD_LIMITS[field], problem: 'too_long' })
  }
  for (const field of AMOUNT_FIELDS) {
    const value = out[field]
    if (value !== null && !(Math.abs(value) < MAX_AMOUNT))
      broken.push({ field, limit: MAX_AMOUNT, problem: 'out_of_range' })
  }
  return { fields: out, refused: broken[0] ?? null }
}

/**
 * The extraction as it may be stored (fields, e-invoice data and the page's own reading cleaned),
 * and the refusal of the document when a value breaks the rule.
 */
export function checkExtraction(result: Extraction): { extraction: Extraction; refusal: Refusal | null } {
  const { fields, refused } = cleanFields(result.fields)
  if (!result.einvoice)
    return {
      extraction: { ...result, fields },
      refusal: refused && { code: 'invalid_data', detail: refused },
    }
  const checked = applyTextRule(result.einvoice)
  const seen = result.visual
  const visual = seen && {
    ...seen,
    invoice_number:
      seen.invoice_number && (cleanText(seen.invoice_number, { max: FIELD_LIMITS.invoice_number }) || null),
  }
  const detail: FieldRefusal | null =
    checked.refused ?? (refused && { ...refused, term: FIELD_TERMS[refused.field] })
  return {
    extraction: { ...result, fields, einvoice: checked.einvoice, visual },
    refusal: detail && { code: 'einvoice_invalid', detail },
  }
}

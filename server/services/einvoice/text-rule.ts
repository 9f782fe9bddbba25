/**
 * The text rule on an e-invoice's data before it is stored: every text of the model is cleaned
 * (no control, bidirectional or invisible format character, no lone surrogate: `Evil&#x202E;fdp`
 * is kept as `Evilfdp`), and a text longer than its term allows refuses the whole e-invoice, the
 * term named (`einvoice_invalid`), rather than storing a value no screen, index or export holds.
 * So does data larger than MAX_DATA_BYTES once read (150 000 empty lines in 8 MB of XML read as
 * 16 MB of JSON): a document's share of any answer stays bounded.
 */
import { cleanLines, cleanText, FIELD_LIMITS } from '../../../contract/index.ts'
import type { EInvoice } from './model.ts'

/** A value of the e-invoice that breaks the rule: where it is, its EN 16931 term, the limit. */
interface TermRefusal {
  /** Its place in the model (`seller.name`, `lines.description`), or `einvoice` for the whole. */
  field: string
  term?: string
  limit: number
  problem: 'too_long' | 'too_large'
}

/** The most e-invoice data kept for one invoice (JSON bytes): about 20 000 lines of a real invoice. */
const MAX_DATA_BYTES = 4 * 1024 * 1024

/** Names, address parts and item names. */
const NAME = FIELD_LIMITS.business_name
/** Identifiers and codes (type, unit, country, VAT category). */
const CODE = 100
/** The payment terms, several notes in one text. */
const TERMS = 2000

type Texts = (inv: EInvoice) => (string | null | undefined)[]
const addressTexts = (party: EInvoice['seller']) => {
  const a = party.address
  return a ? [...a.lines, a.postcode, a.city, a.subdivision, a.country] : []
}

/** Each checked text of the model, with its term and limit, in document order. */
const CHECKS: [term: string, field: string, limit: number, texts: Texts][] = [
  ['BT-1', 'number', FIELD_LIMITS.invoice_number, (i) => [i.number]],
  ['BT-3', 'type_code', CODE, (i) => [i.type_code]],
  ['BT-5', 'currency', FIELD_LIMITS.currency, (i) => [i.currency]],
  ['BT-20', 'payment_terms', TERMS, (i) => [i.payment_terms]],
  ['BT-24', 'profile', NAME, (i) => [i.profile]],
  ['BT-27', 'seller.name', NAME, (i) => [i.seller.name]],
  ['BT-31', 'seller.vat_id', FIELD_LIMITS.vat_number, (i) => [i.seller.vat_id]],
  ['BT-35', 'seller.address', NAME, (i) => addressTexts(i.seller)],
  ['BT-44', 'buyer.name', NAME, (i) => [i.buyer.name]],
  ['BT-48', 'buyer.vat_id', CODE, (i) => [i.buyer.vat_id]],
  ['BT-50', 'buyer.address', NAME, (i) => addressTexts(i.buyer)],
  ['BT-84', 'ibans', FIELD_LIMITS.iban, (i) => i.ibans],
  ['BT-118', 'vat_breakdown.category', CODE, (i) => i.vat_breakdown.map((v) => v.category)],
  ['BT-126', 'lines.id', CODE, (i) => i.lines.map((l) => l.id)],
  ['BT-130', 'lines.unit', CODE, (i) => i.lines.map((l) => l.unit)],
  ['BT-153', 'lines.description', NAME, (i) => i.lines.map((l) => l.description)],
]

/**
 * The EN 16931 term behind each Invoice field an e-invoice fills (the address: BT-35…BT-38 joined),
 * for naming the field a refusal is about.
 */
export const FIELD_TERMS: Record<string, string> = {
  invoice_number: 'BT-1',
  business_name: 'BT-27',
  business_address: 'BT-35',
  vat_number: 'BT-31',
  iban: 'BT-84',
  currency: 'BT-5',
  total_charge_excluding_vat: 'BT-109',
  total_vat_amount: 'BT-110',
  total_invoice_including_vat: 'BT-112',
}

/** Every text of the model cleaned (payment terms line by line); a text left empty is null, or dropped from a list. */
function cleanStrings(value: unknown, key?: string): unknown {
  if (typeof value === 'string')
    return (key === 'payment_terms' ? cleanLines(value) : cleanText(value)) || null
  if (Array.isArray(value)) return value.map((item) => cleanStrings(item)).filter((item) => item !== null)
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanStrings(v, k)]))
  return value
}

/** The e-invoice with its texts cleaned, or the first text longer than its term allows. */
export function applyTextRule(inv: EInvoice): { einvoice: EInvoice; refused: TermRefusal | null } {
  const einvoice = cleanStrings(inv) as EInvoice
  for (const [term, field, limit, texts] of CHECKS) {
    if (texts(einvoice).some((t) => typeof t === 'string' && t.length > limit))
      return { einvoice, refused: { field, term, limit, problem: 'too_long' } }
  }
  if (Buffer.byteLength(JSON.stringify(einvoice)) > MAX_DATA_BYTES)
    return { einvoice, refused: { field: 'einvoice', limit: MAX_DATA_BYTES, problem: 'too_large' } }
  return { einvoice, refused: null }
}

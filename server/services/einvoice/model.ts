/**
 * One internal e-invoice model for every syntax we read (UN/CEFACT CII D16B, ZUGFeRD 1.0 CII,
 * UBL 2.1 Invoice / CreditNote), named after the EN 16931 business terms it holds. Stored as is
 * in `documents.einvoice` and answered by `GET /invoices/{id}` (snake_case, as the API speaks).
 */

type EInvoiceSyntax = 'CII' | 'ZUGFeRD1' | 'UBL'

interface EInvoiceAddress {
  /** BT-35, BT-36, BT-162 (seller); street lines in order. */
  lines: string[]
  /** BT-38 */
  postcode: string | null
  /** BT-37 */
  city: string | null
  /** BT-39 */
  subdivision: string | null
  /** BT-40 */
  country: string | null
}

export interface EInvoiceParty {
  /** BT-27 (seller) / BT-44 (buyer). */
  name: string | null
  /** BT-31 (seller) / BT-48 (buyer). */
  vat_id: string | null
  address: EInvoiceAddress | null
}

interface EInvoiceLine {
  /** BT-126 */
  id: string | null
  /** BT-153 */
  description: string | null
  /** BT-129 */
  quantity: number | null
  /** BT-130 */
  unit: string | null
  /** BT-146 */
  unit_price: number | null
  /** BT-131 */
  net_amount: number | null
  /** BT-152 */
  vat_rate: number | null
}

interface EInvoiceVatBreakdown {
  /** BT-118 */
  category: string | null
  /** BT-119 */
  rate: number | null
  /** BT-116 */
  basis: number | null
  /** BT-117 */
  amount: number | null
}

interface EInvoiceTotals {
  /** BT-106 */
  line_net: number | null
  /** BT-107 */
  allowances: number | null
  /** BT-108 */
  charges: number | null
  /** BT-109 */
  tax_exclusive: number | null
  /** BT-110 */
  vat: number | null
  /** BT-112 */
  tax_inclusive: number | null
  /** BT-113 */
  prepaid: number | null
  /** BT-114 */
  rounding: number | null
  /** BT-115 */
  payable: number | null
}

export interface EInvoice {
  syntax: EInvoiceSyntax
  /** BT-24: the specification (profile) identifier, e.g. `urn:cen.eu:en16931:2017`. */
  profile: string | null
  /** BT-3: 380 invoice, 381 credit note, 384 corrective, 389 self-billed… */
  type_code: string | null
  /** A UBL CreditNote or a credit note type code: amounts keep the sign the XML gives. */
  credit_note: boolean
  /** BT-1 */
  number: string | null
  /** BT-2, YYYY-MM-DD */
  issue_date: string | null
  /** BT-9, YYYY-MM-DD */
  due_date: string | null
  /** BT-5 */
  currency: string | null
  seller: EInvoiceParty
  buyer: EInvoiceParty
  /** BT-84: the payee's account(s), first one kept as the invoice's IBAN. */
  ibans: string[]
  /** BT-20 */
  payment_terms: string | null
  totals: EInvoiceTotals
  vat_breakdown: EInvoiceVatBreakdown[]
  lines: EInvoiceLine[]
}

/** EN 16931 credit note type codes (UNCL 1001 subset). */
export const CREDIT_NOTE_TYPE_CODES = new Set(['81', '83', '381', '396', '532'])

/**
 * An e-invoice's structured data as `GET /invoices/{id}` answers it (`einvoice`): the EN 16931
 * terms the server read from the UBL / CII XML, and where each field came from (`field_sources`).
 */
import * as v from 'valibot'

const text = v.nullish(v.string())
const num = v.nullish(v.number())

const EInvoiceAddress = v.object({
  lines: v.optional(v.array(v.string()), []),
  postcode: text,
  city: text,
  subdivision: text,
  country: text,
})

const EInvoiceParty = v.object({ name: text, vat_id: text, address: v.nullish(EInvoiceAddress) })

const EInvoiceLine = v.object({
  id: text,
  description: text,
  quantity: num,
  unit: text,
  unit_price: num,
  net_amount: num,
  vat_rate: num,
})

export const EInvoiceData = v.looseObject({
  syntax: v.string(),
  profile: text,
  type_code: text,
  credit_note: v.optional(v.boolean(), false),
  number: text,
  issue_date: text,
  due_date: text,
  currency: text,
  seller: EInvoiceParty,
  buyer: EInvoiceParty,
  ibans: v.optional(v.array(v.string()), []),
  payment_terms: text,
  totals: v.object({
    line_net: num,
    allowances: num,
    charges: num,
    tax_exclusive: num,
    vat: num,
    tax_inclusive: num,
    prepaid: num,
    rounding: num,
    payable: num,
  }),
  lines: v.optional(v.array(EInvoiceLine), []),
})
export type EInvoiceData = v.InferOutput<typeof EInvoiceData>

/** Where a field's value came from: the PDF text layer, OCR, e-invoice XML, supplier memory, a user. */
export const FieldSources = v.record(v.string(), v.string())

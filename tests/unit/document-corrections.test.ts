/** The correction bodies of `PATCH /api/invoices/{id}` and `/api/expenses/{id}`, as the API takes them. */
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { ExpenseCorrection, InvoiceCorrection, isIsoDate } from '../../contract/document-corrections.ts'
import { csvCell } from '../../server/services/documents/export.ts'

const fieldsOf = (result: v.SafeParseResult<v.GenericSchema>) =>
  result.success ? [] : result.issues.map((issue) => v.getDotPath(issue))

describe('invoice correction', () => {
  it('takes ISO dates, numeric strings and numbers, and null to clear', () => {
    const out = v.parse(InvoiceCorrection, {
      invoice_date: '2024-02-29',
      due_date: null,
      total_charge_excluding_vat: '100.5',
      total_vat_amount: 20.1,
      total_invoice_including_vat: '120.60',
      has_vat: true,
      currency: 'eur',
    })
    expect(out).toEqual({
      invoice_date: '2024-02-29',
      due_date: null,
      total_charge_excluding_vat: 100.5,
      total_vat_amount: 20.1,
      total_invoice_including_vat: 120.6,
      has_vat: true,
      currency: 'EUR',
    })
  })

  it('refuses impossible dates', () => {
    for (const date of ['2024-13-45', '2023-02-29', '2024-2-1', '15/01/2024', '']) {
      expect(fieldsOf(v.safeParse(InvoiceCorrection, { invoice_date: date }))).toEqual(['invoice_date'])
    }
    expect(isIsoDate('2024-02-29')).toBe(true)
  })

  it('refuses an IBAN whose checksum fails and normalises a good one', () => {
    expect(fieldsOf(v.safeParse(InvoiceCorrection, { iban: 'FR76 3000 6000 0112 3456 7890 188' }))).toEqual([
      'iban',
    ])
    expect(v.parse(InvoiceCorrection, { iban: 'fr76 3000 6000 0112 3456 7890 189' })).toEqual({
      iban: 'FR7630006000011234567890189',
    })
  })

  it('refuses a VAT number of the wrong shape, keeps one of the right shape', () => {
    expect(fieldsOf(v.safeParse(InvoiceCorrection, { vat_number: '12345' }))).toEqual(['vat_number'])
    expect(v.parse(InvoiceCorrection, { vat_number: 'fr 40 303 265 045' })).toEqual({
      vat_number: 'FR40303265045',
    })
  })

  it('refuses amounts that are not numbers, have more than two decimals or are too large', () => {
    for (const amount of ['12,50', 'abc', 1.234, 1e13, '1e3', true, 1e-9, '0.001', 1.000000001]) {
      expect(fieldsOf(v.safeParse(InvoiceCorrection, { total_vat_amount: amount }))).toEqual([
        'total_vat_amount',
      ])
    }
  })

  it('refuses unknown fields and ignores company_id', () => {
    expect(fieldsOf(v.safeParse(InvoiceCorrection, { status: 'COMPLETED' }))).toEqual(['status'])
    expect(fieldsOf(v.safeParse(InvoiceCorrection, { expense_date: '2024-01-01' }))).toEqual(['expense_date'])
    expect(v.parse(InvoiceCorrection, { company_id: 99, business_name: '  Acme  ' })).toEqual({
      business_name: 'Acme',
    })
  })

  it('turns empty text into null, keeps address lines, refuses other control characters', () => {
    expect(
      v.parse(InvoiceCorrection, { business_name: '', business_address: '1 rue A\r\n75001 Paris' }),
    ).toEqual({
      business_name: null,
      business_address: '1 rue A\n75001 Paris',
    })
    expect(fieldsOf(v.safeParse(InvoiceCorrection, { business_address: 'a\u0000b' }))).toEqual([
      'business_address',
    ])
    expect(fieldsOf(v.safeParse(InvoiceCorrection, { business_name: 'a\nb' }))).toEqual(['business_name'])
  })
})

describe('expense correction', () => {
  it('has an expense date and no invoice number, due date or IBAN', () => {
    expect(v.parse(ExpenseCorrection, { expense_date: '2024-01-31' })).toEqual({ expense_date: '2024-01-31' })
    for (const field of ['invoice_number', 'invoice_date', 'due_date', 'iban']) {
      expect(fieldsOf(v.safeParse(ExpenseCorrection, { [field]: null }))).toEqual([field])
    }
  })
})

describe('CSV cell', () => {
  it('quotes per RFC 4180 only when the cell holds a quote, a line break or the separator', () => {
    expect(csvCell('a "b"', ',')).toBe('"a ""b"""')
    expect(csvCell('a;b', ';')).toBe('"a;b"')
    expect(csvCell('a;b', ',')).toBe('a;b')
    expect(csvCell('a\nb', ',')).toBe('"a\nb"')
    expect(csvCell(null, ',')).toBe('')
  })

  it('neutralises text that a spreadsheet would run, not amounts', () => {
    for (const text of ['=1+1', '+33', '-2', '@SUM(A1)', '\tx', '\rx']) {
      expect(csvCell(text, ';').replace(/^"/, '')).toMatch(/^'/)
    }
    expect(csvCell(-12.5, ';')).toBe('-12,50')
    expect(csvCell(1234, ',')).toBe('1234.00')
  })
})

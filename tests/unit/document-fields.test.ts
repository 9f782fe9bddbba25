import { describe, expect, it } from 'vitest'
import {
  correctionBody,
  EDITABLE_FIELDS,
  parseAmount,
  parseDate,
  parseField,
  parseIban,
  parseVatNumber,
} from '../../contract/document-fields'

describe('correction form fields', () => {
  it('reads dates as the user language writes them', () => {
    expect(parseDate('17/07/2026', 'fr')).toBe('2026-07-17')
    expect(parseDate('17.07.26', 'fr')).toBe('2026-07-17')
    expect(parseDate('07/17/2026', 'en')).toBe('2026-07-17')
    expect(parseDate('2026-07-17', 'fr')).toBe('2026-07-17')
    expect(parseDate('17/07/2026', 'en')).toBeNull()
    expect(parseDate('2024-13-45', 'en')).toBeNull()
    expect(parseDate('31/02/2026', 'fr')).toBeNull()
  })

  it('keeps the lines of an address, one line break each', () => {
    expect(parseField('business_address', '  12 rue des Alpes\r\n74000 Annecy \n', 'fr')).toEqual({
      ok: true,
      value: '12 rue des Alpes\n74000 Annecy',
    })
    expect(parseField('business_address', ' \n ', 'en')).toEqual({ ok: true, value: null })
  })

  it('reads amounts with either decimal separator', () => {
    expect(parseAmount('1234,5')).toBe(1234.5)
    expect(parseAmount('1 234,56')).toBe(1234.56)
    expect(parseAmount('1,234.56')).toBe(1234.56)
    expect(parseAmount('1.234,56')).toBe(1234.56)
    expect(parseAmount("1'234.50")).toBe(1234.5)
    expect(parseAmount('1,234')).toBe(1234)
    expect(parseAmount('12.345')).toBe(12345)
    expect(parseAmount('12.3456')).toBeNull()
    expect(parseAmount('abc')).toBeNull()
  })

  it('checks the IBAN checksum and the VAT number shape', () => {
    expect(parseIban('fr76 3000 6000 0112 3456 7890 189')).toBe('FR7630006000011234567890189')
    expect(parseIban('FR76 3000 6000 0112 3456 7890 188')).toBeNull()
    expect(parseVatNumber('fr 87 799 693 148')).toBe('FR87799693148')
    expect(parseVatNumber('CHE-123.456.789')).toBe('CHE123456789')
    expect(parseVatNumber('12345')).toBeNull()
    expect(parseVatNumber('FRABC')).toBeNull()
  })

  it('clears a blank field and reads the VAT choice and the currency', () => {
    expect(parseField('invoice_number', '  ', 'en')).toEqual({ ok: true, value: null })
    expect(parseField('has_vat', 'false', 'en')).toEqual({ ok: true, value: false })
    expect(parseField('currency', 'chf', 'en')).toEqual({ ok: true, value: 'CHF' })
    expect(parseField('currency', 'euro', 'en')).toEqual({ ok: false, error: 'invalidCurrency' })
  })

  it('builds the body of the changed fields, or none when one cannot be read', () => {
    expect(correctionBody({ total_vat_amount: '10,5', iban: '' }, 'fr')).toEqual({
      total_vat_amount: 10.5,
      iban: null,
    })
    expect(correctionBody({ due_date: '2024-13-45' }, 'en')).toBeNull()
  })

  it('lets an expense correct its own fields only', () => {
    expect(EDITABLE_FIELDS.expense).not.toContain('iban')
    expect(EDITABLE_FIELDS.invoice).toContain('due_date')
  })
})

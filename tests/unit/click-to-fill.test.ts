import { describe, expect, it } from 'vitest'
import { fieldTextFromPage } from '../../contract/document-fields'
import { pickedText } from '../../src/ui/views/details/document-preview'

const word = (text: string, x0: number, y0: number, x1: number, y1: number) => ({
  text,
  box: [x0, y0, x1, y1] as [number, number, number, number],
})
const WORDS = [
  word('Alpinea', 0.1, 0.1, 0.2, 0.12),
  word('Expertise', 0.21, 0.1, 0.33, 0.12),
  word('SARL', 0.34, 0.1, 0.4, 0.12),
  word('Total', 0.1, 0.8, 0.2, 0.82),
]

describe('click to fill: the words a click or a drag takes', () => {
  it('takes the word under a click', () => {
    const at = { x: 0.25, y: 0.11 }
    expect(pickedText(WORDS, at, at)).toBe('Expertise')
  })

  it('takes nothing where no word is', () => {
    const at = { x: 0.9, y: 0.5 }
    expect(pickedText(WORDS, at, at)).toBe('')
  })

  it('takes every word a drag meets, in reading order, whichever way it goes', () => {
    expect(pickedText(WORDS, { x: 0.39, y: 0.115 }, { x: 0.11, y: 0.105 })).toBe('Alpinea Expertise SARL')
  })
})

describe('click to fill: picked text read for the field', () => {
  it('reads amounts with their currency and grouping', () => {
    expect(fieldTextFromPage('total_invoice_including_vat', '12 508,20 €', 'fr')).toBe('12508,20')
    expect(fieldTextFromPage('total_vat_amount', '€2,084.70', 'en')).toBe('2084.70')
  })

  it('reads a date in the user order, the other when the first cannot be one', () => {
    expect(fieldTextFromPage('invoice_date', 'Date : 17/07/2026', 'fr')).toBe('17/07/2026')
    expect(fieldTextFromPage('invoice_date', '17/07/2026', 'en')).toBe('07/17/2026')
    expect(fieldTextFromPage('invoice_date', '2026-07-17', 'en')).toBe('07/17/2026')
  })

  it('joins an IBAN and a VAT number printed in groups', () => {
    expect(fieldTextFromPage('iban', 'FR76 3006 6762 3241 3973 3792 723', 'fr')).toBe(
      'FR7630066762324139733792723',
    )
    expect(fieldTextFromPage('vat_number', 'FR 87 799693148', 'fr')).toBe('FR87799693148')
  })

  it('reads a currency sign as its code, and keeps other text as picked', () => {
    expect(fieldTextFromPage('currency', '€', 'fr')).toBe('EUR')
    expect(fieldTextFromPage('currency', 'chf', 'fr')).toBe('CHF')
    expect(fieldTextFromPage('business_name', '  Alpinea   Expertise ', 'fr')).toBe('Alpinea Expertise')
    expect(fieldTextFromPage('total_vat_amount', 'n/a', 'fr')).toBe('n/a')
  })
})

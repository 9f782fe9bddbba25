/** The e-invoice parts of the detail dialog: the source line, type, lines, and a bare XML's rendering. */
import { I18nProvider } from '@lingui/react'
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { EInvoiceData } from '../../contract'
import { i18n } from '../../src/ui/i18n'
import { EInvoiceDocument, EInvoicePanel } from '../../src/ui/views/details/einvoice-panel'
import '../support/render'

const party = (name: string) => ({
  name,
  vat_id: 'FR40303265045',
  address: {
    lines: ['12 rue des Lilas'],
    postcode: '75011',
    city: 'Paris',
    subdivision: null,
    country: 'FR',
  },
})

const sample: EInvoiceData = {
  syntax: 'UBL',
  profile: 'urn:cen.eu:en16931:2017',
  type_code: '380',
  credit_note: false,
  number: 'FX-2026-0042',
  issue_date: '2026-11-02',
  due_date: '2026-12-02',
  currency: 'EUR',
  seller: party('Atelier Exemple SARL'),
  buyer: party('Client Modèle SAS'),
  ibans: ['FR7630006000011234567890189'],
  payment_terms: 'Payable within 30 days',
  totals: {
    line_net: 150,
    allowances: null,
    charges: null,
    tax_exclusive: 150,
    vat: 30,
    tax_inclusive: 180,
    prepaid: null,
    rounding: null,
    payable: 180,
  },
  lines: [
    {
      id: '1',
      description: 'Design workshop',
      quantity: 2,
      unit: 'C62',
      unit_price: 50,
      net_amount: 100,
      vat_rate: 20,
    },
    {
      id: '2',
      description: 'Printed brochures',
      quantity: 10,
      unit: 'C62',
      unit_price: 5,
      net_amount: 50,
      vat_rate: 20,
    },
  ],
}

const show = (element: React.ReactElement) => render(<I18nProvider i18n={i18n}>{element}</I18nProvider>)

describe('e-invoice panel', () => {
  it('says the fields come from the e-invoice data and lists the invoice lines', () => {
    show(<EInvoicePanel einvoice={sample} />)
    expect(screen.getByText('From the e-invoice data')).toBeDefined()
    expect(screen.getByText('Invoice')).toBeDefined()
    expect(screen.getByText('Dec 2, 2026')).toBeDefined()
    const table = screen.getByRole('table', { name: 'Invoice lines' })
    const rows = within(table).getAllByRole('row')
    expect(rows).toHaveLength(3)
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Design workshop', '2', '€50.00', '€100.00', '20 %'])
  })

  it('names a credit note so', () => {
    show(<EInvoicePanel einvoice={{ ...sample, credit_note: true, type_code: '381' }} />)
    expect(screen.getByText('Credit note')).toBeDefined()
    expect(screen.queryByText('Invoice')).toBeNull()
  })

  it('renders a bare XML e-invoice: parties, lines, totals, payment terms', () => {
    show(<EInvoiceDocument einvoice={sample} />)
    const rendering = screen.getByRole('region', { name: 'E-invoice rendering' })
    expect(within(rendering).getByRole('heading', { name: 'Invoice FX-2026-0042' })).toBeDefined()
    expect(
      within(screen.getByRole('region', { name: 'Seller' })).getByText('Atelier Exemple SARL'),
    ).toBeDefined()
    expect(within(screen.getByRole('region', { name: 'Buyer' })).getByText('Client Modèle SAS')).toBeDefined()
    expect(within(rendering).getAllByRole('row')).toHaveLength(3)
    const totals = screen.getByRole('region', { name: 'Totals' })
    // Total including VAT and amount due.
    expect(within(totals).getAllByText('€180.00')).toHaveLength(2)
    expect(
      within(screen.getByRole('region', { name: 'Payment terms' })).getByText('Payable within 30 days'),
    ).toBeDefined()
    expect(screen.queryByTitle(/Preview of/)).toBeNull()
  })
})

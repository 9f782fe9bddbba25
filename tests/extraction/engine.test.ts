/**
 * The layout-general parts of the engine on small pages built here (no corpus document): the
 * label lexicon, dates in French, English and German forms with the day/month order decided per
 * document, labelled suppliers, totals tables and till receipts.
 */
import { describe, expect, it } from 'vitest'
import { extractFields } from '../../server/services/extraction/fields.ts'
import {
  hasLabel,
  type LabelField,
  labelAt,
  labelsOf,
  languageLabels,
} from '../../server/services/extraction/lexicon.ts'
import { dateOrder, findDates } from '../../server/services/extraction/parse.ts'
import type { Line, PageText } from '../../server/services/extraction/pdf-text.ts'

/** A page from rows of [x, text] segments, one row every 14 pt, 10 pt type. */
function page(rows: [number, string][][], size = 10): PageText {
  const lines: Line[] = rows.map((row, i) => {
    const segments = row.map(([x, text]) => ({ text, x0: x, x1: x + text.length * size * 0.5, size }))
    return {
      page: 1,
      y: 40 + i * 14,
      x0: segments[0]!.x0,
      x1: segments[segments.length - 1]!.x1,
      segments,
      text: segments.map((s) => s.text).join('  '),
    }
  })
  return { page: 1, width: 595, height: 842, lines }
}

describe('label lexicon', () => {
  it("tells a page's language by the labels only that language prints", () => {
    const german = 'SUMME EUR 13,05\nGeg. BAR EUR 20,05\nRückgeld BAR EUR 7,00\nSteuer % Netto Steuer Brutto'
    const english = 'TOTAL RM 12.00\nCASH 20.00\nCHANGE 8.00\nGST 6%'
    const french = 'TOTAL TTC 21,74\nTVA 20% 3,62\nCB 21,74'
    expect(languageLabels(german, 'de')).toBeGreaterThanOrEqual(2)
    expect(languageLabels(english, 'de')).toBe(0)
    expect(languageLabels(french, 'de')).toBe(0)
    expect(languageLabels(french, 'fr')).toBeGreaterThanOrEqual(2)
  })

  const cases: [LabelField, string[]][] = [
    [
      'supplier',
      ['Supplier', 'Vendor', 'From', 'Fournisseur', 'Émetteur', 'Vendeur', 'Lieferant', 'Rechnungssteller'],
    ],
    ['invoice_number', ['Invoice No', 'N° de facture', 'Rechnungsnummer', 'Beleg-Nr.', 'Rechnungs-Nr.:']],
    [
      'total_incl',
      [
        'Montant total brut',
        'Gross total amount',
        'Total TTC',
        'Rechnungsbetrag',
        'Endbetrag',
        'Gesamtbetrag brutto',
      ],
    ],
    [
      'total_excl',
      ['Montant total net', 'Net total amount', 'Total HT', 'Nettobetrag', 'Rechnungssumme ohne USt.'],
    ],
    ['vat_total', ['MwSt.', 'USt.', 'Total TVA', 'VAT']],
    ['issue_date', ["Date d'émission", 'Rechnungsdatum', 'Invoice date', 'Date of issue']],
    ['other_date', ['Due date', "Date d'échéance", 'Fälligkeitsdatum', 'Lieferdatum', 'Date de livraison']],
  ]
  it.each(cases)('%s labels in the three languages match', (field, labels) => {
    for (const label of labels) expect(labelAt(field, `${label} : 42`), label).not.toBeNull()
  })

  it('keeps look-alikes of another thing out', () => {
    for (const text of ['Kundennummer: 10000', 'Order No 55', 'N° client : 12', 'Customer No. 7'])
      expect(labelAt('invoice_number', text), text).toBeNull()
    expect(labelAt('total_incl', 'Total HT 100,00')).toBeNull()
    expect(labelAt('total_incl', 'Rechnungssumme netto 100,00')).toBeNull()
    expect(labelAt('total_excl', 'Rechnungssumme netto 100,00')).not.toBeNull()
  })

  it('gives every field labels in English, French and German', () => {
    for (const field of [
      'supplier',
      'customer',
      'invoice_number',
      'issue_date',
      'total_incl',
      'total_excl',
    ] as const) {
      const entry = labelsOf(field)
      for (const lang of ['en', 'fr', 'de'])
        expect(entry[lang]?.length, `${field}.${lang}`).toBeGreaterThan(0)
    }
  })

  it('finds legal-footer labels inside a line', () => {
    expect(hasLabel('legal', 'Dupont SAS au capital de 10 000 € – RCS Paris')).toBe(true)
    expect(hasLabel('legal', 'Geschäftsführer: Hans Muster · Amtsgericht München')).toBe(true)
    expect(hasLabel('legal', 'Thank you for your order')).toBe(false)
  })
})

describe('dates', () => {
  it.each([
    ['25.11.2026', '2026-11-25'],
    ['25/11/26', '2026-11-25'],
    ['25 novembre 2026', '2026-11-25'],
    ['7. Mai 2014', '2014-05-07'],
    ['5. März 2018', '2018-03-05'],
    ['August 3, 2014', '2014-08-03'],
    ['Nov 25, 2026', '2026-11-25'],
    ['05 MAR 2018', '2018-03-05'],
    ['01-NOV-2017', '2017-11-01'],
    ['1er novembre 2026', '2026-11-01'],
    ['03 Apr2018 18:33', '2018-04-03'],
    ['25032018 13:11:54', '2018-03-25'],
  ])('reads %s', (printed, iso) => {
    expect(findDates(`Date: ${printed}`).map((d) => d.iso)).toEqual([iso])
  })

  it('takes no identifier for a date', () => {
    expect(findDates('Invoice 12345678 · IBAN DE12 2503 2018 · Slip: 0000000011000140428')).toEqual([])
  })

  it('reads 03/04/2026 in the order of the document', () => {
    expect(findDates('03/04/2026', 'dmy')[0]?.iso).toBe('2026-04-03')
    expect(findDates('03/04/2026', 'mdy')[0]?.iso).toBe('2026-03-04')
    // A date that cannot be day-first decides for the whole document.
    expect(dateOrder('Invoice 12/13/2026, shipped 03/04/2026')).toBe('mdy')
    expect(dateOrder('Facture du 13/12/2026, livrée le 03/04/2026')).toBe('dmy')
    expect(dateOrder('Total due: $120.00 on 03/04/2026')).toBe('mdy')
    expect(dateOrder('TOTAL RM 12.00 03/04/2026')).toBe('dmy')
    // Dollars beside a VAT or a GST: a UK, Australian or Canadian seller's day-first dates.
    expect(dateOrder('VAT No GB528022078 Total $6,189.55 Date 09/03/2017')).toBe('dmy')
    expect(dateOrder('GST 10% $12.00 03/04/2026')).toBe('dmy')
  })
})

describe('fields on new layouts', () => {
  it('reads a supplier named by its label (the issue’s example)', () => {
    const fields = extractFields([
      page([
        [[40, 'INVOICE']],
        [[40, 'Supplier: Acme Supplies SARL']],
        [[40, '12 rue de la Paix, 75002 Paris, France']],
        [[40, 'Invoice No: A-1001']],
        [[40, 'Invoice date: 03/04/2026']],
        [
          [300, 'Total TTC'],
          [480, '120,00 €'],
        ],
      ]),
    ])
    expect(fields.business_name).toBe('Acme Supplies SARL')
    expect(fields.business_address).toBe('12 rue de la Paix, 75002 Paris, France')
    expect(fields.invoice_number).toBe('A-1001')
    expect(fields.document_date).toBe('2026-04-03')
    expect(fields.total_invoice_including_vat).toBe(120)
    expect(fields.currency).toBe('EUR')
  })

  it('reads a totals table laid out with its labels in one row and the values in the next', () => {
    const fields = extractFields([
      page([
        [[40, 'Muster Leasing GmbH']],
        [[40, 'Hauptstraße 5, 80333 München']],
        [
          [40, 'Rechnungsnummer:'],
          [200, '2015738820'],
        ],
        [
          [40, 'Rechnungsdatum:'],
          [200, '01.11.2024'],
        ],
        [
          [40, 'Fälligkeitsdatum:'],
          [200, '15.11.2024'],
        ],
        [
          [40, 'Gesamtbeträge'],
          [300, 'Netto EUR'],
          [390, 'MwSt. EUR'],
          [470, 'Brutto EUR'],
        ],
        [
          [300, '376,37'],
          [390, '71,51'],
          [470, '447,88'],
        ],
      ]),
    ])
    expect(fields.document_date).toBe('2024-11-01')
    expect(fields.invoice_number).toBe('2015738820')
    expect(fields.total_charge_excluding_vat).toBe(376.37)
    expect(fields.total_vat_amount).toBe(71.51)
    expect(fields.total_invoice_including_vat).toBe(447.88)
    expect(fields.currency).toBe('EUR')
  })

  it('sums several VAT rates and keeps net + VAT = gross', () => {
    const fields = extractFields([
      page([
        [[40, 'Papeterie Martin SARL']],
        [[40, '3 place du Marché, 69002 Lyon']],
        [[40, 'Facture N° F-77']],
        [
          [300, 'Total HT'],
          [480, '560,24 €'],
        ],
        [
          [300, 'TVA (20 %)'],
          [480, '80,20 €'],
        ],
        [
          [300, 'TVA (5,5 %)'],
          [480, '8,76 €'],
        ],
        [
          [300, 'Total TTC'],
          [480, '649,20 €'],
        ],
      ]),
    ])
    expect(fields.total_vat_amount).toBe(88.96)
    expect(fields.total_charge_excluding_vat).toBe(560.24)
    expect(fields.total_invoice_including_vat).toBe(649.2)
  })

  it('reads a till receipt: merchant above its address, total not CASH or CHANGE, ringgit', () => {
    const fields = extractFields([
      page(
        [
          [[20, 'TAN AH KOW']],
          [],
          [[30, 'KEDAI RUNCIT MAJU SDN BHD']],
          [[30, '(123456-X)']],
          [[30, 'NO. 5, JALAN MERDEKA 3,']],
          [[30, '81100 JOHOR BAHRU, JOHOR.']],
          [[30, 'TEL: 07-1234567']],
          [[30, 'DATE: 05/03/2018 12:01']],
          [
            [20, 'SUB TOTAL'],
            [140, '58.02'],
          ],
          [
            [20, 'GST 6%'],
            [140, '3.48'],
          ],
          [
            [20, 'ROUNDING ADJ'],
            [140, '0.00'],
          ],
          [
            [20, 'TOTAL RM'],
            [140, '61.50'],
          ],
          [
            [20, 'CASH'],
            [140, '100.00'],
          ],
          [
            [20, 'CHANGE'],
            [140, '38.50'],
          ],
        ].filter((r) => r.length > 0) as [number, string][][],
        8,
      ),
    ])
    expect(fields.business_name).toBe('KEDAI RUNCIT MAJU SDN BHD')
    expect(fields.document_date).toBe('2018-03-05')
    expect(fields.total_invoice_including_vat).toBe(61.5)
    expect(fields.currency).toBe('MYR')
  })

  it('takes no sub-total for the net when a service charge and rounding sit between it and the total', () => {
    const till = (subtotalLabel: string) =>
      extractFields([
        page([
          [[30, 'RESTORAN SELERA SDN BHD']],
          [[30, 'NO. 5, JALAN MERDEKA 3, 81100 JOHOR BAHRU']],
          [[30, '05/03/2018']],
          [
            [20, subtotalLabel],
            [140, '12.99'],
          ],
          [
            [20, 'SERVICE CHARGE 10%'],
            [140, '1.30'],
          ],
          [
            [20, 'GST 6%'],
            [140, '0.86'],
          ],
          [
            [20, 'TOTAL'],
            [140, '15.15'],
          ],
        ]),
      ])
    const receipt = till('SUB TOTAL')
    expect(receipt.total_invoice_including_vat).toBe(15.15)
    expect(receipt.total_vat_amount).toBe(0.86)
    // As booked: the gross less the VAT, so the document's own figures add up.
    expect(receipt.total_charge_excluding_vat).toBe(14.29)
    // A net labelled as such is kept, even when it does not add up: that is a quality error to report.
    expect(till('TOTAL EXCL. GST').total_charge_excluding_vat).toBe(12.99)
  })

  it('takes the total from the payment when OCR lost the total’s label', () => {
    const fields = extractFields([
      page([
        [[30, 'KEDAI MAJU ENTERPRISE']],
        [[30, 'NO. 5, JALAN MERDEKA 3, 81100 JOHOR BAHRU']],
        [[30, '05/03/2018']],
        [
          [20, 'T0TA1 :'],
          [140, '9280'],
        ],
        [
          [20, 'CASH RECEIVED :'],
          [140, '100.00'],
        ],
        [
          [20, 'CHANGE :'],
          [140, '7.20'],
        ],
      ]),
    ])
    expect(fields.total_invoice_including_vat).toBe(92.8)
  })

  it('never takes a page number or a title for the supplier', () => {
    const fields = extractFields([
      page([
        [[40, 'Page 1 / 1']],
        [[40, 'Rechnung']],
        [
          [40, 'Lieferant:'],
          [200, 'Brandt Werkzeuge KG'],
        ],
        [[200, 'Industriestraße 9']],
        [[200, '70173 Stuttgart']],
        [
          [40, 'Rechnungsnummer:'],
          [200, 'R-9'],
        ],
        [
          [300, 'Gesamtbetrag brutto'],
          [480, '119,00 EUR'],
        ],
      ]),
    ])
    expect(fields.business_name).toBe('Brandt Werkzeuge KG')
    expect(fields.business_address).toBe('Industriestraße 9, 70173 Stuttgart')
  })
})

/**
 * Invoice rules that read the page's geometry (labels left of, above or below their value,
 * address windows, letters) on small pages built here, not on corpus documents.
 */
import { describe, expect, it } from 'vitest'
import { extractFields, pageModel } from '../../server/services/extraction/fields.ts'
import { VAT_FEATURES, vatIdCandidates } from '../../server/services/extraction/identifiers.ts'
import {
  leftNeighbour,
  type Ref,
  segmentAbove,
  segmentUnder,
} from '../../server/services/extraction/layout.ts'
import type { PageText } from '../../server/services/extraction/pdf-text.ts'
import { type Cell, pageOf, type Row } from './page-builder.ts'

/** A page from rows placed at explicit heights: [y, cells]; a cell's width is 0.5 em per character. */
const page = (rows: Row[]): PageText => pageOf(rows, { size: 10 })

const refTo = (p: PageText, text: string): Ref => {
  for (let li = 0; li < p.lines.length; li++) {
    const si = p.lines[li]!.segments.findIndex((s) => s.text === text)
    if (si >= 0) return { line: p.lines[li]!, li, si, seg: p.lines[li]!.segments[si]! }
  }
  throw new Error(`no segment ${text}`)
}

describe('page neighbourhood', () => {
  const p = page([
    [
      100,
      [
        [40, 'Name'],
        [200, 'Value'],
      ],
    ],
    [559, [[471, 'DE123456789']]],
    [563, [[398, 'Caption:', 7]]],
    [
      600,
      [
        [40, 'IBAN'],
        [200, 'BIC'],
      ],
    ],
    [611, [[40, 'DE67 1004']]],
    [624, [[40, '8882 72']]],
  ])

  it('takes a caption a few points lower in smaller type as the label left of a value', () => {
    expect(leftNeighbour(p.lines, refTo(p, 'DE123456789'))?.text).toBe('Caption:')
    expect(leftNeighbour(p.lines, refTo(p, 'Value'))?.text).toBe('Name')
    expect(leftNeighbour(p.lines, refTo(p, 'Name'))).toBeUndefined()
  })

  it('finds a column header over its cell and the cell wrapped under it', () => {
    expect(segmentAbove(p.lines, refTo(p, 'DE67 1004'))?.seg.text).toBe('IBAN')
    const under = segmentUnder(p.lines, refTo(p, 'IBAN'))
    expect(under?.seg.text).toBe('DE67 1004')
    expect(segmentUnder(p.lines, refTo(p, 'DE67 1004'))?.seg.text).toBe('8882 72')
    expect(segmentUnder(p.lines, refTo(p, 'BIC'))).toBeUndefined()
  })
})

describe('identifiers placed by the layout', () => {
  it('reads a VAT id and an IBAN laid out as a footer table (labels over values, a value wrapped)', () => {
    const fields = extractFields([
      page([
        [40, [[57, 'Invoice 1042', 18]]],
        [70, [[57, 'Northwind Traders Ltd']]],
        [84, [[57, '12 Harbour Street, London E1 6AN']]],
        [
          700,
          [
            [57, 'VAT Registration No.', 9],
            [184, 'Home Page', 9],
            [312, 'Phone No.', 9],
          ],
        ],
        [
          710,
          [
            [57, 'GB123456789'],
            [184, 'www.northwind.example'],
            [312, '020 7946 0000'],
          ],
        ],
        [
          740,
          [
            [57, 'Bank', 9],
            [184, 'IBAN', 9],
            [312, 'SWIFT Code', 9],
          ],
        ],
        [
          751,
          [
            [57, 'City Bank'],
            [184, 'GB33 BUKB 2020'],
            [312, 'BUKBGB22'],
          ],
        ],
        [764, [[184, '1555 5555 55']]],
      ]),
    ])
    expect(fields.vat_number).toBe('GB123456789')
    expect(fields.iban).toBe('GB33BUKB20201555555555')
  })

  // Which of two supplier VAT ids wins is the fitted weights' choice (the training documents
  // rarely print a broken one); what the scorer must see is which one's check digits hold.
  it('measures, between two supplier VAT ids, whose check digits hold', () => {
    const candidates = vatIdCandidates(
      pageModel([
        page([
          [60, [[53, 'Lieferant GmbH', 11]]],
          [74, [[53, 'Lieferantenstraße 20, 80333 München', 11]]],
          [700, [[53, 'USt-IdNr.: DE123456780']]],
          [714, [[53, 'USt-IdNr.: DE136695976']]],
        ]),
      ]),
    )
    const at = VAT_FEATURES.findIndex((f) => f.name === 'check_digits')
    const checks = Object.fromEntries(candidates.map((c) => [String(c.value), c.x[at]]))
    expect(checks).toEqual({ DE123456780: 0, DE136695976: 1, null: 0 })
  })

  it('reads a VAT id whose caption sits beside it a few points lower, not the customer’s', () => {
    const fields = extractFields([
      page([
        [60, [[53, 'Lieferant GmbH', 11]]],
        [74, [[53, 'Lieferantenstraße 20', 11]]],
        [88, [[53, '80333 München', 11]]],
        [
          246,
          [
            [47, 'Ihr Zeichen: AB-312'],
            [180, 'Ihre USt.-IdentNr.: DE234567890'],
          ],
        ],
        [
          559,
          [
            [111, '700 901 00'],
            [471, 'DE123456789'],
          ],
        ],
        [
          563,
          [
            [40, 'BLZ:', 7],
            [398, 'USt.-Identnr.:', 7],
          ],
        ],
      ]),
    ])
    expect(fields.vat_number).toBe('DE123456789')
  })

  it('takes the payee’s IBAN, never the account a direct debit draws on', () => {
    const fields = extractFields([
      page([
        [60, [[53, 'Lieferant GmbH', 11]]],
        [74, [[53, 'Lieferantenstraße 20, 80333 München', 11]]],
        [500, [[40, 'Der Betrag wird am 20.03.2014 von Ihrem Konto mit IBAN DE21860000000086001055']]],
        [514, [[40, 'und BIC MARKDEF1860 per SEPA-Lastschrift eingezogen.']]],
        [
          560,
          [
            [187, 'IBAN-Nr.:', 7],
            [237, 'DE08 7009 0100 1234 5678 90'],
          ],
        ],
      ]),
    ])
    expect(fields.iban).toBe('DE08700901001234567890')
    const debtorOnly = extractFields([
      page([
        [60, [[53, 'Lieferant GmbH', 11]]],
        [
          108,
          [
            [70, 'Käufer-IBAN :', 8],
            [308, 'DE21860000000086001055', 8],
          ],
        ],
      ]),
    ])
    expect(debtorOnly.iban).toBeNull()
  })

  it('reads an IBAN a sentence ends on at the start of the next line, and a bare one after bank details', () => {
    const prose = extractFields([
      page([
        [60, [[53, 'Lieferant GmbH']]],
        [530, [[71, 'Bitte überweisen Sie den Betrag auf folgende Bankverbindung: IBAN']]],
        [541, [[71, 'DE75123456780000001234, BIC WELADED1MST, Sparkasse Musterstadt.']]],
      ]),
    ])
    // Printed as is: its checksum fails, and the status says so.
    expect(prose.iban).toBe('DE75123456780000001234')
    const bare = extractFields([
      page([
        [60, [[53, 'Lieferant GmbH']]],
        [587, [[71, 'Einen zu zahlenden Betrag überweisen Sie bitte auf folgende Bankverbindung:']]],
        [599, [[71, 'DE75123456780000001234, BIC WELADED1MST, Sparkasse Musterstadt.']]],
      ]),
    ])
    expect(bare.iban).toBe('DE75123456780000001234')
  })

  it('reads the payee of bank details as the supplier’s side, not a customer block', () => {
    const fields = extractFields([
      page([
        [60, [[53, 'Lieferant GmbH', 11]]],
        [74, [[53, 'Lieferantenstraße 20, 80333 München', 11]]],
        [600, [[53, 'Bankverbindung']]],
        [612, [[53, 'Empfänger: Lieferant GmbH']]],
        [624, [[53, 'IBAN: DE89 3704 0044 0532 0130 00']]],
      ]),
    ])
    expect(fields.iban).toBe('DE89370400440532013000')
  })

  it('takes no IBAN from the head of a longer identifier, nor an unlabelled one failing its check', () => {
    const fields = extractFields([
      page([
        [60, [[53, 'Stadtwerke GmbH']]],
        [344, [[159, 'Zählpunkt: = DE0001346484600000000000000100038']]],
        [360, [[159, 'Referenz DE00013464846000000000']]],
      ]),
    ])
    expect(fields.iban).toBeNull()
  })

  it('reads an invoice number printed after its own colon, not a meter’s number, with its letter prefix', () => {
    const fields = extractFields([
      page([
        [40, [[50, 'Handelsrechnung Nr. E2018092011804 vom 20.09.2018', 14]]],
        [
          83,
          [
            [366, 'Beleg-Datum', 8],
            [457, ': 16.09.2013', 8],
          ],
        ],
        [300, [[175, 'Bei Schriftwechsel bitte Belegnummer 2018092011804 angeben', 8]]],
        [779, [[158, 'Zähler-Nr.: = MG-X79318']]],
      ]),
    ])
    expect(fields.invoice_number).toBe('E2018092011804')
    const split = extractFields([
      page([
        [70, [[40, 'GLN 4333741000005 Lief-Nr: 549910', 8]]],
        [
          83,
          [
            [366, 'Beleg-Nr', 8],
            [457, ': RK21012345', 8],
          ],
        ],
        [779, [[158, 'Zähler-Nr.: = MG-X79318']]],
      ]),
    ])
    expect(split.invoice_number).toBe('RK21012345')
  })

  it('reads dates and numbers from a header row over a value row', () => {
    const fields = extractFields([
      page([
        [40, [[57, 'Contoso Consulting Ltd', 14]]],
        [58, [[57, '1 Market Square, Leeds LS1 4AB']]],
        [
          200,
          [
            [57, 'Invoice No.', 9],
            [184, 'Customer', 9],
            [312, 'Due Date', 9],
            [439, 'Invoice Date', 9],
          ],
        ],
        [
          211,
          [
            [57, 'INV-0042'],
            [184, 'Fabrikam'],
            [312, '30/04/2026'],
            [439, '31/03/2026'],
          ],
        ],
      ]),
    ])
    expect(fields.invoice_number).toBe('INV-0042')
    expect(fields.document_date).toBe('2026-03-31')
    const paged = extractFields([
      page([
        [40, [[57, 'Contoso Consulting Ltd', 14]]],
        [58, [[57, '1 Market Square, Leeds LS1 4AB']]],
        [
          200,
          [
            [57, 'Invoice No.', 9],
            [184, 'Invoice Date', 9],
            [439, 'Page 1 of 1', 9],
          ],
        ],
        [
          211,
          [
            [57, 'INV-0042'],
            [184, '31/03/2026'],
          ],
        ],
      ]),
    ])
    expect(paged.invoice_number).toBe('INV-0042')
  })

  it('reads a legal footer printing the VAT id, the IBAN and the BIC on one line', () => {
    const fields = extractFields([
      page([
        [40, [[40, 'Atelier Dupont SARL', 16]]],
        [60, [[40, '14 avenue Jean Jaurès']]],
        [74, [[40, '69007 Lyon']]],
        [200, [[40, 'FACTURE N° F-2026-014', 14]]],
        [
          328,
          [
            [330, 'Total TTC'],
            [480, '600,00 €'],
          ],
        ],
        [
          780,
          [
            [
              40,
              'SARL au capital de 10 000 € - RCS Lyon 123 456 789 - IBAN FR76 3000 6000 0112 3456 7890 189 - TVA FR32123456789',
              7,
            ],
          ],
        ],
      ]),
    ])
    expect(fields.vat_number).toBe('FR32123456789')
    expect(fields.iban).toBe('FR7630006000011234567890189')
  })

  it('reads a footer of "Name | Street | Town" lines as the supplier’s, not as an address window', () => {
    const fields = extractFields([
      page([
        [60, [[57, 'Muster Software GmbH', 16]]],
        [80, [[57, 'Hauptstr. 1, 10115 Berlin']]],
        [250, [[57, 'Rechnung Nr. 2026-117 vom 12.03.2026', 14]]],
        [
          358,
          [
            [350, 'Gesamtbetrag'],
            [500, '1.190,00 €'],
          ],
        ],
        [780, [[57, 'Muster Software GmbH | Hauptstr. 1 | 10115 Berlin | USt-IdNr. DE136695976', 7]]],
        [790, [[57, 'Berliner Bank | IBAN DE89 3704 0044 0532 0130 00 | BIC COBADEFFXXX', 7]]],
      ]),
    ])
    expect(fields.vat_number).toBe('DE136695976')
    expect(fields.iban).toBe('DE89370400440532013000')
  })

  it('takes a credit note’s own number and date, not those of the invoice it refers to', () => {
    const fields = extractFields([
      page([
        [50, [[57, 'Büro Meier GmbH', 14]]],
        [66, [[57, 'Kirchplatz 3, 04109 Leipzig']]],
        [200, [[57, 'Gutschrift Nr. G-2026-12', 14]]],
        [
          220,
          [
            [57, 'Datum: 14.01.2026'],
            [300, 'zu Rechnung Nr. 2025-998 vom 12.12.2025'],
          ],
        ],
        [
          428,
          [
            [330, 'Gutschriftsbetrag'],
            [480, '-119,00 €'],
          ],
        ],
      ]),
    ])
    expect(fields.invoice_number).toBe('G-2026-12')
    expect(fields.document_date).toBe('2026-01-14')
    expect(fields.total_invoice_including_vat).toBe(-119)
  })

  it('takes the currency labelled as the invoice’s over the one its totals are converted into', () => {
    const fields = extractFields([
      page([
        [60, [[50, 'Rohstoff AG']]],
        [
          211,
          [
            [50, 'Rechnungswährung'],
            [176, ': GBP'],
          ],
        ],
        [234, [[50, 'Währung der Umsatzsteuerbuchung : EUR']]],
        [
          400,
          [
            [300, 'Gesamtbetrag'],
            [448, 'EUR'],
            [508, '183,14'],
          ],
        ],
      ]),
    ])
    expect(fields.currency).toBe('GBP')
  })
})

describe('letters', () => {
  /** A German business letter: sender over the window, recipient, sender's office, subject and date. */
  const letter = (amounts: [number, Cell[]][]) =>
    page([
      [70, [[71, 'MVM Musterhafter']]],
      [81, [[71, 'Versicherungsverein Musterstadt a.G.']]],
      [104, [[71, 'Herrn']]],
      [116, [[71, 'Max Mustermann']]],
      [127, [[71, 'Musterstr. 11']]],
      [139, [[71, '12346 Bad Musterhausen']]],
      [162, [[71, 'Versicherungsbüro']]],
      [173, [[71, 'Muster']]],
      [185, [[71, 'Musterstr. 12']]],
      [196, [[71, '12345 Musterstadt']]],
      [208, [[71, 'Tel.: 0123/45678']]],
      [
        288,
        [
          [71, 'Beitragsrechnung'],
          [425, '24. Januar 2014'],
        ],
      ],
      [380, [[71, 'zu Ihrer Versicherung wird der Beitrag für den Zeitraum vom']]],
      [392, [[71, '06.12.2013 bis zum 06.12.2014 fällig.']]],
      ...amounts,
    ])

  it('reads the sender (a name on two lines), its office address after the window, and the letter’s date', () => {
    const fields = extractFields([
      letter([
        [
          472,
          [
            [71, 'Gesamtbeitrag'],
            [294, '50,00 €'],
          ],
        ],
        [
          484,
          [
            [71, 'Versicherungsteuer 19 %'],
            [300, '9,50 €'],
          ],
        ],
        [
          495,
          [
            [71, 'Zu zahlen'],
            [294, '59,50 €'],
          ],
        ],
      ]),
    ])
    expect(fields.business_name).toBe('MVM Musterhafter Versicherungsverein Musterstadt a.G.')
    expect(fields.business_address).toBe('Musterstr. 12, 12345 Musterstadt')
    expect(fields.document_date).toBe('2014-01-24')
    expect(fields.total_vat_amount).toBe(9.5)
    expect(fields.total_invoice_including_vat).toBe(59.5)
    expect(fields.total_charge_excluding_vat).toBe(50)
  })

  it('takes a place-and-date line as the letter’s date, not a date in the text', () => {
    const fields = extractFields([
      page([
        [60, [[57, 'Muster Software GmbH', 14]]],
        [80, [[57, 'Hauptstr. 1, 10115 Berlin']]],
        [
          200,
          [
            [57, 'Rechnung 2026-117', 13],
            [380, 'Berlin, 12.03.2026'],
          ],
        ],
        [240, [[57, 'Gemäß Ihrem Schreiben vom 02.03.2026 berechnen wir:']]],
        [
          400,
          [
            [330, 'Gesamtbetrag'],
            [480, '1.190,00 €'],
          ],
        ],
      ]),
    ])
    expect(fields.document_date).toBe('2026-03-12')
  })

  it('takes an unlabelled net and gross that differ by the labelled VAT', () => {
    const fields = extractFields([
      letter([
        [
          449,
          [
            [71, 'Privathaftpflicht'],
            [295, '50,00 €'],
          ],
        ],
        [
          472,
          [
            [71, 'Beitrag'],
            [294, '50,00 €'],
          ],
        ],
        [
          484,
          [
            [71, 'Versicherungsteuer 19 %'],
            [300, '9,50 €'],
          ],
        ],
        [
          495,
          [
            [71, 'Rechnungsbeitrag'],
            [294, '59,50 €'],
          ],
        ],
      ]),
    ])
    expect(fields.total_invoice_including_vat).toBe(59.5)
    expect(fields.total_charge_excluding_vat).toBe(50)
  })

  it('reads the VAT a phrase says the amount contains', () => {
    const fields = extractFields([
      letter([
        [
          530,
          [
            [71, 'vierteljährlicher Beitrag'],
            [431, '220,00 €'],
          ],
        ],
        [
          541,
          [
            [71, 'in diesem Beitrag enthaltene Versicherungsteuer'],
            [430, '(35,13 €)'],
          ],
        ],
        [
          564,
          [
            [71, 'Zu zahlen'],
            [431, '220,00 €'],
          ],
        ],
      ]),
    ])
    expect(fields.total_vat_amount).toBe(35.13)
    expect(fields.total_invoice_including_vat).toBe(220)
  })

  it('takes the sender from a one-line return address over the window', () => {
    const fields = extractFields([
      page([
        [22, [[268, 'Kraxi GmbH', 14]]],
        [58, [[455, 'Flugzeugallee 17', 11]]],
        [71, [[455, '12345 Papierfeld', 11]]],
        [140, [[55, 'Kraxi GmbH · Flugzeugallee 17 · 12345 Papierfeld', 9]]],
        [162, [[55, 'Papierflieger-Vertriebs-GmbH', 11]]],
        [175, [[55, 'Rabattstr. 25', 11]]],
        [189, [[55, '34567 Osterhausen', 11]]],
      ]),
    ])
    expect(fields.business_name).toBe('Kraxi GmbH')
    expect(fields.business_address).toBe('Flugzeugallee 17, 12345 Papierfeld')
  })

  it('keeps a letterhead’s full name over a shorter return line of the same company', () => {
    const fields = extractFields([
      page([
        [40, [[57, 'Muster Software GmbH', 16]]],
        [58, [[57, 'Hauptstr. 1, 10115 Berlin']]],
        [125, [[57, 'Muster GmbH · Hauptstr. 1 · 10115 Berlin', 7]]],
        [140, [[57, 'Beispiel AG']]],
        [152, [[57, 'Beispielweg 5']]],
        [164, [[57, '80331 München']]],
      ]),
    ])
    expect(fields.business_name).toBe('Muster Software GmbH')
    expect(fields.business_address).toBe('Hauptstr. 1, 10115 Berlin')
  })

  it('takes the party the document’s e-mail and web addresses name, not the recipient beside it', () => {
    const fields = extractFields([
      page([
        [27, [[57, 'Invoice 2207', 18]]],
        [56, [[57, 'February 17, 2026', 11]]],
        [
          110,
          [
            [57, 'Fabrikam Corporation', 11],
            [514, 'NORTHWIND DE', 11],
          ],
        ],
        [
          124,
          [
            [57, 'Station Road, 21', 11],
            [509, 'Hofstraße 12', 11],
          ],
        ],
        [
          139,
          [
            [57, '48436 Düsseldorf', 11],
            [495, '20097 Hamburg', 11],
          ],
        ],
        [
          734,
          [
            [57, 'Home Page', 9],
            [312, 'Email', 9],
          ],
        ],
        [
          744,
          [
            [57, 'www.northwind.de', 11],
            [312, 'info@northwind.de', 11],
          ],
        ],
      ]),
    ])
    expect(fields.business_name).toBe('NORTHWIND DE')
    expect(fields.business_address).toBe('Hofstraße 12, 20097 Hamburg')
  })

  it('takes the company the legal footer names when the letterhead is a logo, never the labelled customer', () => {
    const fields = extractFields([
      page([
        [120, [[57, 'Kunde:']]],
        [132, [[57, 'Max Bau GmbH']]],
        [144, [[57, 'Bahnhofstr. 4']]],
        [156, [[57, '20095 Hamburg']]],
        [220, [[57, 'Rechnung', 16]]],
        [
          245,
          [
            [57, 'Rechnungsnummer: 88123'],
            [380, 'Rechnungsdatum: 03.03.2026'],
          ],
        ],
        [
          400,
          [
            [330, 'Rechnungsbetrag'],
            [480, '595,00 €'],
          ],
        ],
        [770, [[57, 'Beispiel Handels GmbH · Hafenstraße 9 · 20457 Hamburg', 7]]],
        [780, [[57, 'Amtsgericht Hamburg HRB 12345 · Geschäftsführer: Eva Nord', 7]]],
      ]),
    ])
    expect(fields.business_name).toBe('Beispiel Handels GmbH')
    expect(fields.business_address).toBe('Hafenstraße 9, 20457 Hamburg')
  })

  it('joins a supplier name set on two rows beside its Name: label', () => {
    const fields = extractFields([
      page([
        [160, [[70, 'Verkäufer']]],
        [
          177,
          [
            [70, 'Nummer:'],
            [261, '549910'],
          ],
        ],
        [195, [[261, 'MVM Musterhafter']]],
        [
          207,
          [
            [70, 'Name:'],
            [261, 'Versicherungsverein Musterstadt a.G.'],
          ],
        ],
        [
          237,
          [
            [70, 'Anschrift:'],
            [261, 'Musterstr. 12'],
          ],
        ],
        [255, [[261, 'DE 12345 Musterstadt']]],
      ]),
    ])
    expect(fields.business_name).toBe('MVM Musterhafter Versicherungsverein Musterstadt a.G.')
  })
})

describe('totals labels', () => {
  it('reads the VAT a gross contains ("Enthaltene MwSt. 19 %") and a gross under its label', () => {
    const fields = extractFields([
      page([
        [50, [[57, 'Nordlicht Media GmbH', 14]]],
        [66, [[57, 'Elbchaussee 10, 22763 Hamburg']]],
        [
          150,
          [
            [57, 'Rechnungsnummer', 8],
            [250, 'Rechnungsdatum', 8],
            [420, 'Fälligkeitsdatum', 8],
          ],
        ],
        [
          160,
          [
            [57, 'RE-5521'],
            [250, '02.03.2026'],
            [420, '16.03.2026'],
          ],
        ],
        [400, [[420, 'Gesamtbetrag', 8]]],
        [410, [[420, '1.428,00 €', 14]]],
        [
          440,
          [
            [57, 'Enthaltene MwSt. 19 %'],
            [420, '228,00 €'],
          ],
        ],
      ]),
    ])
    expect(fields.invoice_number).toBe('RE-5521')
    expect(fields.document_date).toBe('2026-03-02')
    expect(fields.total_invoice_including_vat).toBe(1428)
    expect(fields.total_vat_amount).toBe(228)
    expect(fields.total_charge_excluding_vat).toBe(1200)
  })

  it('reads "Balance due" as the gross though "Balance" alone is no total, and a bare "Net"', () => {
    const fields = extractFields([
      page([
        [40, [[400, 'INVOICE', 20]]],
        [
          70,
          [
            [400, 'Invoice #'],
            [480, '0007'],
          ],
        ],
        [144, [[40, 'Bright Ideas Ltd']]],
        [158, [[40, '22 King Street']]],
        [172, [[40, 'Manchester M2 4LQ']]],
        [
          300,
          [
            [350, 'Net'],
            [480, '£1,000.00'],
          ],
        ],
        [
          314,
          [
            [350, 'VAT @ 20%'],
            [480, '£200.00'],
          ],
        ],
        [
          328,
          [
            [350, 'Balance Due'],
            [480, '£1,200.00'],
          ],
        ],
      ]),
    ])
    expect(fields.total_charge_excluding_vat).toBe(1000)
    expect(fields.total_vat_amount).toBe(200)
    expect(fields.total_invoice_including_vat).toBe(1200)
    expect(fields.currency).toBe('GBP')
  })
})

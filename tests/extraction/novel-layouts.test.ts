/**
 * Invoice layouts the engine was not first written against (the kinds scripts/novel-invoices.ts
 * generates): the supplier only in the legal footer or as the payee of the bank details, names
 * whose legal form wraps onto the next line beside another column, totals tables with one VAT
 * column per rate, details tables (labels in one row, values in the next) beside a customer
 * block, invoices without VAT. Small pages built here, each asserting a field.
 */
import { describe, expect, it } from 'vitest'
import { extractFields } from '../../server/services/extraction/fields.ts'
import { hasLabel, type LabelField, labelAt, othersLabel } from '../../server/services/extraction/lexicon.ts'
import { addressLike } from '../../server/services/extraction/line-shapes.ts'
import type { PageText } from '../../server/services/extraction/pdf-text.ts'
import { type Cell, pageOf, type Row } from './page-builder.ts'

/** A page from rows placed at explicit heights: [y, cells]; a cell's width is 0.5 em per character. */
const page = (rows: Row[]): PageText[] => [pageOf(rows)]

/** An unlabelled customer address window (a company with its legal form) at the top left. */
const customerWindow: [number, Cell[]][] = [
  [150, [[58, 'Océane Logistics plc']]],
  [162, [[58, '93 Mill Lane']]],
  [174, [[58, 'Bristol BS1 4DJ']]],
]

const totalsRows: [number, Cell[]][] = [
  [
    400,
    [
      [380, 'Net amount'],
      [480, '€100.00'],
    ],
  ],
  [
    414,
    [
      [380, 'VAT 20%'],
      [480, '€20.00'],
    ],
  ],
  [
    428,
    [
      [380, 'Amount due'],
      [480, '€120.00'],
    ],
  ],
]

describe('the supplier where the letterhead does not name it', () => {
  it('takes the company of the legal footer over an unlabelled customer window', () => {
    const fields = extractFields(
      page([
        [60, [[52, 'Your partner in print', 8]]],
        ...customerWindow,
        [
          120,
          [
            [380, 'Invoice No'],
            [460, 'INV-4711'],
          ],
        ],
        [
          134,
          [
            [380, 'Invoice date'],
            [460, '12/03/2024'],
          ],
        ],
        ...totalsRows,
        [775, [[200, 'Alder Print Works Ltd · 138 High Street, Leeds LS1 5QS', 7]]],
        [783, [[120, 'Registered in England and Wales No. 08598507 · Registered office as above', 7]]],
      ]),
    )
    expect(fields.business_name).toBe('Alder Print Works Ltd')
    expect(fields.business_address).toBe('138 High Street, Leeds LS1 5QS')
    // The registration number after "No." in the legal footer is no invoice number.
    expect(fields.invoice_number).toBe('INV-4711')
  })

  it('parts a footer whose dots OCR read as "+" or " : ", and takes no address from a dated line', () => {
    const invoice = (dot: string) =>
      extractFields(
        page([
          [63, [[43, 'Your partner in print']]],
          [90, [[50, 'Invoice to:']]],
          [102, [[49, 'Jonas Renaud']]],
          [
            112,
            [
              [50, '42 High Street'],
              [319, 'Invoice Number: 373018250 dated April 6, 2025'],
            ],
          ],
          [
            123,
            [
              [50, 'Cambridge CB2 1TN'],
              [330, 'Service period: 01/03/2025 to March 31, 2025'],
            ],
          ],
          [
            154,
            [
              [52, 'Description'],
              [247, 'Qty'],
              [312, 'Unit price'],
              [437, 'Amount'],
            ],
          ],
          ...totalsRows,
          [270, [[44, 'Account name: Cobalt Logistics Ltd']]],
          [280, [[45, 'IBAN: GB22 NWBK 7046 4015 5836 23']]],
          [793, [[198, `Cobalt Logistics Ltd ${dot} 96 Station Road, Manchester M1 2AB`, 7]]],
          [801, [[126, 'Registered in England and Wales No. 05964648 - Registered office as above', 7]]],
        ]),
      )
    for (const dot of ['+', ':', '*']) {
      const fields = invoice(dot)
      expect(fields.business_name).toBe('Cobalt Logistics Ltd')
      expect(fields.business_address).toBe('96 Station Road, Manchester M1 2AB')
    }
    // A year and a word are no four-figure postcode and town in a dated or labelled line.
    expect(addressLike('Service period: 01/03/2025 to March 31, 2025')).toBe(false)
    expect(addressLike('Période : du 1 mars 2025 au 31 mars 2025')).toBe(false)
    expect(addressLike('2000 Antwerpen')).toBe(true)
    expect(addressLike('Adresse : 12 rue Haute')).toBe(true)
  })

  it('names the company by its legal name when the footer runs it on into its legal mentions ("… SAS au capital de …")', () => {
    const invoice = (footer: string) =>
      extractFields(
        page([
          [50, [[50, 'ÉNERGIE VERTE', 16]]],
          [70, [[50, '10 rue Lafayette — 75009 Paris']]],
          [120, [[330, 'M. et Mme Lefèvre']]],
          [132, [[330, '22 rue Victor Hugo']]],
          [144, [[330, '33000 Bordeaux']]],
          [
            200,
            [
              [50, 'Facture n° EV-2024-031178'],
              [300, 'Date : 05/03/2024'],
            ],
          ],
          ...totalsRows,
          [780, [[50, footer, 7]]],
        ]),
      ).business_name
    expect(invoice('Énergie Verte SAS au capital de 1 000 000 € - RCS Paris 451 234 567')).toBe(
      'Énergie Verte SAS',
    )
    // A legal form of two words is not cut ("Entrepreneur individuel"); an em dash parts the footer too.
    expect(invoice('Énergie Verte — Entrepreneur individuel — SIRET 451 234 567 00012')).toBe('Énergie Verte')
    expect(invoice('Énergie Verte — SAS au capital de 1 000 € — RCS Paris 451 234 567')).toBe('Énergie Verte')
  })

  it('takes the company of a legal footer that writes its legal form first ("SAS Jardins de Bourgogne au capital de …"), with the letterhead\'s address, over an unlabelled customer window', () => {
    const fields = extractFields(
      page([
        [60, [[40, '7 boulevard Carnot']]],
        [72, [[40, '21000 Dijon']]],
        [84, [[40, 'Tél. 03 80 11 22 33']]],
        [130, [[330, 'Mairie de Chenôve']]],
        [142, [[330, 'Service des achats']]],
        [154, [[330, '1 place Pierre Meunier']]],
        [166, [[330, '21300 Chenôve']]],
        [220, [[40, 'FACTURE', 16]]],
        [
          240,
          [
            [40, 'Numéro : 26-0457'],
            [330, 'Date : 09/04/2026'],
          ],
        ],
        ...totalsRows,
        [
          780,
          [
            [
              40,
              'SAS Jardins de Bourgogne au capital de 10 000 € - RCS Dijon 901 234 567 - N° TVA FR45901234567',
              7,
            ],
          ],
        ],
      ]),
    )
    expect(fields.business_name).toBe('SAS Jardins de Bourgogne')
    expect(fields.business_address).toBe('7 boulevard Carnot, 21000 Dijon')
    expect(fields.vat_number).toBe('FR45901234567')
    // "Numéro :" spelled out is the bare "N° :" under the title.
    expect(fields.invoice_number).toBe('26-0457')
  })

  it('reads a letterhead address whose street starts with four figures past it to the town ("1450 Pearl Street" is no postcode)', () => {
    const fields = extractFields(
      page([
        [40, [[40, 'Summit Outdoor Supply, Inc.', 15]]],
        [58, [[40, '1450 Pearl Street, Suite 200']]],
        [70, [[40, 'Boulder, CO 80302']]],
        [82, [[40, '(303) 555-0142 · billing@summitoutdoor.com']]],
        ...customerWindow,
        ...totalsRows,
      ]),
    )
    expect(fields.business_name).toBe('Summit Outdoor Supply, Inc.')
    expect(fields.business_address).toBe('1450 Pearl Street, Suite 200, Boulder, CO 80302')
  })

  it('takes the payee of the bank details over a slogan and a customer window', () => {
    const fields = extractFields(
      page([
        [60, [[52, 'Qualität seit 1998', 8]]],
        [70, [[52, 'Am Markt 144, 50667 Köln', 8]]],
        [150, [[58, 'Pivot Handel GmbH']]],
        [162, [[58, 'Lindenallee 68']]],
        [174, [[58, '20095 Hamburg']]],
        ...totalsRows,
        [480, [[52, 'Bankverbindung', 8.5]]],
        [491, [[52, 'Kontoinhaber: Cobalt Beratung GmbH & Co. KG', 8.5]]],
        [502, [[52, 'IBAN: DE90 3769 8560 9921 8003 46', 8.5]]],
      ]),
    )
    expect(fields.business_name).toBe('Cobalt Beratung GmbH & Co. KG')
    expect(fields.business_address).toBe('Am Markt 144, 50667 Köln')
  })

  it('keeps a letterhead company when the payee is a person', () => {
    const fields = extractFields(
      page([
        [60, [[52, 'Bei Spiel GmbH', 12]]],
        [76, [[52, 'Ecke 12, 12345 Stadthausen']]],
        ...totalsRows,
        [760, [[420, 'Kontoinhaber: Max Mustermann', 7.5]]],
        [770, [[420, 'IBAN: DE90 3769 8560 9921 8003 46', 7.5]]],
      ]),
    )
    expect(fields.business_name).toBe('Bei Spiel GmbH')
  })

  it('never takes a buyer reference label for a name', () => {
    const fields = extractFields(
      page([
        [60, [[52, 'PO number']]],
        [72, [[52, 'Your ref']]],
        ...totalsRows,
        [775, [[200, 'Kestrel Supplies LLP · 12 Station Road, Leeds LS1 5QS', 7]]],
        [783, [[200, 'Registered in England and Wales No. 01234567', 7]]],
      ]),
    )
    expect(fields.business_name).toBe('Kestrel Supplies LLP')
  })
})

describe('names whose legal form wraps', () => {
  it('joins the line above a one-word name and its form, beside a title in another column', () => {
    const fields = extractFields(
      page([
        [
          62,
          [
            [51, 'Brightwater', 13.2],
            [461, 'RECHNUNG', 14],
          ],
        ],
        [78, [[51, 'Technik AG', 13.2]]],
        [
          97,
          [
            [51, 'Gartenweg 166', 8.4],
            [300, 'Rechnungsnummer: R-88', 8.4],
          ],
        ],
        [107, [[51, '20095 Hamburg', 8.4]]],
      ]),
    )
    expect(fields.business_name).toBe('Brightwater Technik AG')
    expect(fields.business_address).toBe('Gartenweg 166, 20095 Hamburg')
  })

  it('joins a legal form wrapped under a supplier label, past a line of the customer column', () => {
    const fields = extractFields(
      page([
        [73, [[52, 'Rechnung', 16]]],
        [102, [[52, 'Lieferant: Lindenhof Technik GmbH & Co.']]],
        [108, [[320, 'Quarry Beratung e.K.']]],
        [113, [[52, 'KG']]],
        [124, [[52, 'Hauptstraße 95, 10115 Berlin']]],
      ]),
    )
    expect(fields.business_name).toBe('Lindenhof Technik GmbH & Co. KG')
  })

  it('joins "(haftungsbeschränkt)" wrapped under a letterhead name', () => {
    const fields = extractFields(
      page([
        [73, [[52, 'Pivot Bau UG', 15]]],
        [91, [[52, '(haftungsbeschränkt)', 15]]],
        [110, [[52, 'Schillerstraße 18']]],
        [121, [[52, '04109 Leipzig']]],
      ]),
    )
    expect(fields.business_name).toBe('Pivot Bau UG (haftungsbeschränkt)')
  })

  it('joins a name broken word by word in a narrow column beside a wide details table', () => {
    const fields = extractFields(
      page([
        [83, [[51, 'Horizon', 12.6]]],
        [
          98,
          [
            [51, 'Trading', 12.6],
            [184, 'Invoice Number', 6.7],
            [317, 'Issue date', 6.7],
          ],
        ],
        [
          112,
          [
            [51, 'Limited', 12.6],
            [184, 'RE37304260', 8],
            [317, 'Oct 7, 2022', 8],
          ],
        ],
        [131, [[51, '86 High Street', 8]]],
        [141, [[51, 'Manchester M1 2AB', 8]]],
      ]),
    )
    expect(fields.business_name).toBe('Horizon Trading Limited')
    expect(fields.business_address).toBe('86 High Street, Manchester M1 2AB')
  })

  it('joins such a name as OCR read it, each line sized by its own letters, with the line over the largest', () => {
    const scanned = pageOf([
      [52, [[514, 'Seite 1/1', 8.7]]],
      [77, [[45, 'Granite', 15.6]]],
      [96, [[46, 'Beratung', 18.7]]],
      [
        104,
        [
          [199, 'Rechnungsnummer', 10.9],
          [399, 'Zahlbar bis', 10.9],
        ],
      ],
      [
        113,
        [
          [45, 'GmbH & Co.', 15.9],
          [199, 'F713089/26 - Datum: 24. August 2026', 10],
        ],
      ],
      [131, [[46, 'KG', 15.3]]],
      [151, [[45, 'Am Markt 17', 9.7]]],
      [162, [[45, '50667 Köln', 9.7]]],
    ])
    // Read by OCR: every word with its confidence.
    for (const line of scanned.lines)
      for (const seg of line.segments) seg.confidence = seg.text.split(' ').map(() => 95)
    const fields = extractFields([scanned])
    expect(fields.business_name).toBe('Granite Beratung GmbH & Co. KG')
    expect(fields.business_address).toBe('Am Markt 17, 50667 Köln')
  })

  it('does not join a slogan in the type of the name under it', () => {
    const fields = extractFields(
      page([
        [83, [[51, 'Horizon Limited', 12.6]]],
        [98, [[51, 'Print Works', 12.6]]],
        [112, [[51, 'Quality Since', 12.6]]],
        [131, [[51, '86 High Street', 8]]],
        [141, [[51, 'Manchester M1 2AB', 8]]],
      ]),
    )
    expect(fields.business_name).toBe('Horizon Limited')
  })
})

describe('a name OCR read without its accents', () => {
  const footer = (text: string): Row => [790, [[150, text, 7]]]
  it('is given as the footer spells it with them', () => {
    const fields = extractFields(
      page([
        [
          65,
          [
            [49, 'Lindenhof Batiment SA', 16.8],
            [474, 'FACTURE', 16.5],
          ],
        ],
        [90, [[49, '171 boulevard Voltaire']]],
        [102, [[49, '67000 Strasbourg']]],
        ...totalsRows,
        footer('Lindenhof Bâtiment SA · 171 boulevard Voltaire, 67000 Strasbourg · Tél. 03 88 00 00 00'),
      ]),
    )
    expect(fields.business_name).toBe('Lindenhof Bâtiment SA')
  })

  it('keeps its spelling where the page prints no other letters for it', () => {
    const fields = extractFields(
      page([
        [65, [[49, 'Lindenhof Batiment SA', 16.8]]],
        [90, [[49, '171 boulevard Voltaire']]],
        [102, [[49, '67000 Strasbourg']]],
        ...totalsRows,
        footer('Lindenhof Bâtiments Réunis · 12 rue Haute, 67000 Strasbourg'),
      ]),
    )
    expect(fields.business_name).toBe('Lindenhof Batiment SA')
  })
})

describe('details and totals laid out as tables', () => {
  it('reads the number and date under their headers though an address line comes between', () => {
    const fields = extractFields(
      page([
        [79, [[52, 'Océane Fournitures SARL', 15]]],
        [
          110,
          [
            [302, 'Numéro de facture', 8],
            [403, 'Date de facture', 8],
            [489, 'Échéance', 8],
          ],
        ],
        [119, [[52, '84 rue des Lilas']]],
        [
          123,
          [
            [302, 'INV-426077'],
            [403, '14/04/2015'],
            [489, '14/05/2015'],
          ],
        ],
        [130, [[52, '33000 Bordeaux']]],
      ]),
    )
    expect(fields.invoice_number).toBe('INV-426077')
    expect(fields.document_date).toBe('2015-04-14')
  })

  it('reads the issue date of a details row that shares its line with a customer block', () => {
    const fields = extractFields(
      page([
        [60, [[52, 'Kestrel Supplies LLP', 14]]],
        [
          104,
          [
            [241, 'Issue date', 8],
            [355, 'Invoice Number', 8],
            [442, 'Due', 8],
          ],
        ],
        [109, [[58, 'Customer:']]],
        [
          118,
          [
            [58, 'Oliver Lefèvre'],
            [241, 'September 26, 2021'],
            [355, 'INV-426108'],
            [442, 'November 10, 2021'],
          ],
        ],
        [132, [[58, '32 High Street']]],
      ]),
    )
    expect(fields.document_date).toBe('2021-09-26')
    expect(fields.invoice_number).toBe('INV-426108')
  })

  it('sums the VAT columns of a totals table, one per rate', () => {
    const fields = extractFields(
      page([
        [60, [[52, 'Alder Print Works Ltd', 14]]],
        [
          261,
          [
            [60, 'Subtotal', 8],
            [188, 'Tax 5 %', 8],
            [298, 'Tax 20 %', 8],
            [409, 'Invoice total', 8],
          ],
        ],
        [
          275,
          [
            [60, '€9,203.17'],
            [188, '€428.55'],
            [298, '€126.43'],
            [409, '€9,758.15'],
          ],
        ],
      ]),
    )
    expect(fields.total_vat_amount).toBe(554.98)
    expect(fields.total_charge_excluding_vat).toBe(9203.17)
    expect(fields.total_invoice_including_vat).toBe(9758.15)
  })
})

describe('invoices without VAT', () => {
  it.each(['TVA non applicable, art. 293 B du CGI', 'Kleinunternehmer gem. §19 UStG', 'VAT exempt'])(
    'reads "%s" as no VAT: VAT 0 and the net the total',
    (note) => {
      const fields = extractFields(
        page([
          [60, [[52, 'Atelier Serein SARL', 14]]],
          [
            400,
            [
              [380, 'Total'],
              [480, '450,00 €'],
            ],
          ],
          [420, [[52, note]]],
        ]),
      )
      expect(fields.has_vat).toBe(false)
      expect(fields.total_vat_amount).toBe(0)
      expect(fields.total_charge_excluding_vat).toBe(450)
    },
  )

  it('keeps a printed net that differs from the total as a mismatch', () => {
    const fields = extractFields(
      page([
        [60, [[52, 'Atelier Serein SARL', 14]]],
        [
          386,
          [
            [380, 'Total HT'],
            [480, '440,00 €'],
          ],
        ],
        [
          400,
          [
            [380, 'Net à payer'],
            [480, '450,00 €'],
          ],
        ],
        [420, [[52, 'TVA non applicable, art. 293 B du CGI']]],
      ]),
    )
    expect(fields.total_charge_excluding_vat).toBe(440)
    expect(fields.total_invoice_including_vat).toBe(450)
  })
})

describe('a company registration number beside a bare "No."', () => {
  const letterhead: [number, Cell[]][] = [
    [60, [[52, 'Kestrel Supplies LLP', 12]]],
    [76, [[52, '12 Station Road, Leeds LS1 5QS']]],
    [110, [[380, 'Issue date: 24-JAN-2019']]],
  ]
  const footer = (text: string): [number, Cell[]] => [783, [[120, text, 7]]]

  it.each([
    'Registered in England and Wales No. 77757631 · Registered office as above · VAT Reg No GB927422718',
    'Kestrel Supplies LLP · Registered in England No 01234567',
    'SARL au capital de 10 000 € · RCS Lyon N° 123 456 789',
  ])('is no invoice number: an invoice that prints none has none (%s)', (legal) => {
    const fields = extractFields(page([...letterhead, ...totalsRows, footer(legal)]))
    expect(fields.invoice_number).toBeNull()
  })

  it('leaves the invoice number printed under the title', () => {
    const fields = extractFields(
      page([
        ...letterhead,
        [96, [[380, 'Invoice No. INV-2019-0042']]],
        ...totalsRows,
        footer('Registered in England and Wales No. 77757631 · Registered office as above'),
      ]),
    )
    expect(fields.invoice_number).toBe('INV-2019-0042')
  })
})

describe('addresses beside a customer window', () => {
  it('reads a country wrapped onto the next line as the country, not a word of the address', () => {
    const fields = extractFields(
      page([
        [60, [[52, 'Seller: Atelier Logistics Ltd']]],
        [
          72,
          [
            [52, '81 Kings Parade, Manchester M1 2AB, United'],
            [380, 'Customer:'],
          ],
        ],
        [
          84,
          [
            [52, 'Kingdom'],
            [380, 'Quarry Logistics plc'],
          ],
        ],
        [96, [[380, '12 Mill Lane']]],
        [108, [[380, 'London EC1A 1BB']]],
        ...totalsRows,
      ]),
    )
    expect(fields.business_address).toBe('81 Kings Parade, Manchester M1 2AB, United Kingdom')
  })

  it("keeps a right-aligned sender's lines that start left of its first out of the customer's block", () => {
    const right = (y: number, text: string): [number, Cell[]] => [y, [[544 - text.length * 4.75, text]]]
    const fields = extractFields(
      page([
        [
          79,
          [
            [58, 'Bill to:'],
            [463, 'The Alder', 15],
          ],
        ],
        [95, [[58, 'Rheinland Consulting plc']]],
        right(101, 'Bellevue Logistics LLP'),
        [106, [[58, '10 High Street']]],
        right(112, '145 High Street'),
        [117, [[58, 'Edinburgh EH1 1YZ']]],
        right(123, 'Glasgow G1 2FF'),
        right(135, 'United Kingdom'),
        ...totalsRows,
      ]),
    )
    expect(fields.business_name).toBe('Bellevue Logistics LLP')
    // (Whether the country on a line of its own ends the address is the scorer's choice.)
    expect(fields.business_address).toMatch(/^145 High Street, Glasgow G1 2FF(, United Kingdom)?$/)
  })
})

describe('a name printed on three lines', () => {
  it('starts the address after the name\'s last line ("Atelier" / "Engineering" / "Limited")', () => {
    const fields = extractFields(
      page([
        [60, [[52, 'Quality since 1998', 8]]],
        [
          84,
          [
            [52, 'Atelier', 12],
            [460, 'Tax Invoice', 12],
          ],
        ],
        [
          98,
          [
            [52, 'Engineering', 12],
            [250, 'Invoice no.'],
          ],
        ],
        [108, [[250, 'RE14208547']]],
        [114, [[52, 'Limited', 12]]],
        [128, [[52, '24 High Street']]],
        [140, [[52, 'Cambridge CB2 1TN']]],
        [152, [[52, 'VAT No GB549887860']]],
        ...totalsRows,
      ]),
    )
    expect(fields.business_name).toBe('Atelier Engineering Limited')
    expect(fields.business_address).toBe('24 High Street, Cambridge CB2 1TN')
  })

  it('reads a legal form broken after "& Co." on to the line under it ("GmbH & Co." / "KG")', () => {
    const fields = extractFields(
      page([
        [60, [[52, 'Ihr Partner für Technik', 8]]],
        [
          84,
          [
            [52, 'Rheinland', 12],
            [460, 'RECHNUNG', 12],
          ],
        ],
        [98, [[52, 'Software', 12]]],
        [112, [[52, 'GmbH & Co.', 12]]],
        [126, [[52, 'KG', 12]]],
        [140, [[52, 'Am Markt 108']]],
        [152, [[52, '04109 Leipzig']]],
        ...totalsRows,
      ]),
    )
    expect(fields.business_name).toBe('Rheinland Software GmbH & Co. KG')
    expect(fields.business_address).toBe('Am Markt 108, 04109 Leipzig')
  })

  it('reads a legal form\'s words in parentheses on the line under the name ("UG" / "(haftungsbeschränkt)")', () => {
    const fields = extractFields(
      page([
        [
          61,
          [
            [51, 'Brightwater Technik', 12],
            [478, 'RECHNUNG', 13],
          ],
        ],
        [76, [[51, 'UG', 12]]],
        [91, [[51, '(haftungsbeschränkt)', 12]]],
        [108, [[51, 'Gartenweg 114', 7.7]]],
        [117, [[51, '20095 Hamburg', 7.7]]],
        ...totalsRows,
      ]),
    )
    expect(fields.business_name).toBe('Brightwater Technik UG (haftungsbeschränkt)')
    expect(fields.business_address).toBe('Gartenweg 114, 20095 Hamburg')
  })

  it('takes no date label of a details table beside it for a name ("Fällig am")', () => {
    const fields = extractFields(
      page([
        [
          61,
          [
            [51, 'Granite', 12],
            [478, 'Rechnung', 13],
          ],
        ],
        [76, [[51, 'Beratung', 12]]],
        [
          86,
          [
            [175, 'Rechnung Nr.', 6.5],
            [309, 'Bestelldatum', 6.5],
            [370, 'Fällig am', 6.5],
          ],
        ],
        [91, [[51, 'e.K.', 12]]],
        [
          97,
          [
            [175, '2026-159059 vom 11. Juli 2019', 7.7],
            [309, '3. Juli 2019', 7.7],
            [370, '25. Juli 2019', 7.7],
          ],
        ],
        [108, [[51, 'Gartenweg 130', 7.7]]],
        [117, [[51, '10115 Berlin', 7.7]]],
        ...totalsRows,
      ]),
    )
    expect(fields.business_name).toBe('Granite Beratung e.K.')
    expect(fields.business_address).toBe('Gartenweg 130, 10115 Berlin')
  })
})

describe('a right-aligned letterhead beside an unlabelled customer window', () => {
  it("reads the address under the company's name, not the window's, when the bank details name it as payee too", () => {
    const right = (text: string, size = 9.5): Cell => [544 - text.length * size * 0.5, text, size]
    const fields = extractFields(
      page([
        [80, [[58, 'Claire Morel'], right('Valmont Supplies LLP', 15)]],
        [95, [[58, '75 Victoria Road']]],
        [101, [right('89 Church Street')]],
        [106, [[58, 'Manchester M1 2AB']]],
        [112, [right('London EC1A 1BB')]],
        [123, [right('United Kingdom')]],
        [135, [right('Tel. 0117 686 1477 · contact@valmontsupplies.co.uk', 8)]],
        [154, [[52, 'INVOICE', 16]]],
        [180, [[52, 'Invoice no.: INV-111120']]],
        [191, [[52, 'Invoice date: October 11, 2022']]],
        ...totalsRows,
        [460, [[52, 'Bank details', 8.5]]],
        [470, [[52, 'Account holder: Valmont Supplies LLP', 8.5]]],
        [482, [[52, 'IBAN: GB33 BUKB 2020 1555 5555 55', 8.5]]],
      ]),
    )
    expect(fields.business_name).toBe('Valmont Supplies LLP')
    expect(fields.business_address).toBe('89 Church Street, London EC1A 1BB')
  })
})

describe('a sub-total that is the net', () => {
  /** A seller, a rate table (rate | net | VAT rows) and the rows of totals under it, label | amount. */
  const invoice = (rates: [string, string, string][], totals: [string, string][]) =>
    page([
      [60, [[52, 'Kestrel Supplies LLP', 12]]],
      [76, [[52, '12 Station Road, Leeds LS1 5QS']]],
      [96, [[380, 'Invoice No. INV-2019-0042']]],
      [
        273,
        [
          [392, 'Rate'],
          [433, 'Net'],
          [497, 'VAT'],
        ],
      ],
      ...rates.map(([rate, net, vat], i): [number, Cell[]] => [
        288 + i * 12,
        [
          [392, rate],
          [433, net],
          [497, vat],
        ],
      ]),
      ...totals.map(([label, amount], i): [number, Cell[]] => [
        330 + i * 14,
        [
          [364, label],
          [483, amount],
        ],
      ]),
    ])

  it('keeps a sub-total the VAT was worked out on at its printed rate, and a gross that does not add up is a mismatch', () => {
    const fields = extractFields(
      invoice(
        [['20 %', '£1,316.92', '£263.38']],
        [
          ['Subtotal', '£1,316.92'],
          ['Gross total amount', '£1,590.30'],
        ],
      ),
    )
    expect(fields.total_charge_excluding_vat).toBe(1316.92)
    expect(fields.total_vat_amount).toBe(263.38)
    expect(fields.total_invoice_including_vat).toBe(1590.3)
  })

  it("keeps a sub-total that is the sum of a rate table's bases at two rates, and a gross that does not add up is a mismatch", () => {
    const fields = extractFields(
      invoice(
        [
          ['20 %', '€4,489.10', '€897.82'],
          ['5 %', '€6,492.38', '€324.62'],
        ],
        [
          ['Subtotal', '€10,981.48'],
          ['Total VAT', '€1,222.44'],
          ['Total incl. VAT', '€12,204.92'],
        ],
      ),
    )
    expect(fields.total_charge_excluding_vat).toBe(10981.48)
    expect(fields.total_vat_amount).toBe(1222.44)
    expect(fields.total_invoice_including_vat).toBe(12204.92)
  })

  it('keeps a sub-total whose VAT lines of two rates were worked out on it, and a gross that does not add up is a mismatch', () => {
    const fields = extractFields(
      page([
        [60, [[52, 'Kestrel Supplies LLP', 12]]],
        [76, [[52, '12 Station Road, Leeds LS1 5QS']]],
        [96, [[380, 'Invoice No. INV-2019-0042']]],
        ...(
          [
            ['Subtotal', '£19,329.63'],
            ['VAT @ 20%', '£3,267.42'],
            ['VAT @ 5%', '£149.63'],
            ['Total due', '£22,756.68'],
          ] as const
        ).map(([label, amount], i): [number, Cell[]] => [
          300 + i * 14,
          [
            [364, label],
            [483, amount],
          ],
        ]),
      ]),
    )
    expect(fields.total_charge_excluding_vat).toBe(19329.63)
    expect(fields.total_vat_amount).toBe(3417.05)
    expect(fields.total_invoice_including_vat).toBe(22756.68)
  })

  it('reads a header "Montant total net" as the net\'s, not as "Montant total" (the longer label decides)', () => {
    const fields = extractFields(
      page([
        [60, [[52, 'Océane Menuiserie SA', 12]]],
        [76, [[52, '12 rue de la Paix, 44000 Nantes']]],
        [96, [[380, 'Facture N° F-2019-0042']]],
        [
          300,
          [
            [58, 'Montant total net'],
            [280, 'TVA 20 %'],
            [450, 'Net à payer'],
          ],
        ],
        [
          312,
          [
            [58, '2 673,32 €'],
            [280, '534,66 €'],
            [450, '3 257,98 €'],
          ],
        ],
      ]),
    )
    expect(fields.total_charge_excluding_vat).toBe(2673.32)
    expect(fields.total_vat_amount).toBe(534.66)
    expect(fields.total_invoice_including_vat).toBe(3257.98)
  })
})

describe("a total's label alone over its amount", () => {
  it('reads "Gesamtbetrag" over "1.022,09 €" as the total, not the last item row', () => {
    const fields = extractFields(
      page([
        [60, [[52, 'Pivot Bau AG', 12]]],
        [76, [[52, 'Am Markt 119, 80331 München']]],
        [96, [[380, 'Rechnungsnummer: 2018-0042']]],
        [
          200,
          [
            [52, 'Druckerpatronen'],
            [250, '4'],
            [330, '124,04 €'],
            [420, '496,16 €'],
          ],
        ],
        [
          212,
          [
            [52, 'Kopierpapier A4'],
            [250, '1'],
            [330, '525,93 €'],
            [420, '525,93 €'],
          ],
        ],
        [236, [[52, 'Gesamtbetrag']]],
        [248, [[52, '1.022,09 €']]],
        [272, [[52, 'Kleinunternehmer gem. §19 UStG']]],
      ]),
    )
    expect(fields.total_invoice_including_vat).toBe(1022.09)
    expect(fields.has_vat).toBe(false)
  })
})

describe('the VAT as printed, when the gross does not add up', () => {
  const supplier: [number, Cell[]][] = [
    [60, [[52, 'Eichen Bau GmbH', 12]]],
    [76, [[52, 'Gartenweg 9, 20095 Hamburg']]],
    [96, [[380, 'Rechnungsnummer: 2018-0042']]],
  ]
  it('reads "zzgl. MwSt. 19 %" as the VAT', () => {
    const fields = extractFields(
      page([
        ...supplier,
        [
          300,
          [
            [350, 'Nettobetrag'],
            [480, '11.766,13 €'],
          ],
        ],
        [
          314,
          [
            [350, 'zzgl. MwSt. 19 %'],
            [480, '2.235,56 €'],
          ],
        ],
        [
          328,
          [
            [350, 'Gesamtbetrag'],
            [480, '14.002,69 €'],
          ],
        ],
      ]),
    )
    expect(fields.total_vat_amount).toBe(2235.56)
    expect(fields.total_charge_excluding_vat).toBe(11766.13)
  })

  it('reads a French rate table "Taux | Base HT | TVA"', () => {
    const fields = extractFields(
      page([
        ...supplier,
        [
          273,
          [
            [392, 'Taux'],
            [433, 'Base HT'],
            [497, 'TVA'],
          ],
        ],
        [
          288,
          [
            [392, '10 %'],
            [433, '6 554,00 €'],
            [497, '655,40 €'],
          ],
        ],
        [
          310,
          [
            [364, 'Total hors taxes'],
            [488, '6 554,00 €'],
          ],
        ],
        [
          325,
          [
            [364, 'Montant total brut'],
            [483, '7 219,40 €'],
          ],
        ],
      ]),
    )
    expect(fields.total_vat_amount).toBe(655.4)
    expect(fields.total_invoice_including_vat).toBe(7219.4)
  })
})

describe('a date wrapped onto the next line', () => {
  it('reads "… vom 12." over "Februar 2015" as the issue date, not the order date under it', () => {
    const fields = extractFields(
      page([
        [60, [[52, 'Alder Druckerei e.K.', 12]]],
        [76, [[52, 'Lindenallee 152, 04109 Leipzig']]],
        [118, [[313, 'Rechnungsnummer: 2026-767028 vom 12.']]],
        [125, [[58, 'Kunde:']]],
        [129, [[313, 'Februar 2015']]],
        [136, [[58, 'Claire Renaud']]],
        [141, [[313, 'Bestelldatum: 3. Februar 2015']]],
        ...totalsRows,
      ]),
    )
    expect(fields.document_date).toBe('2015-02-12')
  })
})

describe('a due date printed before the issue date', () => {
  it.each([
    ['Due date: 30/04/2026', 'Invoice date: 31/03/2026'],
    ["Date d'échéance : 30/04/2026", 'Date : 31/03/2026'],
    ['Fälligkeitsdatum: 30.04.2026', 'Rechnungsdatum: 31.03.2026'],
    ['Fecha de vencimiento: 30/04/2026', 'Fecha: 31/03/2026'],
  ])('takes "%s" for the due date and "%s" for the issue date', (due, issued) => {
    const fields = extractFields(
      page([
        [60, [[52, 'Alder Druckerei GmbH', 12]]],
        [76, [[52, 'Lindenallee 152, 04109 Leipzig']]],
        [118, [[313, 'Invoice No: 2026-0087']]],
        [130, [[313, due]]],
        [142, [[313, issued]]],
        ...totalsRows,
      ]),
    )
    expect(fields.document_date).toBe('2026-03-31')
  })
})

describe("another party's VAT id", () => {
  const unlabelledWindow = (vatLine: string): [number, Cell[]][] => [
    [86, [[52, 'Rechnungssteller: Cobalt Technik GmbH &']]],
    [92, [[320, 'Bellevue Handel e.K.']]],
    [97, [[52, 'Co. KG']]],
    [104, [[320, 'Schillerstraße 113']]],
    [108, [[52, 'Gartenweg 90, 20095 Hamburg']]],
    [115, [[320, '70173 Stuttgart']]],
    [126, [[320, vatLine]]],
    [300, [[52, 'Kleinunternehmer gem. §19 UStG']]],
    [
      320,
      [
        [380, 'Summe'],
        [480, '15.328,96 EUR'],
      ],
    ],
  ]

  it("takes a VAT id labelled as the customer's for none of the supplier's, and its block for the customer's", () => {
    const fields = extractFields(page(unlabelledWindow('USt-IdNr. Kunde: DE602963475')))
    expect(fields.vat_number).toBeNull()
    expect(fields.business_name).toBe('Cobalt Technik GmbH & Co. KG')
    expect(fields.business_address).toBe('Gartenweg 90, 20095 Hamburg')
  })

  it("keeps the same VAT id as the supplier's when nothing says it is the customer's", () => {
    const fields = extractFields(page(unlabelledWindow('USt-IdNr.: DE602963475')))
    expect(fields.vat_number).toBe('DE602963475')
  })

  it('reads "Your VAT No" and "N° TVA client" as the other party\'s labels', () => {
    expect(othersLabel('vat_id', 'Your VAT No: GB123456789')).toBe(true)
    expect(othersLabel('vat_id', 'N° TVA client : FR11676856138')).toBe(true)
    expect(othersLabel('vat_id', 'Client: Serein SARL · N° TVA : FR11676856138')).toBe(false)
    expect(othersLabel('vat_id', 'USt-IdNr.: DE602963475')).toBe(false)
  })

  it('reads a VAT id under its label wrapped over two lines ("N° TVA" / "intracommunautaire")', () => {
    const fields = extractFields(
      page([
        [60, [[52, 'Pivot Menuiserie SASU', 12]]],
        [76, [[52, '134 rue des Lilas']]],
        [88, [[52, '31000 Toulouse']]],
        [100, [[52, 'N° TVA']]],
        [110, [[52, 'intracommunautaire']]],
        [120, [[52, 'FR11676856138']]],
        ...totalsRows,
      ]),
    )
    expect(fields.vat_number).toBe('FR11676856138')
  })
})

describe('expense documents of kinds the visible sets hold few of', () => {
  it("books a hotel folio's tourist tax, printed after the net and its VAT, with the net", () => {
    for (const [label, money] of [
      ['Taxe de séjour', (n: string) => `${n} €`],
      ['Kurtaxe', (n: string) => `${n} €`],
      ['City tax', (n: string) => `£${n.replace(',', '.')}`],
    ] as const) {
      const fields = extractFields(
        page([
          [60, [[200, 'Hôtel Saint-Jacques', 18]]],
          [84, [[170, '177 boulevard Voltaire · 69002 Lyon']]],
          [130, [[52, 'N° de facture: F201961486']]],
          [142, [[52, 'Date: 12/07/2019']]],
          [
            220,
            [
              [52, '10/07/2019'],
              [150, 'Nuitée'],
              [480, money('80,00')],
            ],
          ],
          [
            232,
            [
              [52, '10/07/2019'],
              [150, label],
              [480, money('0,55')],
            ],
          ],
          [
            300,
            [
              [360, 'Total HT'],
              [480, money('145,45')],
            ],
          ],
          [
            312,
            [
              [360, 'TVA 10 %'],
              [480, money('14,55')],
            ],
          ],
          [
            324,
            [
              [360, label],
              [480, money('1,10')],
            ],
          ],
          [
            336,
            [
              [360, 'Total TTC'],
              [480, money('161,10')],
            ],
          ],
          [
            348,
            [
              [360, 'Payé CB'],
              [480, `-${money('161,10')}`],
            ],
          ],
          [
            360,
            [
              [360, 'Solde'],
              [480, money('0,00')],
            ],
          ],
        ]),
      )
      expect(fields.total_invoice_including_vat).toBe(161.1)
      expect(fields.total_vat_amount).toBe(14.55)
      expect(fields.total_charge_excluding_vat).toBe(146.55)
    }
  })

  it('reads a till\'s number after a bare "Ticket", "Beleg" or "Receipt" beside its date and time', () => {
    const till = (meta: Cell[]) =>
      extractFields([
        pageOf(
          [
            [20, [[40, 'CAFÉ DU PORT', 11]]],
            [34, [[50, '12 quai de Bercy']]],
            [44, [[60, '44000 Nantes']]],
            [70, meta],
            [
              90,
              [
                [10, '2 x Café expresso'],
                [160, '4,40'],
              ],
            ],
            [
              104,
              [
                [10, 'TOTAL TTC'],
                [140, '4,40 EUR'],
              ],
            ],
          ],
          { width: 209, height: 226, size: 8.5 },
        ),
      ]).invoice_number
    expect(
      till([
        [10, 'Ticket 02991'],
        [110, '04/04/2024 15:19'],
      ]),
    ).toBe('02991')
    expect(
      till([
        [10, '13.01.2026 21:23'],
        [120, 'Beleg T9655'],
      ]),
    ).toBe('T9655')
    expect(
      till([
        [10, 'Receipt A3015'],
        [110, '02/04/2026 11:50'],
      ]),
    ).toBe('A3015')
  })
})

describe('lexicon keys for these layouts', () => {
  const cases: [LabelField, string[]][] = [
    ['payee', ['Account holder', 'Bénéficiaire', 'Titulaire du compte', 'Kontoinhaber', 'Payee']],
    ['buyer_reference', ['Your ref', 'PO number', 'Votre référence', 'Ihre Referenz', 'Ihr Zeichen']],
    ['amount_column', ['Netto', 'PU HT', 'Base HT', 'Gross']],
  ]
  it.each(cases)('%s labels in the three languages match', (field, labels) => {
    for (const label of labels) expect(labelAt(field, `${label}: x`), label).not.toBeNull()
  })

  it('finds a no-VAT mention inside a sentence and not in an ordinary VAT line', () => {
    expect(hasLabel('no_vat', 'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.')).toBe(true)
    expect(hasLabel('no_vat', 'tva non applicable, art. 293 b du cgi')).toBe(true)
    expect(hasLabel('no_vat', 'TVA 20 % sur 100,00 €')).toBe(false)
    expect(hasLabel('no_vat', 'VAT 20% 20.00')).toBe(false)
  })

  it('labels the new total and date variants', () => {
    expect(labelAt('total_incl', 'Zu zahlender Betrag 5.930,19 €')).not.toBeNull()
    expect(labelAt('issue_date', "Date d'émission : 08/09/25")).not.toBeNull()
    expect(labelAt('invoice_number', 'Beleg-Nr. F426021/26')).not.toBeNull()
  })
})

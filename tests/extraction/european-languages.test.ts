/**
 * Invoices and till receipts of the other languages French accounting firms' suppliers write
 * in: Dutch (Belgium, the Netherlands), Italian and Spanish. Their labels live in the lexicon
 * beside the English, French and German ones, their month names in the date parser; a page whose
 * labels are Italian shows Italy's currency through its postcode. Small pages built here.
 */
import { describe, expect, it } from 'vitest'
import { extractFields } from '../../server/services/extraction/fields.ts'
import { findDates } from '../../server/services/extraction/parse.ts'
import { type Cell, pageOf, type Row } from './page-builder.ts'

const read = (rows: Row[]) => extractFields([pageOf(rows)])
/** A till roll: 80 mm wide. */
const till = (rows: Row[]) => extractFields([pageOf(rows, { width: 226, height: 600, size: 9 })])

/** A till's row: its label at the left, its amount at the right. */
const tillRow = (y: number, label: string, amount: string): Row => [
  y,
  [
    [10, label],
    [150, amount],
  ],
]

/** A till row of columns 45 points apart (a rate table's header or row). */
const tillColumns = (y: number, texts: string[]): Row => [y, texts.map((t, i): Cell => [10 + i * 45, t])]

/** Three totals rows at the right: net, VAT, gross, under the given labels. */
const totalsRows = (y: number, labels: string[], amounts: string[]): Row[] =>
  labels.map(
    (label, i): Row => [
      y + 14 * i,
      [
        [360, label],
        [480, amounts[i]!],
      ],
    ],
  )

describe('invoices in Dutch, Italian and Spanish', () => {
  it('reads a Belgian invoice in Dutch: its number, date and totals', () => {
    const f = read([
      [60, [[58, 'Boekhandel Het Leesteken BV', 14]]],
      [80, [[58, 'Korenmarkt 14']]],
      [92, [[58, '8000 Brugge']]],
      [104, [[58, 'BTW BE 0412.345.678']]],
      [150, [[330, 'Drukkerij Vos NV']]],
      [162, [[330, 'Kerkstraat 3']]],
      [174, [[330, '3000 Leuven']]],
      [230, [[58, 'FACTUUR', 16]]],
      [
        250,
        [
          [58, 'Factuurnummer: 2026-0412'],
          [330, 'Factuurdatum: 14/03/2026'],
        ],
      ],
      [262, [[58, 'Vervaldatum: 13/04/2026']]],
      [
        300,
        [
          [58, 'Omschrijving'],
          [480, 'Bedrag'],
        ],
      ],
      [
        314,
        [
          [58, 'Boeken'],
          [480, '€ 200,00'],
        ],
      ],
      ...totalsRows(
        400,
        ['Totaal excl. btw', 'Btw 21%', 'Totaal incl. btw'],
        ['€ 200,00', '€ 42,00', '€ 242,00'],
      ),
    ])
    expect(f.business_name).toBe('Boekhandel Het Leesteken BV')
    expect(f.business_address).toBe('Korenmarkt 14, 8000 Brugge')
    expect(f.invoice_number).toBe('2026-0412')
    expect(f.document_date).toBe('2026-03-14')
    expect([f.total_charge_excluding_vat, f.total_vat_amount, f.total_invoice_including_vat]).toEqual([
      200, 42, 242,
    ])
  })

  it("reads a Dutch invoice whose customer's block is labelled 'Aan:' at the left, the supplier at the right", () => {
    const f = read([
      [60, [[330, 'Studio Noord B.V.', 14]]],
      [80, [[330, 'Prinsengracht 263']]],
      [92, [[330, '1016 GV Amsterdam']]],
      [104, [[330, 'Btw-nr NL123456789B01']]],
      [150, [[58, 'Aan:']]],
      [162, [[58, 'Café Lumière SARL']]],
      [174, [[58, '8 rue des Lilas']]],
      [186, [[58, '69003 Lyon']]],
      [230, [[58, 'Factuur', 16]]],
      [
        250,
        [
          [58, 'Factuurnummer'],
          [200, 'Factuurdatum'],
          [330, 'Vervaldatum'],
        ],
      ],
      [
        262,
        [
          [58, '2026-118'],
          [200, '02-03-2026'],
          [330, '01-04-2026'],
        ],
      ],
      ...totalsRows(
        400,
        ['Subtotaal', 'Btw 21%', 'Totaal te betalen'],
        ['€ 850,00', '€ 178,50', '€ 1.028,50'],
      ),
    ])
    expect(f.business_name).toBe('Studio Noord B.V.')
    expect(f.business_address).toBe('Prinsengracht 263, 1016 GV Amsterdam')
    expect(f.invoice_number).toBe('2026-118')
    expect(f.document_date).toBe('2026-03-02')
  })

  it("reads an Italian invoice: its number, the supplier's party over the customer's, the totals", () => {
    const f = read([
      [60, [[58, 'Cartoleria Bianchi S.r.l.', 14]]],
      [80, [[58, 'Corso Garibaldi, 27']]],
      [92, [[58, '10122 Torino (TO)']]],
      [104, [[58, 'P.IVA IT01234567897']]],
      [150, [[330, 'Spett.le']]],
      [162, [[330, 'Studio Rossi S.r.l.']]],
      [174, [[330, 'Via Dante 4']]],
      [186, [[330, '20121 Milano']]],
      [230, [[58, 'FATTURA N. 88/2026', 16]]],
      [
        250,
        [
          [58, 'Data: 14/03/2026'],
          [330, 'Scadenza: 13/04/2026'],
        ],
      ],
      [
        300,
        [
          [58, 'Descrizione'],
          [480, 'Importo'],
        ],
      ],
      [
        314,
        [
          [58, 'Carta A4'],
          [480, '100,00 €'],
        ],
      ],
      ...totalsRows(400, ['Imponibile', 'IVA 22%', 'Totale documento'], ['100,00 €', '22,00 €', '122,00 €']),
    ])
    expect(f.business_name).toBe('Cartoleria Bianchi S.r.l.')
    expect(f.invoice_number).toBe('88/2026')
    expect(f.document_date).toBe('2026-03-14')
    expect([f.total_charge_excluding_vat, f.total_vat_amount, f.total_invoice_including_vat]).toEqual([
      100, 22, 122,
    ])
  })

  it("reads a Spanish invoice: the customer's block after 'Cliente' is not the supplier", () => {
    const f = read([
      [60, [[58, 'Suministros Ortega S.L.', 14]]],
      [80, [[58, 'Calle de Alcalá 120']]],
      [92, [[58, '28009 Madrid']]],
      [104, [[58, 'NIF: ESB12345674']]],
      [150, [[330, 'Cliente:']]],
      [162, [[330, 'Hôtel du Lac SARL']]],
      [174, [[330, '12 rue du Port']]],
      [186, [[330, '74000 Annecy']]],
      [230, [[58, 'FACTURA', 16]]],
      [
        250,
        [
          [58, 'Nº factura: F-2026-311'],
          [330, 'Fecha: 14/03/2026'],
        ],
      ],
      [
        300,
        [
          [58, 'Concepto'],
          [480, 'Importe'],
        ],
      ],
      [
        314,
        [
          [58, 'Material de oficina'],
          [480, '100,00 €'],
        ],
      ],
      ...totalsRows(400, ['Base imponible', 'IVA 21%', 'Total factura'], ['100,00 €', '21,00 €', '121,00 €']),
    ])
    expect(f.business_name).toBe('Suministros Ortega S.L.')
    expect(f.business_address).toBe('Calle de Alcalá 120, 28009 Madrid')
    expect(f.invoice_number).toBe('F-2026-311')
    expect([f.total_charge_excluding_vat, f.total_vat_amount, f.total_invoice_including_vat]).toEqual([
      100, 21, 121,
    ])
  })
})

describe('till receipts in Italian, Spanish and Dutch', () => {
  it("takes an Italian till's total, not the cash given nor the change", () => {
    const f = till([
      [20, [[50, 'BAR PASTICCERIA CORSO', 11]]],
      [32, [[40, 'Via Mazzoni 8']]],
      [44, [[40, '40121 Bologna']]],
      [60, [[40, 'DOCUMENTO COMMERCIALE']]],
      tillRow(80, 'CAPPUCCINO', '1,80'),
      tillRow(92, 'BRIOCHE', '1,50'),
      tillRow(104, 'SPREMUTA', '3,70'),
      tillRow(122, 'TOTALE COMPLESSIVO', '7,00'),
      tillRow(134, 'DI CUI IVA', '0,64'),
      tillRow(146, 'PAGAMENTO CONTANTE', '10,00'),
      tillRow(158, 'RESTO', '3,00'),
      [176, [[10, '14-03-2026 08:12']]],
    ])
    expect(f.total_invoice_including_vat).toBe(7)
    expect(f.total_vat_amount).toBe(0.64)
    expect(f.document_date).toBe('2026-03-14')
    expect(f.currency).toBe('EUR')
  })

  it("takes a Spanish till's total, not the cash given nor the change, and its 'C/' street", () => {
    const f = till([
      [20, [[50, 'CAFETERÍA LA PLAZA', 11]]],
      [32, [[40, 'C/ Zamora 3']]],
      [44, [[40, '37002 Salamanca']]],
      [60, [[40, 'FACTURA SIMPLIFICADA']]],
      tillRow(80, '2 CAFÉ CON LECHE', '3,20'),
      tillRow(92, '1 TOSTADA', '2,30'),
      tillRow(110, 'BASE IMPONIBLE', '5,00'),
      tillRow(122, 'IVA 10%', '0,50'),
      tillRow(134, 'TOTAL (IVA INCLUIDO)', '5,50'),
      tillRow(146, 'EFECTIVO', '10,00'),
      tillRow(158, 'CAMBIO', '4,50'),
      [176, [[10, '14/03/2026 09:40']]],
    ])
    expect([f.total_charge_excluding_vat, f.total_vat_amount, f.total_invoice_including_vat]).toEqual([
      5, 0.5, 5.5,
    ])
    // "C/" is how Spain abbreviates "Calle".
    expect(f.business_address).toBe('C/ Zamora 3, 37002 Salamanca')
  })

  it("takes a Dutch till's total, not the cash given nor the change", () => {
    const f = till([
      [20, [[50, 'Bakkerij Van Dam', 11]]],
      [32, [[40, 'Dorpsstraat 12']]],
      [44, [[40, '1811 KL Alkmaar']]],
      tillRow(70, 'Volkorenbrood', '3,45'),
      tillRow(82, '4 Krentenbollen', '3,20'),
      tillRow(94, 'Korting', '-0,50'),
      tillRow(112, 'Te betalen', '6,15'),
      tillRow(124, 'Contant', '10,00'),
      tillRow(136, 'Wisselgeld', '3,85'),
      tillRow(148, 'Btw 9%  over 5,64', '0,51'),
      [166, [[10, '14-03-2026  10:05']]],
    ])
    expect(f.total_invoice_including_vat).toBe(6.15)
    expect(f.document_date).toBe('2026-03-14')
  })
})

describe('dates with Italian, Spanish and Dutch month names', () => {
  it.each([
    ['14 marzo 2026', '2026-03-14'],
    ['14 de março de 2026', '2026-03-14'],
    ['1 de setembro de 2025', '2025-09-01'],
    ['1 settembre 2025', '2025-09-01'],
    ['14 de marzo de 2026', '2026-03-14'],
    ['3 de diciembre de 2025', '2025-12-03'],
    ['14 maart 2026', '2026-03-14'],
    ['2 mei 2026', '2026-05-02'],
  ])('reads "%s"', (text, iso) => {
    expect(findDates(text).map((d) => d.iso)).toEqual([iso])
  })
})

describe('VAT ids as Italian, Spanish and Swiss tills print them', () => {
  /** A till's header: the merchant, its address and one identifier line. */
  const header = (id: string): Row[] => [
    [20, [[50, 'Pasticceria Roma', 11]]],
    [32, [[40, 'Piazza Navona 5']]],
    [44, [[40, '00186 Roma']]],
    [56, [[40, id]]],
    tillRow(80, 'TOTALE', '4,50'),
    [100, [[10, '14-03-2026 10:05']]],
  ]

  it("gives an Italian 'P.IVA' or a Spanish 'NIF' printed without its country letters their country's", () => {
    expect(till(header('P.IVA 01234567897')).vat_number).toBe('IT01234567897')
    expect(till(header('Partita IVA: 01234567897')).vat_number).toBe('IT01234567897')
    expect(till(header('NIF: B-12345674')).vat_number).toBe('ESB12345674')
    expect(till(header('CIF A46103834')).vat_number).toBe('ESA46103834')
  })

  it('ends the address at a VAT id line, whatever language labels it', () => {
    // (A Portuguese till: its postcode, "1100-048", is no shape the address rules know.)
    const f = till([
      [20, [[50, 'Pastelaria Aurora', 11]]],
      [32, [[40, 'Rua Augusta 120']]],
      [44, [[40, '1100-048 Lisboa']]],
      [56, [[40, 'NIF 501234567']]],
      [68, [[10, 'Fatura simplificada FS 2026/1234']]],
      tillRow(80, 'TOTAL', '4,50 €'),
      [100, [[10, '14-03-2026 10:05']]],
    ])
    expect(f.business_address).toBe('Rua Augusta 120, 1100-048 Lisboa')
  })

  it("takes no number of another shape after those labels (a rate, a phone number, figures of no country's shape)", () => {
    expect(till(header('IVA 22%')).vat_number).toBeNull()
    expect(till(header('P.IVA 0612345678')).vat_number).toBeNull()
    expect(till(header('NIF 12345678')).vat_number).toBeNull()
  })

  it("reads a Swiss VAT id whose 'MWST', 'TVA' or 'IVA' after the number labels it", () => {
    expect(till(header('CHE-116.281.710 MWST')).vat_number).toBe('CHE116281710MWST')
    expect(till(header('CHE-116.281.710')).vat_number).toBeNull()
  })
})

describe('Portuguese invoices and tills', () => {
  it("reads a Portuguese invoice: its number, date, totals and the supplier's NIF", () => {
    const f = read([
      [60, [[58, 'Papelaria Central, Lda.', 14]]],
      [80, [[58, 'Rua da Prata 85']]],
      [92, [[58, '1100-415 Lisboa']]],
      [104, [[58, 'NIF: 501234567']]],
      [150, [[330, 'Cliente:']]],
      [162, [[330, 'Hôtel du Lac SARL']]],
      [174, [[330, '12 rue du Port']]],
      [186, [[330, '74000 Annecy']]],
      [230, [[58, 'FATURA', 16]]],
      [
        250,
        [
          [58, 'Fatura n.º FT 2026/311'],
          [330, 'Data de emissão: 14 de março de 2026'],
        ],
      ],
      [262, [[58, 'Data de vencimento: 13/04/2026']]],
      [
        300,
        [
          [58, 'Descrição'],
          [480, 'Valor'],
        ],
      ],
      [
        314,
        [
          [58, 'Material de escritório'],
          [480, '100,00 €'],
        ],
      ],
      ...totalsRows(400, ['Total sem IVA', 'IVA 23%', 'Total a pagar'], ['100,00 €', '23,00 €', '123,00 €']),
    ])
    expect(f.business_name).toBe('Papelaria Central, Lda.')
    // The series code printed before the number is part of it.
    expect(f.invoice_number).toBe('FT 2026/311')
    expect(f.business_address).toBe('Rua da Prata 85, 1100-415 Lisboa')
    expect(f.vat_number).toBe('PT501234567')
    expect(f.document_date).toBe('2026-03-14')
    expect([f.total_charge_excluding_vat, f.total_vat_amount, f.total_invoice_including_vat]).toEqual([
      100, 23, 123,
    ])
  })

  it("takes a Portuguese till's total, not the cash given nor the change", () => {
    const f = till([
      [20, [[50, 'Pastelaria Aurora', 11]]],
      [32, [[40, 'Rua Augusta 120']]],
      [44, [[40, '1100-048 Lisboa']]],
      [56, [[40, 'Contribuinte: 501234567']]],
      tillRow(80, '2 Pastel de nata', '2,60'),
      tillRow(92, '1 Galão', '1,40'),
      tillRow(110, 'TOTAL', '4,00'),
      tillRow(122, 'Numerário', '5,00'),
      tillRow(134, 'Troco', '1,00'),
      tillRow(146, 'IVA 13%  Base 3,54', '0,46'),
      [164, [[10, '14-03-2026 09:12']]],
    ])
    expect(f.total_invoice_including_vat).toBe(4)
    expect(f.total_vat_amount).toBe(0.46)
    expect(f.vat_number).toBe('PT501234567')
    expect(f.business_address).toBe('Rua Augusta 120, 1100-048 Lisboa')
  })
})

describe('Polish invoices and tills', () => {
  it("reads a Polish invoice: the seller's party over the buyer's ('Nabywca'), its NIP, złoty, the totals", () => {
    const f = read([
      [60, [[58, 'Kawiarnia Nowa Sp. z o.o.', 14]]],
      [80, [[58, 'ul. Marszałkowska 10']]],
      [92, [[58, '00-590 Warszawa']]],
      [104, [[58, 'NIP: 5260001246']]],
      [150, [[330, 'Nabywca:']]],
      [162, [[330, 'Hôtel du Lac SARL']]],
      [174, [[330, '12 rue du Port']]],
      [186, [[330, '74000 Annecy']]],
      [230, [[58, 'FAKTURA VAT', 16]]],
      [
        250,
        [
          [58, 'Faktura nr FV/2026/03/15'],
          [330, 'Data wystawienia: 14 marca 2026'],
        ],
      ],
      [262, [[58, 'Termin płatności: 28.03.2026']]],
      ...totalsRows(
        400,
        ['Razem netto', 'Kwota VAT 23%', 'Do zapłaty'],
        ['100,00 zł', '23,00 zł', '123,00 zł'],
      ),
    ])
    expect(f.business_name).toBe('Kawiarnia Nowa Sp. z o.o.')
    expect(f.business_address).toBe('ul. Marszałkowska 10, 00-590 Warszawa')
    expect(f.vat_number).toBe('PL5260001246')
    expect(f.invoice_number).toBe('FV/2026/03/15')
    expect(f.document_date).toBe('2026-03-14')
    expect(f.currency).toBe('PLN')
    expect([f.total_charge_excluding_vat, f.total_vat_amount, f.total_invoice_including_vat]).toEqual([
      100, 23, 123,
    ])
  })

  it("takes a Polish till's total, not the cash given nor the change", () => {
    const f = till([
      [20, [[50, 'Piekarnia Złoty Kłos', 11]]],
      [32, [[40, 'ul. Długa 5']]],
      [44, [[40, '31-147 Kraków']]],
      [56, [[40, 'NIP 6750001923']]],
      [68, [[40, 'PARAGON FISKALNY']]],
      tillRow(80, 'Chleb żytni', '8,50'),
      tillRow(92, 'Drożdżówka 2x', '7,00'),
      tillRow(110, 'SUMA PLN', '15,50'),
      tillRow(122, 'Gotówka', '20,00'),
      tillRow(134, 'Reszta', '4,50'),
      [152, [[10, '2026-03-14 08:41']]],
    ])
    expect(f.total_invoice_including_vat).toBe(15.5)
    expect(f.currency).toBe('PLN')
    expect(f.business_name).toBe('Piekarnia Złoty Kłos')
    expect(f.vat_number).toBe('PL6750001923')
    expect(f.document_date).toBe('2026-03-14')
  })

  it('reads dates with Polish month names', () => {
    expect(findDates('14 marca 2026')[0]?.iso).toBe('2026-03-14')
    expect(findDates('3 października 2026 r.')[0]?.iso).toBe('2026-10-03')
    expect(findDates('1 września 2025')[0]?.iso).toBe('2025-09-01')
  })
})

describe('French tills', () => {
  it("reads a French till's street abbreviated 'AV' (no house number) as its address's first line, and its rate table's net and VAT", () => {
    const f = till([
      [20, [[40, 'CARREFOUR MARKET', 11]]],
      [32, [[40, 'AV DU GENERAL DE GAULLE']]],
      [44, [[40, '94000 CRETEIL']]],
      [56, [[40, 'TEL 01 43 99 00 00']]],
      tillRow(76, 'LAIT DEMI ECREME', '1,15'),
      tillRow(88, 'BAGUETTE', '0,95'),
      tillRow(100, 'CAFE MOULU 250G', '3,49'),
      tillRow(118, 'TOTAL A PAYER', '5,59'),
      tillRow(130, 'CB EMV', '5,59'),
      tillColumns(146, ['TVA', 'TAUX', 'HT', 'TVA', 'TTC']),
      tillColumns(158, ['1', '5,50%', '4,50', '0,25', '4,75']),
      tillColumns(170, ['2', '20,00%', '0,70', '0,14', '0,84']),
      [188, [[10, '12/03/2026 18:42  CAISSE 004']]],
    ])
    expect(f.business_name).toBe('CARREFOUR MARKET')
    expect(f.business_address).toBe('AV DU GENERAL DE GAULLE, 94000 CRETEIL')
    expect(f.total_invoice_including_vat).toBe(5.59)
    expect(f.total_charge_excluding_vat).toBe(5.2)
    expect(f.total_vat_amount).toBe(0.39)
    expect(f.document_date).toBe('2026-03-12')
  })
})

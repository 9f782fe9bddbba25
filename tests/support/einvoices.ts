/**
 * E-invoices made in tests by a maintained generator (@e-invoice-eu/core): one invoice in the
 * generator's internal (UBL-shaped) format, rendered as UBL 2.1 or CII XML.
 */
import { type Invoice, InvoiceService } from '@e-invoice-eu/core'

/** What the generated invoice says, for the assertions. */
export const SAMPLE = {
  number: 'FX-2026-0042',
  issueDate: '2026-11-02',
  dueDate: '2026-12-02',
  seller: 'Atelier Exemple SARL',
  sellerVat: 'FR40303265045',
  iban: 'FR7630006000011234567890189',
  buyer: 'Client Modèle SAS',
  street: '12 rue des Lilas',
  postcode: '75011',
  city: 'Paris',
  excl: 150,
  vat: 30,
  incl: 180,
  terms: 'Payable within 30 days',
  lines: [
    { description: 'Design workshop', quantity: 2, price: 50, net: 100 },
    { description: 'Printed brochures', quantity: 10, price: 5, net: 50 },
  ],
} as const

const party = (name: string, vat: string, buyer = false) => ({
  'cac:Party': {
    'cbc:EndpointID': 'billing@example.com',
    'cbc:EndpointID@schemeID': 'EM',
    'cac:PostalAddress': {
      'cbc:StreetName': SAMPLE.street,
      'cbc:CityName': SAMPLE.city,
      'cbc:PostalZone': SAMPLE.postcode,
      'cac:Country': { 'cbc:IdentificationCode': 'FR' },
    },
    // The seller may have two tax schemes (a list), the buyer one.
    'cac:PartyTaxScheme': buyer
      ? { 'cbc:CompanyID': vat, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } }
      : [{ 'cbc:CompanyID': vat, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } }],
    'cac:PartyLegalEntity': { 'cbc:RegistrationName': name },
  },
})

const money = (n: number) => n.toFixed(2)

function sampleInvoice(): Invoice {
  return {
    'ubl:Invoice': {
      'cbc:CustomizationID': 'urn:cen.eu:en16931:2017',
      'cbc:ID': SAMPLE.number,
      'cbc:IssueDate': SAMPLE.issueDate,
      'cbc:DueDate': SAMPLE.dueDate,
      'cbc:InvoiceTypeCode': '380',
      'cbc:DocumentCurrencyCode': 'EUR',
      'cbc:BuyerReference': 'PO-7',
      'cac:AccountingSupplierParty': party(SAMPLE.seller, SAMPLE.sellerVat),
      'cac:AccountingCustomerParty': party(SAMPLE.buyer, 'FR61954506077', true),
      'cac:PaymentMeans': [
        { 'cbc:PaymentMeansCode': '58', 'cac:PayeeFinancialAccount': { 'cbc:ID': SAMPLE.iban } },
      ],
      'cac:PaymentTerms': { 'cbc:Note': SAMPLE.terms },
      'cac:TaxTotal': [
        {
          'cbc:TaxAmount': money(SAMPLE.vat),
          'cbc:TaxAmount@currencyID': 'EUR',
          'cac:TaxSubtotal': [
            {
              'cbc:TaxableAmount': money(SAMPLE.excl),
              'cbc:TaxableAmount@currencyID': 'EUR',
              'cbc:TaxAmount': money(SAMPLE.vat),
              'cbc:TaxAmount@currencyID': 'EUR',
              'cac:TaxCategory': { 'cbc:ID': 'S', 'cbc:Percent': '20', 'cac:TaxScheme': { 'cbc:ID': 'VAT' } },
            },
          ],
        },
      ],
      'cac:LegalMonetaryTotal': {
        'cbc:LineExtensionAmount': money(SAMPLE.excl),
        'cbc:LineExtensionAmount@currencyID': 'EUR',
        'cbc:TaxExclusiveAmount': money(SAMPLE.excl),
        'cbc:TaxExclusiveAmount@currencyID': 'EUR',
        'cbc:TaxInclusiveAmount': money(SAMPLE.incl),
        'cbc:TaxInclusiveAmount@currencyID': 'EUR',
        'cbc:PayableAmount': money(SAMPLE.incl),
        'cbc:PayableAmount@currencyID': 'EUR',
      },
      'cac:InvoiceLine': SAMPLE.lines.map((line, i) => ({
        'cbc:ID': String(i + 1),
        'cbc:InvoicedQuantity': String(line.quantity),
        'cbc:InvoicedQuantity@unitCode': 'C62',
        'cbc:LineExtensionAmount': money(line.net),
        'cbc:LineExtensionAmount@currencyID': 'EUR',
        'cac:Item': {
          'cbc:Name': line.description,
          'cac:ClassifiedTaxCategory': {
            'cbc:ID': 'S',
            'cbc:Percent': '20',
            'cac:TaxScheme': { 'cbc:ID': 'VAT' },
          },
        },
        'cac:Price': { 'cbc:PriceAmount': money(line.price), 'cbc:PriceAmount@currencyID': 'EUR' },
      })) as Invoice['ubl:Invoice']['cac:InvoiceLine'],
    },
  } as Invoice
}

const quiet = { log() {}, warn() {}, error() {} }

/** The sample invoice as UBL 2.1 (`UBL`) or UN/CEFACT CII (`CII`) XML. */
export async function generateInvoiceXml(format: 'UBL' | 'CII'): Promise<string> {
  const out = await new InvoiceService(quiet).generate(sampleInvoice(), { format, lang: 'en-us' })
  return typeof out === 'string' ? out : new TextDecoder().decode(out)
}

/** A UBL CreditNote made from the UBL invoice (the generator writes invoices only). */
export async function generateCreditNoteXml(): Promise<string> {
  return (await generateInvoiceXml('UBL'))
    .replace(/xsd:Invoice-2/g, 'xsd:CreditNote-2')
    .replace(/<(\/?)(ubl:)?Invoice([\s>])/g, '<$1$2CreditNote$3')
    .replace(/InvoiceTypeCode>380</g, 'CreditNoteTypeCode>381<')
    .replace(/InvoiceTypeCode/g, 'CreditNoteTypeCode')
    .replace(/InvoiceLine/g, 'CreditNoteLine')
    .replace(/InvoicedQuantity/g, 'CreditedQuantity')
}

/**
 * The sample UBL invoice with some of its values replaced as written (entity references and raw
 * characters kept as given): the seller's name, the number, the seller's street, the first
 * payment note, the first item's name, the total including VAT, the issue date.
 */
export async function ublWith(values: {
  seller?: string
  number?: string
  street?: string
  terms?: string
  item?: string
  total?: string
  issueDate?: string
}): Promise<string> {
  let xml = await generateInvoiceXml('UBL')
  const put = (element: string, from: string, to: string | undefined) => {
    // The first occurrence (the seller's party comes first); a function, so `$` stays as written.
    if (to !== undefined) xml = xml.replace(`<${element}>${from}<`, () => `<${element}>${to}<`)
  }
  put('cbc:RegistrationName', SAMPLE.seller, values.seller)
  put('cbc:ID', SAMPLE.number, values.number)
  put('cbc:StreetName', SAMPLE.street, values.street)
  put('cbc:Note', SAMPLE.terms, values.terms)
  put('cbc:Name', SAMPLE.lines[0].description, values.item)
  put('cbc:IssueDate', SAMPLE.issueDate, values.issueDate)
  if (values.total !== undefined)
    xml = xml.replace(
      `<cbc:TaxInclusiveAmount currencyID="EUR">${SAMPLE.incl.toFixed(2)}<`,
      () => `<cbc:TaxInclusiveAmount currencyID="EUR">${values.total}<`,
    )
  return xml
}

/** UBL 2.1 Invoice and CreditNote (Peppol BIS, XRechnung UBL) onto the e-invoice model. */
import { CREDIT_NOTE_TYPE_CODES, type EInvoice, type EInvoiceParty } from './model.ts'
import { all, amount, amountAt, attr, isoDate, one, text, textAt } from './nodes.ts'

type XmlNode = unknown

function party(node: XmlNode): EInvoiceParty {
  const p = one(node, 'Party')
  const address = one(p, 'PostalAddress')
  const vat = all(p, 'PartyTaxScheme').find((s) => textAt(s, 'TaxScheme', 'ID')?.toUpperCase() === 'VAT')
  return {
    name: textAt(p, 'PartyLegalEntity', 'RegistrationName') ?? textAt(p, 'PartyName', 'Name'),
    vat_id: textAt(vat, 'CompanyID'),
    address:
      address === undefined
        ? null
        : {
            lines: [
              textAt(address, 'StreetName'),
              textAt(address, 'AdditionalStreetName'),
              ...all(address, 'AddressLine', 'Line').map(text),
            ].filter((l) => l !== null),
            postcode: textAt(address, 'PostalZone'),
            city: textAt(address, 'CityName'),
            subdivision: textAt(address, 'CountrySubentity'),
            country: textAt(address, 'Country', 'IdentificationCode'),
          },
  }
}

export function mapUbl(doc: XmlNode, creditNote: boolean): EInvoice {
  const currency = textAt(doc, 'DocumentCurrencyCode')
  const typeCode = textAt(doc, creditNote ? 'CreditNoteTypeCode' : 'InvoiceTypeCode')
  const total = one(doc, 'LegalMonetaryTotal')
  const taxTotals = all(doc, 'TaxTotal')
  const mainTax =
    taxTotals.find((t) => !currency || attr(one(t, 'TaxAmount'), 'currencyID') === currency) ?? taxTotals[0]
  const means = all(doc, 'PaymentMeans')
  const lineName = creditNote ? 'CreditNoteLine' : 'InvoiceLine'
  return {
    syntax: 'UBL',
    profile: textAt(doc, 'CustomizationID'),
    type_code: typeCode,
    credit_note: creditNote || (typeCode !== null && CREDIT_NOTE_TYPE_CODES.has(typeCode)),
    number: textAt(doc, 'ID'),
    issue_date: isoDate(textAt(doc, 'IssueDate')),
    // An Invoice's DueDate; a CreditNote has its due date on the payment means.
    due_date: isoDate(
      textAt(doc, 'DueDate') ?? means.map((m) => textAt(m, 'PaymentDueDate')).find(Boolean) ?? null,
    ),
    currency,
    seller: party(one(doc, 'AccountingSupplierParty')),
    buyer: party(one(doc, 'AccountingCustomerParty')),
    ibans: means.map((m) => textAt(m, 'PayeeFinancialAccount', 'ID')).filter((i): i is string => i !== null),
    payment_terms: all(doc, 'PaymentTerms', 'Note').map(text).filter(Boolean).join('\n') || null,
    totals: {
      line_net: amountAt(total, 'LineExtensionAmount'),
      allowances: amountAt(total, 'AllowanceTotalAmount'),
      charges: amountAt(total, 'ChargeTotalAmount'),
      tax_exclusive: amountAt(total, 'TaxExclusiveAmount'),
      vat: amountAt(mainTax, 'TaxAmount'),
      tax_inclusive: amountAt(total, 'TaxInclusiveAmount'),
      prepaid: amountAt(total, 'PrepaidAmount'),
      rounding: amountAt(total, 'PayableRoundingAmount'),
      payable: amountAt(total, 'PayableAmount'),
    },
    vat_breakdown: all(mainTax, 'TaxSubtotal').map((sub) => ({
      category: textAt(sub, 'TaxCategory', 'ID'),
      rate: amountAt(sub, 'TaxCategory', 'Percent'),
      basis: amountAt(sub, 'TaxableAmount'),
      amount: amountAt(sub, 'TaxAmount'),
    })),
    lines: all(doc, lineName).map((line) => {
      const quantity = one(line, creditNote ? 'CreditedQuantity' : 'InvoicedQuantity')
      return {
        id: textAt(line, 'ID'),
        description: textAt(line, 'Item', 'Name'),
        quantity: amount(quantity),
        unit: attr(quantity, 'unitCode'),
        unit_price: amountAt(line, 'Price', 'PriceAmount'),
        net_amount: amountAt(line, 'LineExtensionAmount'),
        vat_rate: amountAt(line, 'Item', 'ClassifiedTaxCategory', 'Percent'),
      }
    }),
  }
}

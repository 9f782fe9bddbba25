/**
 * UN/CEFACT Cross Industry Invoice onto the e-invoice model: D16B (Factur-X, ZUGFeRD 2.x,
 * XRechnung CII) and ZUGFeRD 1.0's CrossIndustryDocument, whose elements differ mostly by name
 * (`HeaderExchangedDocument` for `ExchangedDocument`, `ApplicableSupplyChainTradeSettlement` for
 * `ApplicableHeaderTradeSettlement`…): each step below lists the D16B name, then the 1.0 one.
 */
import { CREDIT_NOTE_TYPE_CODES, type EInvoice, type EInvoiceParty } from './model.ts'
import { all, amount, amountAt, attr, isoDate, one, text, textAt } from './nodes.ts'

type XmlNode = unknown

/** The first of the names that is present under `node`. */
const either = (node: XmlNode, ...names: string[]): XmlNode => {
  for (const name of names) {
    const found = one(node, name)
    if (found !== undefined) return found
  }
  return undefined
}

function party(node: XmlNode): EInvoiceParty {
  const address = one(node, 'PostalTradeAddress')
  const registrations = all(node, 'SpecifiedTaxRegistration', 'ID')
  const vat = registrations.find((r) => attr(r, 'schemeID') === 'VA')
  return {
    name: textAt(node, 'Name'),
    vat_id: text(vat),
    address:
      address === undefined
        ? null
        : {
            lines: ['LineOne', 'LineTwo', 'LineThree']
              .map((l) => textAt(address, l))
              .filter((l) => l !== null),
            postcode: textAt(address, 'PostcodeCode'),
            city: textAt(address, 'CityName'),
            subdivision: textAt(address, 'CountrySubDivisionName'),
            country: textAt(address, 'CountryID'),
          },
  }
}

/** An amount in the invoice's currency when the element repeats per currency (BT-110 / BT-111). */
function inCurrency(nodes: XmlNode[], currency: string | null): number | null {
  const match = nodes.find((n) => !currency || !attr(n, 'currencyID') || attr(n, 'currencyID') === currency)
  return amount(match ?? nodes[0])
}

function lines(transaction: XmlNode): EInvoice['lines'] {
  return all(transaction, 'IncludedSupplyChainTradeLineItem').map((item) => {
    const agreement = either(item, 'SpecifiedLineTradeAgreement', 'SpecifiedSupplyChainTradeAgreement')
    const delivery = either(item, 'SpecifiedLineTradeDelivery', 'SpecifiedSupplyChainTradeDelivery')
    const settlement = either(item, 'SpecifiedLineTradeSettlement', 'SpecifiedSupplyChainTradeSettlement')
    const quantity = one(delivery, 'BilledQuantity')
    const tax = one(settlement, 'ApplicableTradeTax')
    return {
      id: textAt(item, 'AssociatedDocumentLineDocument', 'LineID'),
      description: textAt(item, 'SpecifiedTradeProduct', 'Name'),
      quantity: amount(quantity),
      unit: attr(quantity, 'unitCode'),
      unit_price: amountAt(agreement, 'NetPriceProductTradePrice', 'ChargeAmount'),
      net_amount: amountAt(
        either(
          settlement,
          'SpecifiedTradeSettlementLineMonetarySummation',
          'SpecifiedTradeSettlementMonetarySummation',
        ),
        'LineTotalAmount',
      ),
      vat_rate: amount(either(tax, 'RateApplicablePercent', 'ApplicablePercent')),
    }
  })
}

export function mapCii(doc: XmlNode, syntax: 'CII' | 'ZUGFeRD1'): EInvoice {
  const context = either(doc, 'ExchangedDocumentContext', 'SpecifiedExchangedDocumentContext')
  const header = either(doc, 'ExchangedDocument', 'HeaderExchangedDocument')
  const transaction = either(doc, 'SupplyChainTradeTransaction', 'SpecifiedSupplyChainTradeTransaction')
  const agreement = either(
    transaction,
    'ApplicableHeaderTradeAgreement',
    'ApplicableSupplyChainTradeAgreement',
  )
  const settlement = either(
    transaction,
    'ApplicableHeaderTradeSettlement',
    'ApplicableSupplyChainTradeSettlement',
  )
  const summation = either(
    settlement,
    'SpecifiedTradeSettlementHeaderMonetarySummation',
    'SpecifiedTradeSettlementMonetarySummation',
  )
  const currency = textAt(settlement, 'InvoiceCurrencyCode')
  const typeCode = textAt(header, 'TypeCode')
  const terms = all(settlement, 'SpecifiedTradePaymentTerms')
  const ibans = [
    ...all(
      settlement,
      'SpecifiedTradeSettlementPaymentMeans',
      'PayeePartyCreditorFinancialAccount',
      'IBANID',
    ),
  ]
    .map(text)
    .filter((i): i is string => i !== null)
  return {
    syntax,
    profile: textAt(context, 'GuidelineSpecifiedDocumentContextParameter', 'ID'),
    type_code: typeCode,
    credit_note: typeCode !== null && CREDIT_NOTE_TYPE_CODES.has(typeCode),
    number: textAt(header, 'ID'),
    issue_date: isoDate(textAt(header, 'IssueDateTime', 'DateTimeString')),
    due_date: isoDate(terms.map((t) => textAt(t, 'DueDateDateTime', 'DateTimeString')).find(Boolean) ?? null),
    currency,
    seller: party(one(agreement, 'SellerTradeParty')),
    buyer: party(one(agreement, 'BuyerTradeParty')),
    ibans,
    payment_terms:
      terms
        .map((t) => textAt(t, 'Description'))
        .filter(Boolean)
        .join('\n') || null,
    totals: {
      line_net: amountAt(summation, 'LineTotalAmount'),
      allowances: amountAt(summation, 'AllowanceTotalAmount'),
      charges: amountAt(summation, 'ChargeTotalAmount'),
      tax_exclusive: amountAt(summation, 'TaxBasisTotalAmount'),
      vat: inCurrency(all(summation, 'TaxTotalAmount'), currency),
      tax_inclusive: amountAt(summation, 'GrandTotalAmount'),
      prepaid: amountAt(summation, 'TotalPrepaidAmount'),
      rounding: amountAt(summation, 'RoundingAmount'),
      payable: amountAt(summation, 'DuePayableAmount'),
    },
    vat_breakdown: all(settlement, 'ApplicableTradeTax').map((tax) => ({
      category: textAt(tax, 'CategoryCode'),
      rate: amount(either(tax, 'RateApplicablePercent', 'ApplicablePercent')),
      basis: amountAt(tax, 'BasisAmount'),
      amount: amountAt(tax, 'CalculatedAmount'),
    })),
    lines: lines(transaction),
  }
}

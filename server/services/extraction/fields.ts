/**
 * A document's fields from its pages: the page model (positioned lines, the customer's block
 * marked) and one decision per field, each by its fitted scorer (scoring/): the supplier as one
 * party (name and address, scoring/name.ts), its VAT id and IBAN, the totals under their
 * arithmetic, the currency, the issue date, the invoice number.
 */
import { customerSegments } from './customer.ts'
import { decideIban, decideVatId } from './identifiers.ts'
import { dateOrder, foldText as f } from './parse.ts'
import type { Line, PageText } from './pdf-text.ts'
import { isTillReceipt, itemSum, repairTillLabels } from './receipt.ts'
import { addressCandidates } from './scoring/address.ts'
import { decideCurrency } from './scoring/currency.ts'
import { decideIssueDate } from './scoring/dates.ts'
import { decideHasVat } from './scoring/has-vat.ts'
import { decideInvoiceNumber } from './scoring/invoice-number.ts'
import type { Candidate, Decision, Evidence, Models, PageModel } from './scoring/model.ts'
import { findSupplier, givenName, supplierCandidates } from './scoring/name.ts'
import { decideTotals } from './scoring/totals.ts'
import { type AmountCandidate, amountCandidates } from './totals.ts'

export interface ExtractedFields {
  invoice_number: string | null
  document_date: string | null
  business_name: string | null
  business_address: string | null
  vat_number: string | null
  iban: string | null
  currency: string | null
  has_vat: boolean
  total_vat_amount: number | null
  total_charge_excluding_vat: number | null
  total_invoice_including_vat: number | null
  /**
   * Where the fields a fitted scorer decided were read, and how sure it is (see scoring/):
   * field name (`document_date`, …) → page, box, confidence and alternatives.
   */
  evidence?: Partial<Record<EvidenceField, Evidence<string> | Evidence<number> | Evidence<boolean>>>
}

/** The fields whose place a fitted scorer gives. */
type EvidenceField =
  | 'document_date'
  | 'invoice_number'
  | 'business_name'
  | 'business_address'
  | 'vat_number'
  | 'iban'
  | 'currency'
  | 'has_vat'
  | 'total_invoice_including_vat'
  | 'total_charge_excluding_vat'
  | 'total_vat_amount'

/** The address candidates of the supplier the weights choose (for fitting: `models` those fitted so far). */
export function addressCandidatesOf(pages: PageText[], models?: Models): Candidate<string | null>[] {
  const model = pageModel(pages)
  const till = isTillReceipt(pages, model.lines)
  return addressCandidates(pages, findSupplier(pages, model, till, models).readings, till)
}

/** Every supplier-name candidate with the name it gives (for fitting). */
export function nameCandidates(pages: PageText[]): Candidate<string>[] {
  const model = pageModel(pages)
  return supplierCandidates(pages, model, isTillReceipt(pages, model.lines)).map((c) => ({
    ...c,
    value: givenName(c.value),
  }))
}

/** A German or Austrian supplier: by its VAT number or the country ending its address. */
function germanSupplier(address: string | null, vat: string | null): boolean {
  if (vat && /^(DE|ATU)/.test(vat)) return true
  return address !== null && /(germany|deutschland|allemagne|austria|osterreich|autriche)$/.test(f(address))
}

/**
 * German has no circumflex: OCR models trained on French read ö, ü, ä as ô, û, â. In a German
 * supplier's name and address they are the umlauts.
 */
function umlauts(text: string | null): string | null {
  if (text === null) return null
  const map: Record<string, string> = { ô: 'ö', û: 'ü', â: 'ä', Ô: 'Ö', Û: 'Ü', Â: 'Ä' }
  return text.normalize('NFC').replace(/[ôûâÔÛÂ]/g, (c) => map[c] ?? c)
}

/**
 * OCR sets a space after the decimal point of some amounts ("164. 80"): read as one amount.
 * Only a point followed by exactly two digits and no further number is joined.
 */
function joinSplitAmounts(line: Line): Line {
  const fix = (t: string) => t.replace(/(\d)\. (\d{2})(?![\d.,])/g, '$1.$2')
  if (!/\d\. \d{2}/.test(line.text)) return line
  return { ...line, text: fix(line.text), segments: line.segments.map((s) => ({ ...s, text: fix(s.text) })) }
}

/** What the totals are decided from: every amount printed, whether VAT is charged, a till's layout. */
export function totalsInputs(
  model: PageModel,
  models?: Models,
): {
  hasVat: Decision<boolean>
  till: boolean
  cands: AmountCandidate[]
  /** A till's item rows summed when its total rows were read without amounts. */
  items: number | null
} {
  const { pages, lines, customer } = model
  const till = isTillReceipt(pages, lines)
  const cands = amountCandidates(till ? repairTillLabels(lines) : lines, (s) => customer.has(s), till)
  const hasVat = decideHasVat(model, cands, till, models)
  return { hasVat, till, cands, items: till ? itemSum(cands, lines) : null }
}

/** The positioned lines of every page, with the customer's block marked: what candidates are read from. */
export function pageModel(pages: PageText[]): PageModel {
  const lines = pages.flatMap((p) => p.lines).map(joinSplitAmounts)
  return { pages, lines, customer: customerSegments(pages, lines) }
}

/** The fields of a document's pages; `models` replaces committed weights (benches' grouped refits). */
export function extractFields(pages: PageText[], models?: Models): ExtractedFields {
  const model = pageModel(pages)
  const { lines } = model
  const { hasVat, till, cands, items } = totalsInputs(model, models)
  const supplier = findSupplier(pages, model, till, models)
  const vat = decideVatId(model, models)
  const iban = decideIban(model, models)
  const vatNumber = vat?.value ?? null
  const german = germanSupplier(supplier.address, vatNumber)
  const decided = decideTotals(cands, hasVat.value, pages, models, items)
  const { totals } = decided
  const currency = decideCurrency(model, { totalLine: totals.inclLine, till, vat, iban }, models)
  const date = decideIssueDate(model, dateOrder(lines.map((l) => l.text).join('\n')), models)
  const number = decideInvoiceNumber(model, models)
  return {
    invoice_number: number?.value ?? null,
    document_date: date?.value ?? null,
    business_name: german ? umlauts(supplier.name) : supplier.name,
    business_address: german ? umlauts(supplier.address) : supplier.address,
    vat_number: vatNumber,
    iban: iban?.value ?? null,
    currency: currency?.value ?? null,
    has_vat: hasVat.value,
    total_vat_amount: totals.vat,
    total_charge_excluding_vat: totals.excl,
    total_invoice_including_vat: totals.incl,
    evidence: {
      ...(date && { document_date: date.evidence }),
      ...(number && { invoice_number: number.evidence }),
      ...(vat && { vat_number: vat.evidence }),
      ...(iban && { iban: iban.evidence }),
      ...('evidence' in supplier && { business_name: supplier.evidence }),
      ...('addressEvidence' in supplier &&
        supplier.addressEvidence && { business_address: supplier.addressEvidence }),
      ...(currency && { currency: currency.evidence }),
      has_vat: hasVat.evidence,
      ...(decided.evidence.incl && { total_invoice_including_vat: decided.evidence.incl }),
      ...(decided.evidence.excl && { total_charge_excluding_vat: decided.evidence.excl }),
      ...(decided.evidence.vat && { total_vat_amount: decided.evidence.vat }),
    },
  }
}

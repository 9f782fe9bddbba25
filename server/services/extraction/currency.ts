/**
 * The document's currency: an ISO code or a symbol printed beside its amounts, in a total or
 * column label ("TOTAL RM", "Amt (RM)"), or labelled ("Währung: EUR"). Nothing is assumed: a
 * document that prints no currency has none, and a bare "$" is read by the country the document
 * prints (USD only without one).
 */
import { rightNeighbour, segmentsOf } from './layout.ts'
import { labelAt } from './lexicon.ts'
import { findAmounts, foldText } from './parse.ts'
import type { Line } from './pdf-text.ts'

/** ISO 4217 codes the runtime knows (EUR, USD, GBP, CHF, MYR, SGD, JPY…). */
const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'))
const AMOUNT_NEAR = String.raw`\d[\d.,' ]*\d`
/**
 * A currency symbol as printed next to an amount ("€ 12,00", "12.00 €", "$12.00") or standing
 * alone ("Total (€)", "Total € incl. VAT"): one inside a word ("1€ML2", "Wood£heer") or before other
 * text ("$ = 6%") is an OCR misreading of a letter, no currency.
 */
const symbol = (sym: string) =>
  new RegExp(
    String.raw`(?:^|[\s(:])${sym}(?=\s?[-−]?\d[\d.,' ]*[.,]\d{2}(?!\d)|\s*\)|\s*$|\s{2}|\s\p{L})|\d[.,]\d{2}\s?${sym}(?![\p{L}\d])`,
    'u',
  )
/** The same symbol right beside an amount ("$12.00", "12,00 €"): evidence that outweighs one alone. */
const besideAmount = (sym: string) =>
  new RegExp(
    String.raw`(?:^|[\s(:])${sym}\s?[-−]?\d[\d.,' ]*[.,]\d{2}(?!\d)|\d[.,]\d{2}\s?${sym}(?![\p{L}\d])`,
    'u',
  )
const SYMBOLS: { re: RegExp; beside: RegExp | null; code: string }[] = [
  { re: /\beuros?\b/i, beside: null, code: 'EUR' },
  { re: symbol('€'), beside: besideAmount('€'), code: 'EUR' },
  { re: symbol('£'), beside: besideAmount('£'), code: 'GBP' },
  { re: /\bRM\s?\d|\bRM\b|\(RM\)/, beside: null, code: 'MYR' },
  { re: symbol(String.raw`S\$`), beside: besideAmount(String.raw`S\$`), code: 'SGD' },
  { re: /\bCHF\b|\bFr\.\s?\d/, beside: null, code: 'CHF' },
  { re: symbol('¥'), beside: besideAmount('¥'), code: 'JPY' },
  { re: symbol(String.raw`(?:US)?\$`), beside: besideAmount(String.raw`(?:US)?\$`), code: 'USD' },
]

/**
 * "RM" as OCR misreads it in an amount column's header ("Amount (RH)", "Anount (RY)", "Tax(Ri)",
 * "Amt (KM)") or in "Amounts are in RY" ("Amounts.âre,in KN"): weak evidence, taken when nothing
 * else is printed. The header word may be misread too; the code itself is matched by case.
 */
const RINGGIT_CONTEXT =
  /\b(?:a[mn][oa]?unt|amt|tax|gst|price|total)\s*\((\w{2})\)|\bamounts?\W+(?:\S{2,4}\W+)?in\W+(\w{2})\b/gi
const RINGGIT_MISREAD = /^(?:R[MHNYil1]|K[MN])$/
const ocrRinggit = (text: string) =>
  [...text.matchAll(RINGGIT_CONTEXT)].some((m) => RINGGIT_MISREAD.test(m[1] ?? m[2] ?? ''))

/**
 * "RM3.00" whose R OCR lost ("M3.00", "MO0.00": the zero read as the letter O), the M against the
 * figures (a size "M 12.00" is apart): taken as ringgit only when several rows print it and nothing
 * else is printed.
 */
const LOST_R_RINGGIT = /(?<![\p{L}\d])M[O\d][\d,]*[.,]\d{2}(?!\d)/u
const LOST_R_MIN_ROWS = 2

/**
 * The currencies a text prints, each with its evidence: 1 for an ISO code written next to an
 * amount ("EUR 12,00", "12.00 MYR", "(USD)"), a letter code ("RM", "CHF") or a symbol beside an
 * amount; 0.4 for a symbol standing alone (OCR makes "€" or "$" out of specks and letters). A bare
 * capitalised word is no code ("BHD" in "Sdn Bhd", "ALL").
 */
function currencyEvidence(text: string): Map<string, number> {
  const out = new Map<string, number>()
  const re = new RegExp(
    String.raw`(?<![A-Za-z])([A-Z]{3})\s?(?=${AMOUNT_NEAR})|${AMOUNT_NEAR}\s?([A-Z]{3})(?![A-Za-z])|\(([A-Z]{3})\)|(?<![A-Za-z])(EUR|USD|GBP|CHF|MYR|SGD)(?![A-Za-z])`,
    'g',
  )
  for (const m of text.matchAll(re)) {
    const code = m[1] ?? m[2] ?? m[3] ?? m[4]
    if (code && ISO_CURRENCIES.has(code) && !out.has(code)) out.set(code, 1)
  }
  for (const { re, beside, code } of SYMBOLS)
    if (re.test(text) && !out.has(code)) out.set(code, beside && !beside.test(text) ? 0.4 : 1)
  if (ocrRinggit(text) && !out.has('MYR')) out.set('MYR', 0.4)
  return out
}

/** The currencies a text prints, in order of evidence. */
function currenciesIn(text: string): string[] {
  return [...currencyEvidence(text)].sort((a, b) => b[1] - a[1]).map(([c]) => c)
}

/** Countries that print their dollar as a bare "$", named in an address or a legal form. */
const DOLLAR_COUNTRIES: [RegExp, string][] = [
  [/\bsingapore\b|\bpte\.?\s*ltd\b/, 'SGD'],
  [/\bmalaysia\b|\bsdn\.?\s*bhd\b/, 'MYR'],
  [/\baustralia\b|\bpty\.?\s*ltd\b/, 'AUD'],
  [/\bcanada\b/, 'CAD'],
  [/\bnew zealand\b/, 'NZD'],
  [/\bhong kong\b/, 'HKD'],
]

/** A bare "$" (no "USD", no "US$") is the dollar of the one country the document names, else USD. */
function dollarOf(lines: Line[]): string {
  const text = foldText(lines.map((l) => l.text).join('\n'))
  if (/\busd\b|us\$/.test(text)) return 'USD'
  const named = DOLLAR_COUNTRIES.filter(([re]) => re.test(text)).map(([, code]) => code)
  return named.length === 1 ? named[0]! : 'USD'
}

/**
 * The document's currency: the one printed on the total's row, else a currency label's value
 * ("Währung: EUR", "Beträge in EUR", "Currency"), else the one most rows with amounts print.
 * Null when the document prints none: no currency is assumed.
 */
export function findCurrency(lines: Line[], totalText: string | null): string | null {
  const code = printedCurrency(lines, totalText)
  return code === 'USD' ? dollarOf(lines) : code
}

function printedCurrency(lines: Line[], totalText: string | null): string | null {
  // A currency labelled as the invoice's own ("Rechnungswährung: GBP") beats the total row's
  // (a document may also print its totals converted into the tax-accounting currency).
  for (const ref of segmentsOf(lines)) {
    const m = labelAt('invoice_currency', ref.seg.text)
    if (!m) continue
    const code = currenciesIn(m.rest || (rightNeighbour(lines, ref)?.text ?? ''))[0]
    if (code) return code
  }
  const fromTotal = totalText ? currenciesIn(totalText)[0] : undefined
  // A bare "$" names no one currency (and OCR reads S or 5 as "$"): a currency the document
  // spells out elsewhere ("RM", "EUR", "(MYR)") decides.
  const bareDollar = (t: string) => !/\bUSD\b|US\$/.test(t)
  if (fromTotal && !(fromTotal === 'USD' && bareDollar(totalText!))) return fromTotal
  if (fromTotal) {
    const other = lines.flatMap((l) => currenciesIn(l.text)).find((c) => c !== 'USD')
    return other ?? fromTotal
  }
  for (const line of lines) {
    const m = line.text.match(
      /\b(w[aä]hrung|currency|devise|monnaie|betr[aä]ge in|amounts in|montants en)\b\s*:?\s*(.*)$/i,
    )
    const code = m ? currenciesIn(m[2]!)[0] : undefined
    if (code) return code
  }
  // Rows with amounts count fully; others (a column header "Netto EUR") half; a symbol standing
  // alone less than a code.
  const counts = new Map<string, number>()
  for (const line of lines) {
    const weight = findAmounts(line.text).length > 0 ? 1 : 0.5
    for (const [c, w] of currencyEvidence(line.text)) counts.set(c, (counts.get(c) ?? 0) + weight * w)
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]).map(([c]) => c)
  if (ranked[0] === 'USD' && ranked.length > 1 && lines.every((l) => bareDollar(l.text))) return ranked[1]!
  if (ranked.length === 0 && lines.filter((l) => LOST_R_RINGGIT.test(l.text)).length >= LOST_R_MIN_ROWS)
    return 'MYR'
  return ranked[0] ?? null
}

/** The currency of the country a VAT id belongs to (its two-letter prefix; Greece prints EL). */
const VAT_COUNTRY_CURRENCY: Record<string, string> = {
  ...Object.fromEntries(
    [
      'AT',
      'BE',
      'CY',
      'DE',
      'EE',
      'EL',
      'ES',
      'FI',
      'FR',
      'HR',
      'IE',
      'IT',
      'LT',
      'LU',
      'LV',
      'MT',
      'NL',
      'PT',
      'SI',
      'SK',
    ].map((c) => [c, 'EUR']),
  ),
  GB: 'GBP',
  XI: 'GBP',
  CH: 'CHF',
  CHE: 'CHF',
  DK: 'DKK',
  SE: 'SEK',
  PL: 'PLN',
  CZ: 'CZK',
  HU: 'HUF',
  RO: 'RON',
  BG: 'BGN',
  NO: 'NOK',
}

/** A receipt that prints no currency is in its country's: the one its VAT id names. */
export function vatIdCurrency(vat: string | null): string | null {
  if (!vat) return null
  return VAT_COUNTRY_CURRENCY[vat.slice(0, 3)] ?? VAT_COUNTRY_CURRENCY[vat.slice(0, 2)] ?? null
}

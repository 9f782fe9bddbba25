/**
 * The document's currency, a fitted decision: every currency printed on a row (a code, a symbol,
 * OCR's misreading of "RM") and every currency a country sign implies (the supplier's VAT id, the
 * IBAN, a country's name, a legal form, a telephone prefix) is a candidate, with the choice that the
 * page shows none. A currency's places add up, as for every field.
 */
import {
  type CountrySign,
  CURRENCY_SIGNS,
  countryCurrency,
  countrySigns,
  DOLLARS,
  type PrintedHow,
  postcodeCountry,
  printedCurrencies,
} from '../currency.ts'
import { LEXICON_LANGUAGES, labelAt, languageLabels } from '../lexicon.ts'
import { findAmounts } from '../parse.ts'
import type { Line, Segment } from '../pdf-text.ts'
import {
  type Candidate,
  type Decision,
  decide,
  type Feature,
  flag,
  type Models,
  modelOf,
  NOWHERE,
  type PageModel,
  present,
} from './model.ts'
import { placeOf } from './place.ts'

/** Where a currency candidate comes from. */
type How = PrintedHow | CountrySign | 'vat_country' | 'iban_country' | 'none'

interface CurrencySite {
  value: string | null
  how: How
  line: Line | null
  seg: Segment | null
  ctx: CurrencyContext
}

/** What the candidates of one page share. */
interface CurrencyContext {
  /** The row the gross total was read on. */
  totalLine: Line | null
  till: boolean
  /** Rows printing each currency (rows with amounts count 1, others ½). */
  rows: Map<string, number>
  /** Every row's text, for signs printed anywhere. */
  text: string
}

/** The inputs beside the page: the decided total's row, the supplier's VAT id and the IBAN. */
export interface CurrencyInputs {
  totalLine: Line | null
  till: boolean
  vat: Decision<string> | null
  iban: Decision<string> | null
}

type CurrencyFeature = Feature<[s: CurrencySite]>
const yes = flag<[s: CurrencySite]>
const printed = (s: CurrencySite) =>
  s.line !== null && ['code', 'symbol', 'alone', 'bare_dollar', 'misread'].includes(s.how)
const implied = (s: CurrencySite) => s.value !== null && !printed(s)
const labelled = (line: Line, field: 'invoice_currency' | 'currency_label') =>
  line.segments.some((seg) => labelAt(field, seg.text))
const share = (s: CurrencySite) => {
  const all = [...s.ctx.rows.values()].reduce((a, b) => a + b, 0)
  return s.value && all > 0 ? (s.ctx.rows.get(s.value) ?? 0) / all : 0
}

/** The currency's features, each a small named measure; their weights are in weights.json. */
export const CURRENCY_FEATURES: readonly CurrencyFeature[] = [
  yes('none', 'the choice that the page shows no currency', (s) => s.value === null),
  yes(
    'code',
    'an ISO or letter code printed by an amount ("EUR 12,00", "RM", "(USD)")',
    (s) => s.how === 'code',
  ),
  yes('symbol', 'a symbol printed right by an amount ("12,00 €", "£5.00")', (s) => s.how === 'symbol'),
  yes('symbol_alone', 'a symbol standing apart from any amount ("Total (€)")', (s) => s.how === 'alone'),
  yes(
    'bare_dollar',
    'a "$" with no country of its own: the dollar of the country the page shows, else USD',
    (s) => s.how === 'bare_dollar',
  ),
  yes(
    'misread_code',
    'OCR\'s misreading of "RM" in a column header or before an amount',
    (s) => s.how === 'misread',
  ),
  yes('total_row', "printed on the gross total's row", (s) => printed(s) && s.line === s.ctx.totalLine),
  yes(
    'currency_label',
    'printed after a currency label ("Währung", "Currency")',
    (s) => printed(s) && labelled(s.line!, 'currency_label'),
  ),
  yes(
    'amount_row',
    'printed on a row with amounts',
    (s) => printed(s) && findAmounts(s.line!.text).length > 0,
  ),
  {
    name: 'rows_share',
    doc: "the share of the page's currency rows that print this currency (0–1)",
    of: (s) => share(s),
  },
  yes('vat_country', "the currency of the supplier's VAT id's country", (s) => s.how === 'vat_country'),
  yes('iban_country', "the currency of the IBAN's country", (s) => s.how === 'iban_country'),
  yes('country_named', 'the currency of a country the page names', (s) => s.how === 'country_named'),
  yes(
    'legal_form',
    'the currency of the country whose company law a legal form belongs to',
    (s) => s.how === 'legal_form',
  ),
  yes('phone_prefix', "the currency of a telephone number's country prefix", (s) => s.how === 'phone_prefix'),
  yes(
    'postcode',
    'the currency of the country a five-digit postcode before a town shows on a page in German, French or Italian',
    (s) => s.how === 'postcode',
  ),
  yes(
    'sign_printed',
    'a country\'s currency whose sign the page prints (a "$" for a dollar country, "€")',
    (s) => implied(s) && (CURRENCY_SIGNS[s.value!]?.test(s.ctx.text) ?? false),
  ),
  yes('implied_on_till', "a country's currency on a till receipt", (s) => implied(s) && s.ctx.till),
  yes(
    'nothing_printed',
    "a country's currency on a page that prints none",
    (s) => implied(s) && s.ctx.rows.size === 0,
  ),
]

/**
 * The language of a page whose labels are German, French or Italian (the languages whose
 * postcodes show a country): two of its own labels at least, more than of any other language.
 */
function pageLanguage(text: string): 'de' | 'fr' | 'it' | null {
  const count = Object.fromEntries(LEXICON_LANGUAGES.map((l) => [l, languageLabels(text, l)]))
  for (const lang of ['de', 'fr', 'it'] as const)
    if (count[lang]! >= 2 && LEXICON_LANGUAGES.every((l) => l === lang || count[l]! < count[lang]!))
      return lang
  return null
}

function sites(model: PageModel, inputs: CurrencyInputs): CurrencySite[] {
  const rows = new Map<string, number>()
  const ctx: CurrencyContext = {
    totalLine: inputs.totalLine,
    till: inputs.till,
    rows,
    text: model.lines.map((l) => l.text).join('\n'),
  }
  const implied: CurrencySite[] = []
  const language = pageLanguage(ctx.text)
  for (const line of model.lines) {
    if (line.segments.every((s) => model.customer.has(s))) continue
    const signs = countrySigns(line.text)
    const byPostcode = postcodeCountry(line.text, language)
    if (byPostcode) signs.push({ country: byPostcode, sign: 'postcode' })
    for (const { country, sign } of signs) {
      const value = countryCurrency(country)
      if (value) implied.push({ value, how: sign, line, seg: line.segments[0] ?? null, ctx })
    }
  }
  // A "$" that says no more is the dollar of the country the page shows, USD without one.
  const dollars = new Set(implied.map((s) => s.value!).filter((c) => DOLLARS.has(c)))
  const dollar = dollars.size === 1 ? [...dollars][0]! : 'USD'
  const out: CurrencySite[] = []
  for (const line of model.lines) {
    const weight = findAmounts(line.text).length > 0 ? 1 : 0.5
    for (const [code, how] of printedCurrencies(line.text)) {
      const value = how === 'bare_dollar' ? dollar : code
      rows.set(value, (rows.get(value) ?? 0) + weight)
      const seg = line.segments.find((s) => printedCurrencies(s.text).has(code)) ?? line.segments[0] ?? null
      out.push({ value, how, line, seg, ctx })
    }
  }
  out.push(...implied)
  // A definition, not a weight: the currency a page labels as the invoice's own ("Rechnungswährung:
  // GBP") is its currency, whatever its totals are also converted into.
  const own = out.filter((s) => printed(s) && labelled(s.line!, 'invoice_currency'))
  if (own.length > 0) return own
  const fromId = (d: Decision<string> | null, how: 'vat_country' | 'iban_country') => {
    const value = d ? countryCurrency(d.value.slice(0, d.value.startsWith('CHE') ? 3 : 2)) : null
    if (value) out.push({ value, how, line: null, seg: null, ctx })
  }
  fromId(inputs.vat, 'vat_country')
  fromId(inputs.iban, 'iban_country')
  out.push({ value: null, how: 'none', line: null, seg: null, ctx })
  return out
}

/** Every currency candidate of a page model, the choice of none as `null`. */
export function currencyCandidates(model: PageModel, inputs: CurrencyInputs): Candidate<string | null>[] {
  return sites(model, inputs).map((site) => {
    const idPlace =
      site.how === 'vat_country'
        ? inputs.vat?.evidence
        : site.how === 'iban_country'
          ? inputs.iban?.evidence
          : undefined
    return {
      value: site.value,
      text: site.value ?? '',
      ...(site.line && site.seg
        ? placeOf(model.pages, site.line, site.seg)
        : idPlace
          ? { page: idPlace.page, box: idPlace.box }
          : NOWHERE),
      x: CURRENCY_FEATURES.map((feature) => feature.of(site)),
    }
  })
}

/** The document's currency: one decision over every currency printed or implied, and none. */
export function decideCurrency(
  model: PageModel,
  inputs: CurrencyInputs,
  models?: Models,
): Decision<string> | null {
  return present(
    decide(modelOf('currency', CURRENCY_FEATURES, models), currencyCandidates(model, inputs), (v) => v ?? ''),
  )
}

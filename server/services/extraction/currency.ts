/**
 * What a page says about its currency, as data for the currency's scorer (scoring/currency.ts):
 * the codes and symbols printed beside its amounts or in its labels ("TOTAL RM", "Amt (RM)",
 * "Währung: EUR"), and the country signs that imply one (a VAT id's or an IBAN's country, a
 * country's name, a legal form of one country, a telephone prefix). Nothing is assumed here: the
 * scorer weighs what is found, and a page showing nothing has no currency.
 */
import { foldText } from './parse.ts'

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
/** The same symbol right beside an amount ("$12.00", "12,00 €"). */
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
  // ("Mo.-Fr. 08.30" is a weekday and an hour, no franc.)
  { re: /\bCHF\b|(?<![-–]\s?)\bFr\.\s?\d/, beside: null, code: 'CHF' },
  { re: symbol('¥'), beside: besideAmount('¥'), code: 'JPY' },
  { re: symbol('zł'), beside: besideAmount('zł'), code: 'PLN' },
  { re: symbol(String.raw`(?:US)?\$`), beside: besideAmount(String.raw`(?:US)?\$`), code: 'USD' },
]

/** The currencies printed with a bare "$". */
export const DOLLARS = new Set(['USD', 'SGD', 'AUD', 'CAD', 'NZD', 'HKD'])

/** The sign a currency is printed with, when it has its own ("$" is every dollar's). */
export const CURRENCY_SIGNS: Record<string, RegExp> = {
  EUR: /€/,
  GBP: /£/,
  JPY: /¥/,
  PLN: /zł/,
  MYR: /\bRM\b/,
  CHF: /\bCHF\b|(?<![-–]\s?)\bFr\./,
  ...Object.fromEntries([...DOLLARS].map((c) => [c, /\$/])),
}

/**
 * "RM" as OCR misreads it in an amount column's header ("Amount (RH)", "Anount (RY)", "Tax(Ri)",
 * "Amt (KM)") or in "Amounts are in RY" ("Amounts.âre,in KN"); the header word may be misread too.
 */
const RINGGIT_CONTEXT =
  /\b(?:a[mn][oa]?unt|amt|tax|gst|price|total)\s*\((\w{2})\)|\bamounts?\W+(?:\S{2,4}\W+)?in\W+(\w{2})\b/gi
const RINGGIT_MISREAD = /^(?:R[MHNYil1]|K[MN])$/
/** "RM3.00" whose R OCR lost ("M3.00", "MO0.00": the zero read as the letter O). */
const LOST_R_RINGGIT = /(?<![\p{L}\d])M[O\d][\d,]*[.,]\d{2}(?![\p{L}\d])/u

/** How a currency is printed on a row. */
export type PrintedHow = 'code' | 'symbol' | 'alone' | 'bare_dollar' | 'misread'

/**
 * The currencies a row prints and how: an ISO code next to an amount ("EUR 12,00", "12.00 MYR",
 * "(USD)"), a letter code ("RM", "CHF") or a symbol beside an amount (`code` / `symbol`); a symbol
 * standing alone (`alone`: OCR makes "€" or "$" out of specks); a "$" that names no country
 * (`bare_dollar`); "RM" as OCR misreads it (`misread`). A bare capitalised word is no code ("BHD"
 * in "Sdn Bhd", "ALL").
 */
export function printedCurrencies(text: string): Map<string, PrintedHow> {
  const out = new Map<string, PrintedHow>()
  const re = new RegExp(
    String.raw`(?<![A-Za-z])([A-Z]{3})\s?(?=${AMOUNT_NEAR})|${AMOUNT_NEAR}\s?([A-Z]{3})(?![A-Za-z])|\(([A-Z]{3})\)|(?<![A-Za-z])(EUR|USD|GBP|CHF|MYR|SGD)(?![A-Za-z])`,
    'g',
  )
  for (const m of text.matchAll(re)) {
    const code = m[1] ?? m[2] ?? m[3] ?? m[4]
    if (code && ISO_CURRENCIES.has(code) && !out.has(code)) out.set(code, 'code')
  }
  for (const { re, beside, code } of SYMBOLS) {
    if (out.has(code) || !re.test(text)) continue
    const alone = beside !== null && !beside.test(text)
    const bare = code === 'USD' && !/\bUSD\b|US\$/.test(text)
    out.set(code, alone ? 'alone' : bare ? 'bare_dollar' : beside ? 'symbol' : 'code')
  }
  if (!out.has('MYR')) {
    const misread =
      [...text.matchAll(RINGGIT_CONTEXT)].some((m) => RINGGIT_MISREAD.test(m[1] ?? m[2] ?? '')) ||
      LOST_R_RINGGIT.test(text)
    if (misread) out.set('MYR', 'misread')
  }
  return out
}

/** Countries and their currency (ISO 3166 alpha-2; a VAT id writes Greece EL, Northern Ireland XI). */
const COUNTRY_CURRENCY: Record<string, string> = {
  ...Object.fromEntries(
    'AT BE CY DE EE EL GR ES FI FR HR IE IT LT LU LV MT NL PT SI SK MC'.split(' ').map((c) => [c, 'EUR']),
  ),
  GB: 'GBP',
  XI: 'GBP',
  CH: 'CHF',
  LI: 'CHF',
  DK: 'DKK',
  SE: 'SEK',
  PL: 'PLN',
  CZ: 'CZK',
  HU: 'HUF',
  RO: 'RON',
  BG: 'BGN',
  NO: 'NOK',
  US: 'USD',
  CA: 'CAD',
  AU: 'AUD',
  NZ: 'NZD',
  SG: 'SGD',
  MY: 'MYR',
  HK: 'HKD',
  JP: 'JPY',
}

/** The currency of a country (ISO code, or a VAT id's prefix: "CHE" is Switzerland's). */
export function countryCurrency(country: string): string | null {
  const code = country === 'CHE' ? 'CH' : country.slice(0, 2).toUpperCase()
  return COUNTRY_CURRENCY[code] ?? null
}

/** Country names as documents print them (folded: lower case, no accents), in en, fr, de and the country's own. */
const COUNTRY_NAMES: [RegExp, string][] = [
  [/\b(france)\b/, 'FR'],
  [/\b(germany|deutschland|allemagne)\b/, 'DE'],
  [/\b(austria|osterreich|autriche)\b/, 'AT'],
  [/\b(belgium|belgique|belgie|belgien)\b/, 'BE'],
  [/\b(netherlands|nederland|pays-bas|niederlande)\b/, 'NL'],
  [/\b(luxembourg|luxemburg)\b/, 'LU'],
  [/\b(italy|italia|italie|italien)\b/, 'IT'],
  [/\b(spain|espana|espagne|spanien)\b/, 'ES'],
  [/\b(portugal)\b/, 'PT'],
  [/\b(ireland|irlande|irland)\b/, 'IE'],
  [/\b(switzerland|suisse|schweiz|svizzera)\b/, 'CH'],
  [/\b(united kingdom|royaume-uni|england|scotland|wales|grossbritannien)\b/, 'GB'],
  [/\b(usa|u\.s\.a\.|united states)\b/, 'US'],
  [/\b(canada)\b/, 'CA'],
  [/\b(australia)\b/, 'AU'],
  [/\b(new zealand)\b/, 'NZ'],
  [/\b(singapore)\b/, 'SG'],
  [/\b(malaysia)\b/, 'MY'],
  [/\b(hong kong)\b/, 'HK'],
  [/\b(japan)\b/, 'JP'],
]

/** Legal forms of one country's company law (folded), at the end of a name or before its registration. */
const LEGAL_FORMS: [RegExp, string][] = [
  [/\b(sarl|sas|sasu|eurl|sci|snc|selarl)\b/, 'FR'],
  [/\b(gmbh|ug \(haftungsbeschrankt\)|e\.\s?k\.|ohg|gbr)\b/, 'DE'],
  [/\b(sdn\.?\s*bhd|berhad)\b/, 'MY'],
  [/\b(pte\.?\s*ltd)\b/, 'SG'],
  [/\b(pty\.?\s*ltd)\b/, 'AU'],
  [/\b(s\.?r\.?l\.?|s\.?p\.?a\.?)$/, 'IT'],
  [/\b(b\.?v\.?)$/, 'NL'],
]

/** International telephone prefixes as printed ("+33 1 …", "(+49) 30 …", "0060-3-…"). */
const PHONE_PREFIXES: Record<string, string> = {
  '33': 'FR',
  '49': 'DE',
  '43': 'AT',
  '32': 'BE',
  '31': 'NL',
  '352': 'LU',
  '39': 'IT',
  '34': 'ES',
  '351': 'PT',
  '353': 'IE',
  '41': 'CH',
  '44': 'GB',
  '60': 'MY',
  '65': 'SG',
  '61': 'AU',
}
const PHONE = /(?:\+|\b00)\s?\(?(\d{2,3})\)?[\s.-]?\d/g

/**
 * A sign of a country on a row: its name, a legal form of its company law, its telephone prefix,
 * its postcode's shape on a page in its language.
 */
export type CountrySign = 'country_named' | 'legal_form' | 'phone_prefix' | 'postcode'

/**
 * Where a page in German, French or Italian prints a five-digit postcode before a town, the
 * country is Germany, France or Italy: the other countries writing those languages (Austria,
 * Switzerland, Liechtenstein, Luxembourg, Belgium) have four-digit postcodes (San Marino and the
 * Vatican, with five, pay in euros as Italy does). Not in Spanish (Mexico's postcodes have five
 * digits too) nor in English (Malaysia's), where five digits before a town say nothing.
 */
const POSTCODE_COUNTRY: Record<string, string> = { de: 'DE', fr: 'FR', it: 'IT' }
const POSTCODE_TOWN = /(?:^|[\s,;:(]|\b[DF]-)\d{5}\s+\p{Lu}\p{L}+/u

/** The country a row's five-digit postcode shows on a page whose labels are in `language`. */
export function postcodeCountry(text: string, language: string | null): string | null {
  const country = language ? POSTCODE_COUNTRY[language] : undefined
  return country && POSTCODE_TOWN.test(text) ? country : null
}

/** The countries a row's text shows, each with the sign it was read from. */
export function countrySigns(text: string): { country: string; sign: CountrySign }[] {
  const t = foldText(text)
  const out: { country: string; sign: CountrySign }[] = []
  for (const [re, country] of COUNTRY_NAMES) if (re.test(t)) out.push({ country, sign: 'country_named' })
  for (const [re, country] of LEGAL_FORMS) if (re.test(t)) out.push({ country, sign: 'legal_form' })
  for (const m of t.matchAll(PHONE)) {
    const digits = m[1]!
    const country = PHONE_PREFIXES[digits] ?? PHONE_PREFIXES[digits.slice(0, 2)]
    if (country) out.push({ country, sign: 'phone_prefix' })
  }
  return out
}

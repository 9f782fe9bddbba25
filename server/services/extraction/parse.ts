/**
 * Numbers, dates and identifiers as European documents print them (month names in English, French,
 * German, Dutch, Italian, Spanish and Portuguese).
 */

/** Matches one printed amount: 1 234,56 · 1,234.56 · 1.234,56 · 1'234.50 · 1234.56 · -366,64 · 0,00 */
const AMOUNT_RE =
  /(?<![\d.,])[-−–]?\s?(?:\d{1,3}(?:(?:[  \u202f'’]|\.(?=\d{3}(?:[^\d]|$))|,(?=\d{3}(?:[^\d]|$)))\d{3})+|\d+)(?:[.,]\d{2})(?![\d]|[.,]\d)/g

function amountValue(token: string): number | null {
  let s = token.replace(/[\s  \u202f'’]/g, '')
  const negative = /^[-−–]/.test(s)
  s = s.replace(/^[-−–]/, '')
  const decimal = s.slice(-3)
  const whole = s.slice(0, -3).replace(/[.,]/g, '')
  const value = Number(`${whole}.${decimal.slice(1)}`)
  if (!Number.isFinite(value)) return null
  return negative ? -value : value
}

/** Every amount printed in a string, in order. */
export function findAmounts(raw: string): { value: number; index: number; text: string }[] {
  const out: { value: number; index: number; text: string }[] = []
  for (const m of raw.matchAll(AMOUNT_RE)) {
    // "6.00 %" is a rate, not an amount.
    if (/^\s?%/.test(raw.slice((m.index ?? 0) + m[0].length))) continue
    const value = amountValue(m[0])
    if (value !== null) out.push({ value, index: m.index ?? 0, text: m[0] })
  }
  return out
}

export const round2 = (n: number) => Math.round(n * 100) / 100

const MONTHS: Record<string, number> = {
  janvier: 1,
  janv: 1,
  january: 1,
  fevrier: 2,
  fevr: 2,
  fev: 2,
  feb: 2,
  february: 2,
  mars: 3,
  mar: 3,
  march: 3,
  avril: 4,
  avr: 4,
  apr: 4,
  april: 4,
  mai: 5,
  may: 5,
  juin: 6,
  jun: 6,
  june: 6,
  juillet: 7,
  juil: 7,
  jul: 7,
  july: 7,
  aout: 8,
  aou: 8,
  aug: 8,
  august: 8,
  septembre: 9,
  sept: 9,
  sep: 9,
  september: 9,
  octobre: 10,
  oct: 10,
  october: 10,
  novembre: 11,
  nov: 11,
  november: 11,
  decembre: 12,
  dec: 12,
  december: 12,
  // German
  januar: 1,
  jan: 1,
  janner: 1,
  jann: 1,
  februar: 2,
  marz: 3,
  maerz: 3,
  mrz: 3,
  juni: 6,
  juli: 7,
  oktober: 10,
  okt: 10,
  dezember: 12,
  dez: 12,
  // Dutch
  januari: 1,
  februari: 2,
  maart: 3,
  mei: 5,
  augustus: 8,
  mrt: 3,
  // Italian
  gennaio: 1,
  febbraio: 2,
  marzo: 3,
  aprile: 4,
  maggio: 5,
  giugno: 6,
  luglio: 7,
  agosto: 8,
  settembre: 9,
  ottobre: 10,
  dicembre: 12,
  gen: 1,
  mag: 5,
  giu: 6,
  lug: 7,
  ago: 8,
  ott: 10,
  dic: 12,
  // Spanish
  enero: 1,
  febrero: 2,
  abril: 4,
  mayo: 5,
  junio: 6,
  julio: 7,
  septiembre: 9,
  setiembre: 9,
  octubre: 10,
  noviembre: 11,
  diciembre: 12,
  ene: 1,
  abr: 4,
  // Portuguese
  janeiro: 1,
  fevereiro: 2,
  marco: 3,
  maio: 5,
  junho: 6,
  julho: 7,
  setembro: 9,
  outubro: 10,
  novembro: 11,
  dezembro: 12,
  // Polish (the genitive a date prints, folded: "14 marca 2026", "3 października" → "pazdziernika")
  stycznia: 1,
  lutego: 2,
  marca: 3,
  kwietnia: 4,
  maja: 5,
  czerwca: 6,
  lipca: 7,
  sierpnia: 8,
  wrzesnia: 9,
  pazdziernika: 10,
  listopada: 11,
  grudnia: 12,
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()

const MONTH_NAMES = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|')
const MONTH_WORD = `(${MONTH_NAMES})\\.?`

/** Day-first (25/11/2026, Europe, Malaysia…) or month-first (11/25/2026, United States). */
export type DateOrder = 'dmy' | 'mdy'

const DATE_PATTERNS: {
  re: RegExp
  build: (m: RegExpMatchArray, order: DateOrder) => [number, number, number] | null
}[] = [
  // 2026-11-25
  { re: /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g, build: (m) => [+m[1]!, +m[2]!, +m[3]!] },
  // 25/11/2026 · 25.11.2026 · 25-11-2026 · 25/11/26 (11/25/2026 when the document is month-first)
  {
    // (One separator twice: "08.30 - 12.30", a time range, is no date; nor the start of a longer
    // run of figures, "05.22.95.66.66", a phone number.)
    re: /\b(\d{1,2})\s?([/.-])\s?(\d{1,2})\s?\2\s?(\d{4}|\d{2})(?![\d]|[./-]\d)/g,
    build: (m, order) => {
      const a = +m[1]!
      const b = +m[3]!
      // A number above 12 decides whatever the document's convention.
      const dayFirst = a > 12 ? true : b > 12 ? false : order === 'dmy'
      return dayFirst ? [year(m[4]!), b, a] : [year(m[4]!), a, b]
    },
  },
  // 25 novembre 2026 · 1er novembre 2026 · 25 nov. 2026 · 25th November 2026 · 7. Mai 2014 · 05 MAR 2018 · 01-NOV-2017 · 25 Nov 26 · 14 de marzo de 2026
  {
    re: new RegExp(
      `\\b(\\d{1,2})(?:er|st|nd|rd|th|\\.)?(?:\\s+|\\s*[-/]\\s*)(?:(?:of|de)\\s+)?${MONTH_WORD}(?:\\s*[-/,]\\s*|\\s+de\\s+|\\s*)(\\d{4}|\\d{2})(?!\\d)`,
      'g',
    ),
    build: (m) => [year(m[3]!), MONTHS[m[2]!]!, +m[1]!],
  },
  // 25032018 (tills): day, month and year run together, only before a time or as a row's first token
  {
    re: /(?:(?<!\S)|^)(0[1-9]|[12]\d|3[01])(0[1-9]|1[0-2])(20\d{2})(?=\s+\d{1,2}:\d{2})|(?:^|(?<=\s{2}))(0[1-9]|[12]\d|3[01])(0[1-9]|1[0-2])(20\d{2})(?=\s*$|\s+\D)/g,
    build: (m) => [+(m[3] ?? m[6])!, +(m[2] ?? m[5])!, +(m[1] ?? m[4])!],
  },
  // Nov 25, 2026 · November 25, 2026 · November 25th, 2026 · OCT 3, 2016
  {
    re: new RegExp(`\\b${MONTH_WORD}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'g'),
    build: (m) => [+m[3]!, MONTHS[m[1]!]!, +m[2]!],
  },
]

function year(raw: string): number {
  const n = Number(raw)
  return raw.length === 2 ? 2000 + n : n
}

export interface FoundDate {
  iso: string
  index: number
  end: number
}

/** Every date printed in a string, as YYYY-MM-DD, in order of appearance. */
export function findDates(raw: string, order: DateOrder = 'dmy'): FoundDate[] {
  const text = fold(raw)
  const out: FoundDate[] = []
  for (const { re, build } of DATE_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const parts = build(m, order)
      if (!parts) continue
      const [y, mo, d] = parts
      if (!validDate(y, mo, d)) continue
      const index = m.index ?? 0
      if (out.some((o) => index < o.end && index + m[0].length > o.index)) continue
      out.push({
        iso: `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
        index,
        end: index + m[0].length,
      })
    }
  }
  return out.sort((a, b) => a.index - b.index)
}

/**
 * The document's date convention: a numeric date whose first number cannot be a month makes
 * it day-first, one whose second cannot be makes it month-first; otherwise month-first only for
 * an English document in US dollars with no day-first sign (French, German, `€`, `£`, `RM`).
 */
export function dateOrder(allText: string): DateOrder {
  const text = fold(allText)
  let dmy = 0
  let mdy = 0
  for (const m of text.matchAll(/\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?!\d)/g)) {
    if (+m[1]! > 12 && +m[2]! <= 12) dmy++
    else if (+m[2]! > 12 && +m[1]! <= 12) mdy++
  }
  if (dmy !== mdy) return dmy > mdy ? 'dmy' : 'mdy'
  // Dollars with a VAT or a GST are not the United States' (a UK, Australian or Canadian seller).
  const us = /\$|\busd\b/.test(text) && !/€|£|\b(eur|gbp|rm|myr|chf|tva|mwst|ust|vat|gst)\b/.test(text)
  return us ? 'mdy' : 'dmy'
}

function validDate(y: number, m: number, d: number): boolean {
  if (y < 1990 || y > 2100 || m < 1 || m > 12 || d < 1) return false
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate()
}

/** Lower case without accents, for label matching. */
export const foldText = fold

/** The text without its accents, case kept ("Bâtiment" → "Batiment"). */
export const unmarked = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC')

/** Removes spaces, dots and dashes, upper-cases (IBAN and VAT numbers). */
export const compactId = (s: string) => s.replace(/[\s.\-–]/g, '').toUpperCase()

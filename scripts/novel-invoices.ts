/**
 * A seeded generator of invoices in layouts the extraction engine was not written against
 * (`node --import tsx scripts/novel-invoices.ts --seed 20261126 --count 120 --out DIR`): French,
 * English and German invoices whose supplier sits in the letterhead, behind a supplier label,
 * only in the legal footer or as the payee of the bank details; two-column headers with a
 * customer block; totals as label rows or as a table (labels in one row, values in the next);
 * several VAT rates or none ("TVA non applicable, art. 293 B du CGI"); dates in the forms of the
 * three languages; junk lines that must never be a name; and some documents that should fail
 * (totals that do not add up, an IBAN whose checksum is wrong, no invoice number). Each is
 * printed to a text-layer PDF by Chromium (playwright-core) into DIR/files, with its truth in
 * DIR/truth.jsonl in the shape of shared/corpus (so tests/extraction/corpus.ts scores it);
 * `--scans 0.15` writes that share as scanned copies instead (image PDF, PNG or JPEG).
 *
 * Layout families (the truth's `template`): letterhead, label, footer, payee; `right-sender` and
 * `centered` appear only when `heldOutFamilies` is set (the held-out set), so part of that set is
 * made of layouts no rule was tuned on.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { electronicFormatIBAN, isValidIBAN } from 'ibantools'
import { checkVAT, countries } from 'jsvat'
import { PDFDocument } from 'pdf-lib'
import { chromium, type Page } from 'playwright-core'

export type Lang = 'fr' | 'en' | 'de'
export type Rng = () => number

/** mulberry32: a small seeded generator, the same documents for the same seed on any machine. */
export function rngOf(seed: number): Rng {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
export const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1))
export const digits = (r: Rng, n: number) => Array.from({ length: n }, () => String(int(r, 0, 9))).join('')
export const chance = (r: Rng, p: number) => r() < p
export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
export const round2 = (n: number) => Math.round(n * 100) / 100

// ---------------------------------------------------------------- parties

const NAME_A = [
  'Acme',
  'Nordlicht',
  'Bellevue',
  'Atelier',
  'Horizon',
  'Kestrel',
  'Valmont',
  'Lindenhof',
  'Océane',
  'Brightwater',
  'Rheinland',
  'Cobalt',
  'Pivot',
  'Serein',
  'Granite',
  'Alder',
  'Mistral',
  'Eichen',
  'Quarry',
  'Lumen',
]
const NAME_B: Record<Lang, string[]> = {
  fr: [
    'Fournitures',
    'Conseil',
    'Bâtiment',
    'Imprimerie',
    'Logistique',
    'Informatique',
    'Services',
    'Menuiserie',
  ],
  en: ['Supplies', 'Consulting', 'Print Works', 'Logistics', 'Software', 'Trading', 'Engineering', 'Studio'],
  de: ['Handel', 'Beratung', 'Bau', 'Druckerei', 'Logistik', 'Software', 'Technik', 'Werkstatt'],
}
export const LEGAL_FORMS: Record<Lang, string[]> = {
  fr: ['SARL', 'SAS', 'SASU', 'EURL', 'SA'],
  en: ['Ltd', 'Limited', 'LLP', 'plc', 'Ltd.'],
  de: ['GmbH', 'GmbH & Co. KG', 'UG (haftungsbeschränkt)', 'AG', 'e.K.'],
}
export const FIRST = [
  'Claire',
  'Jonas',
  'Martin',
  'Sophie',
  'Oliver',
  'Lena',
  'Hugo',
  'Emma',
  'Paul',
  'Julia',
]
export const LAST = [
  'Morel',
  'Becker',
  'Walsh',
  'Lefèvre',
  'Hoffmann',
  'Turner',
  'Garnier',
  'Krüger',
  'Hughes',
  'Renaud',
]

export const STREETS: Record<Lang, string[]> = {
  fr: [
    'rue de la Paix',
    'avenue Jean Jaurès',
    'boulevard Voltaire',
    'rue des Lilas',
    'place Bellecour',
    'quai de Bercy',
  ],
  en: ['High Street', 'Station Road', 'Mill Lane', 'Church Street', 'Victoria Road', 'Kings Parade'],
  de: ['Hauptstraße', 'Bahnhofstraße', 'Lindenallee', 'Gartenweg', 'Schillerstraße', 'Am Markt'],
}
export const CITIES: Record<Lang, [string, string][]> = {
  fr: [
    ['75002', 'Paris'],
    ['69002', 'Lyon'],
    ['33000', 'Bordeaux'],
    ['44000', 'Nantes'],
    ['67000', 'Strasbourg'],
    ['31000', 'Toulouse'],
  ],
  en: [
    ['BS1 4DJ', 'Bristol'],
    ['M1 2AB', 'Manchester'],
    ['LS1 5QS', 'Leeds'],
    ['EC1A 1BB', 'London'],
    ['CB2 1TN', 'Cambridge'],
    ['EH1 1YZ', 'Edinburgh'],
  ],
  de: [
    ['10115', 'Berlin'],
    ['80331', 'München'],
    ['50667', 'Köln'],
    ['20095', 'Hamburg'],
    ['04109', 'Leipzig'],
    ['70173', 'Stuttgart'],
  ],
}
const COUNTRY: Record<Lang, string> = { fr: 'France', en: 'United Kingdom', de: 'Deutschland' }

/** The trade a shop name announces ("Boulangerie Horizon"): a trade name printed over the legal name. */
const TRADES: Record<Lang, string[]> = {
  fr: ['Boulangerie', 'Garage', 'Atelier', 'Cabinet', 'Studio', 'Maison', 'Librairie', 'Pressing'],
  en: ['The', 'Studio', 'House of', 'Workshop'],
  de: ['Bäckerei', 'Autohaus', 'Atelier', 'Studio', 'Haus', 'Buchhandlung'],
}

interface Party {
  name: string
  /** The name as printed in the letterhead: one line, or the legal form wrapped onto a second. */
  nameLines: string[]
  street: string
  city: string
  /** "street, postcode city" (the truth's form). */
  address: string
  vat: string | null
  phone: string
  email: string
}

export function frVat(r: Rng): string {
  const siren = `${int(r, 3, 9)}${digits(r, 8)}`
  const key = (12 + 3 * (Number(siren) % 97)) % 97
  return `FR${String(key).padStart(2, '0')}${siren}`
}

export function deVat(r: Rng): string {
  for (;;) {
    const body = `${int(r, 1, 9)}${digits(r, 7)}`
    let p = 10
    for (const c of body) {
      let s = (Number(c) + p) % 10
      if (s === 0) s = 10
      p = (2 * s) % 11
    }
    const check = (11 - p) % 10
    const vat = `DE${body}${check}`
    if (checkVAT(vat, countries).isValid) return vat
  }
}

export function gbVat(r: Rng): string {
  for (;;) {
    const body = `${int(r, 1, 9)}${digits(r, 6)}`
    const sum = [...body].reduce((n, c, i) => n + Number(c) * (8 - i), 0)
    const check = (97 - (sum % 97)) % 97
    const vat = `GB${body}${String(check).padStart(2, '0')}`
    if (checkVAT(vat, countries).isValid) return vat
  }
}

function party(r: Rng, lang: Lang, company: boolean): Party {
  const form = pick(r, LEGAL_FORMS[lang])
  const base = company ? `${pick(r, NAME_A)} ${pick(r, NAME_B[lang])}` : `${pick(r, FIRST)} ${pick(r, LAST)}`
  const name = company ? `${base} ${form}` : base
  const nameLines = company && chance(r, 0.3) ? [base, form] : [name]
  const [pc, town] = pick(r, CITIES[lang])
  const no = int(r, 1, 180)
  const st = pick(r, STREETS[lang])
  const street = lang === 'de' ? `${st} ${no}` : `${no} ${st}`
  const city = lang === 'en' ? `${town} ${pc}` : `${pc} ${town}`
  const vat = lang === 'fr' ? frVat(r) : lang === 'de' ? deVat(r) : gbVat(r)
  const slug = base
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z]/g, '')
  return {
    name,
    nameLines,
    street,
    city,
    address: `${street}, ${city}`,
    vat,
    phone:
      lang === 'fr'
        ? `01 ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)}`
        : lang === 'de'
          ? `030 ${digits(r, 7)}`
          : `0117 ${digits(r, 3)} ${digits(r, 4)}`,
    email: `contact@${slug}.${lang === 'en' ? 'co.uk' : lang}`,
  }
}

// ---------------------------------------------------------------- bank details

function mod97(s: string): number {
  let rem = 0
  for (const ch of s) {
    const v = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55)
    for (const d of v) rem = (rem * 10 + Number(d)) % 97
  }
  return rem
}

function iban(r: Rng, lang: Lang): string {
  let bban: string
  let cc: string
  if (lang === 'fr') {
    const bank = digits(r, 5)
    const branch = digits(r, 5)
    const account = digits(r, 11)
    const key = 97 - ((89 * Number(bank) + 15 * Number(branch) + 3 * Number(account)) % 97)
    bban = `${bank}${branch}${account}${String(key).padStart(2, '0')}`
    cc = 'FR'
  } else if (lang === 'de') {
    bban = digits(r, 18)
    cc = 'DE'
  } else {
    bban = `${pick(r, ['BARC', 'NWBK', 'LOYD', 'HBUK'])}${digits(r, 14)}`
    cc = 'GB'
  }
  const check = 98 - mod97(`${bban}${cc}00`)
  const out = `${cc}${String(check).padStart(2, '0')}${bban}`
  if (!isValidIBAN(out)) return iban(r, lang)
  return out
}

/** The same IBAN with one digit of its account changed: its checksum no longer holds. */
function brokenIban(good: string): string {
  const i = good.length - 3
  const d = (Number(good[i]) + 3) % 10
  const out = `${good.slice(0, i)}${d}${good.slice(i + 1)}`
  return isValidIBAN(out) ? brokenIban(out) : out
}

const groupIban = (s: string) => s.replace(/(.{4})/g, '$1 ').trim()

// ---------------------------------------------------------------- dates and amounts

const MONTHS: Record<Lang, string[]> = {
  fr: [
    'janvier',
    'février',
    'mars',
    'avril',
    'mai',
    'juin',
    'juillet',
    'août',
    'septembre',
    'octobre',
    'novembre',
    'décembre',
  ],
  en: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
  de: [
    'Januar',
    'Februar',
    'März',
    'April',
    'Mai',
    'Juni',
    'Juli',
    'August',
    'September',
    'Oktober',
    'November',
    'Dezember',
  ],
}

export interface Ymd {
  y: number
  m: number
  d: number
}
export const iso = (t: Ymd) => `${t.y}-${String(t.m).padStart(2, '0')}-${String(t.d).padStart(2, '0')}`
const addDays = (t: Ymd, n: number): Ymd => {
  const d = new Date(Date.UTC(t.y, t.m - 1, t.d + n))
  return { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate() }
}
const p2 = (n: number) => String(n).padStart(2, '0')

/** One printed form of a date in the document's language (all forms of the issue text). */
export function formatDate(r: Rng, lang: Lang, t: Ymd, form: number): string {
  const yy = String(t.y).slice(2)
  const mon = MONTHS.en[t.m - 1]!
  switch (lang) {
    case 'fr':
      return [
        `${p2(t.d)}/${p2(t.m)}/${t.y}`,
        `${p2(t.d)}/${p2(t.m)}/${yy}`,
        `${t.d} ${MONTHS.fr[t.m - 1]} ${t.y}`,
        `${p2(t.d)}.${p2(t.m)}.${t.y}`,
      ][form % 4]!
    case 'de':
      return [
        `${p2(t.d)}.${p2(t.m)}.${t.y}`,
        `${t.d}. ${MONTHS.de[t.m - 1]} ${t.y}`,
        `${p2(t.d)}.${p2(t.m)}.${yy}`,
        `${t.d}. ${MONTHS.de[t.m - 1]} ${t.y}`,
      ][form % 4]!
    default:
      return [
        `${mon} ${t.d}, ${t.y}`,
        `${mon.slice(0, 3)} ${t.d}, ${t.y}`,
        `${p2(t.d)} ${mon.slice(0, 3).toUpperCase()} ${t.y}`,
        `${p2(t.d)}-${mon.slice(0, 3).toUpperCase()}-${t.y}`,
        `${p2(t.d)}/${p2(t.m)}/${t.y}`,
        `${t.d} ${mon} ${t.y}`,
      ][form % (r() < 0.5 ? 6 : 4)]!
  }
}

interface Money {
  code: string
  fmt: (n: number) => string
}

export function money(lang: Lang, code: string, r: Rng): Money {
  const group = (n: number, sep: string, dec: string) => {
    const [i, f] = n.toFixed(2).split('.')
    return `${i!.replace(/\B(?=(\d{3})+(?!\d))/g, sep)}${dec}${f}`
  }
  const sym: Record<string, string> = { EUR: '€', GBP: '£', USD: '$' }
  if (lang === 'en') {
    const before = chance(r, 0.7)
    return {
      code,
      fmt: (n) => (before ? `${sym[code]}${group(n, ',', '.')}` : `${group(n, ',', '.')} ${code}`),
    }
  }
  const sep = lang === 'fr' ? '\u202f' : '.'
  const suffix = chance(r, 0.75) ? ' €' : ' EUR'
  return { code, fmt: (n) => `${group(n, lang === 'fr' && chance(r, 0.5) ? ' ' : sep, ',')}${suffix}` }
}

// ---------------------------------------------------------------- labels

const L = {
  title: {
    fr: ['FACTURE', 'Facture'],
    en: ['INVOICE', 'Invoice', 'Tax Invoice'],
    de: ['RECHNUNG', 'Rechnung'],
  },
  number: {
    fr: ['Facture N°', 'N° de facture', 'Numéro de facture', 'Facture n°'],
    en: ['Invoice No', 'Invoice Number', 'Invoice #', 'Invoice no.'],
    de: ['Rechnungsnummer', 'Rechnungs-Nr.', 'Beleg-Nr.', 'Rechnung Nr.'],
  },
  date: {
    fr: ['Date', 'Date de facture', "Date d'émission", 'Date de facturation'],
    en: ['Invoice date', 'Date', 'Date of issue', 'Issue date'],
    de: ['Rechnungsdatum', 'Datum', 'Belegdatum', 'Rechnungsdatum'],
  },
  due: {
    fr: ["Date d'échéance", 'Échéance', 'À payer avant le'],
    en: ['Due date', 'Payment due', 'Due'],
    de: ['Fälligkeitsdatum', 'Fällig am', 'Zahlbar bis'],
  },
  delivery: {
    fr: ['Date de livraison', 'Date de commande'],
    en: ['Delivery date', 'Order date'],
    de: ['Lieferdatum', 'Bestelldatum', 'Leistungsdatum'],
  },
  supplier: {
    fr: ['Fournisseur', 'Émetteur', 'Vendeur'],
    en: ['Supplier', 'From', 'Vendor', 'Seller'],
    de: ['Lieferant', 'Rechnungssteller', 'Verkäufer'],
  },
  customer: {
    fr: ['Facturé à', 'Client', 'Adresse de facturation'],
    en: ['Bill to', 'Invoice to', 'Customer'],
    de: ['Rechnungsempfänger', 'Kunde', 'Rechnungsadresse'],
  },
  net: {
    fr: ['Total HT', 'Montant total net', 'Total hors taxes', 'Montant HT'],
    en: ['Subtotal', 'Net total amount', 'Total excl. VAT', 'Net amount'],
    de: ['Nettobetrag', 'Summe netto', 'Gesamtbetrag netto', 'Zwischensumme netto'],
  },
  vat: {
    fr: ['TVA', 'TVA', 'Montant TVA'],
    en: ['VAT', 'VAT @', 'Tax'],
    de: ['MwSt.', 'USt.', 'zzgl. MwSt.'],
  },
  gross: {
    fr: ['Total TTC', 'Montant total brut', 'Net à payer', 'Montant TTC'],
    en: ['Gross total amount', 'Total due', 'Amount due', 'Total incl. VAT', 'Invoice total'],
    de: ['Rechnungsbetrag', 'Endbetrag', 'Gesamtbetrag brutto', 'Gesamtbetrag', 'Zu zahlender Betrag'],
  },
  noVatTotal: {
    fr: ['Total', 'Net à payer', 'Montant total'],
    en: ['Total', 'Amount due', 'Total due'],
    de: ['Gesamtbetrag', 'Rechnungsbetrag', 'Summe'],
  },
  noVat: {
    fr: ['TVA non applicable, art. 293 B du CGI'],
    en: ['VAT exempt', 'No VAT charged: supplier not VAT registered'],
    de: [
      'Gemäß §19 UStG wird keine Umsatzsteuer berechnet (Kleinunternehmer gem. §19 UStG).',
      'Kleinunternehmer gem. §19 UStG',
    ],
  },
  payee: {
    fr: ['Bénéficiaire', 'Titulaire du compte', 'Titulaire'],
    en: ['Account holder', 'Account name', 'Payee'],
    de: ['Kontoinhaber', 'Empfänger', 'Kontoinhaber'],
  },
  bank: {
    fr: ['Coordonnées bancaires', 'Règlement par virement'],
    en: ['Bank details', 'Payment details'],
    de: ['Bankverbindung', 'Zahlungsinformationen'],
  },
  vatId: {
    fr: ['N° TVA', 'TVA intracom.', 'N° TVA intracommunautaire'],
    en: ['VAT No', 'VAT Reg No', 'VAT number'],
    de: ['USt-IdNr.', 'USt-ID', 'Umsatzsteuer-ID'],
  },
  buyerRef: {
    fr: ['Votre référence', 'Réf. client'],
    en: ['Your ref', 'PO number'],
    de: ['Ihre Referenz', 'Ihr Zeichen'],
  },
  desc: { fr: 'Désignation', en: 'Description', de: 'Bezeichnung' },
  qty: { fr: 'Qté', en: 'Qty', de: 'Menge' },
  unit: { fr: 'PU HT', en: 'Unit price', de: 'Einzelpreis' },
  amount: { fr: 'Montant HT', en: 'Amount', de: 'Betrag' },
  rate: { fr: 'Taux', en: 'Rate', de: 'Satz' },
  base: { fr: 'Base HT', en: 'Net', de: 'Netto' },
} as const

const SLOGANS: Record<Lang, string[]> = {
  fr: ['La qualité depuis 1998', 'Votre partenaire au quotidien', 'Solutions durables pour les pros'],
  en: ['Quality since 1998', 'Your partner in print', 'Built to last'],
  de: ['Qualität seit 1998', 'Ihr Partner für Technik', 'Alles aus einer Hand'],
}
const ITEMS: Record<Lang, string[]> = {
  fr: [
    'Ramettes papier A4',
    'Prestation de conseil',
    'Maintenance annuelle',
    'Cartouches encre',
    'Installation sur site',
    'Formation (1 jour)',
  ],
  en: [
    'A4 paper reams',
    'Consulting services',
    'Annual maintenance',
    'Ink cartridges',
    'On-site installation',
    'Training (1 day)',
  ],
  de: [
    'Kopierpapier A4',
    'Beratungsleistung',
    'Jahreswartung',
    'Druckerpatronen',
    'Montage vor Ort',
    'Schulung (1 Tag)',
  ],
}
const RATES: Record<Lang, number[]> = { fr: [20, 10, 5.5], en: [20, 5], de: [19, 7] }
const rateText = (lang: Lang, rate: number) =>
  `${lang === 'en' ? String(rate) : String(rate).replace('.', ',')} %`

// ---------------------------------------------------------------- one document

export interface NovelTruth {
  file: string
  kind: 'invoice' | 'expense'
  template: string
  variant: string
  render: 'pdf_text' | 'pdf_image' | 'png' | 'jpg'
  pages: number
  upload_order: number
  fields: Record<string, unknown>
  expected_status: 'COMPLETED' | 'FAILED'
  expected_error_codes: string[]
  expected_warning_codes: string[]
}

const FAMILIES = ['letterhead', 'label', 'footer', 'payee'] as const
/** Families only the held-out set draws from: layouts nothing was tuned on. */
export const HELD_OUT_FAMILIES = ['right-sender', 'centered'] as const

interface Doc {
  html: string
  truth: NovelTruth
}

function lines(r: Rng, lang: Lang, hasVat: boolean) {
  const n = int(r, 1, 5)
  const rates = RATES[lang]
  const multi = hasVat && chance(r, 0.45)
  return Array.from({ length: n }, () => {
    const qty = int(r, 1, 12)
    const unit = round2(int(r, 500, 90000) / 100)
    return {
      desc: pick(r, ITEMS[lang]),
      qty,
      unit,
      amount: round2(qty * unit),
      rate: hasVat ? (multi ? pick(r, rates) : rates[0]!) : 0,
    }
  })
}

/** A billing period's label and the word between its two dates. */
const PERIOD: Record<Lang, [string, string]> = {
  fr: ['Période', 'au'],
  en: ['Service period', 'to'],
  de: ['Leistungszeitraum', 'bis'],
}

/** The word that puts the issue date after the number on one row ("n° 2026-0142 du 15/03/2026"). */
const DATE_ON_NUMBER_ROW: Record<Lang, string[]> = {
  fr: ['du', '– Date :'],
  en: ['dated', '– Date:'],
  de: ['vom', '– Datum:'],
}

function invoiceNumber(r: Rng, i: number, seed: number): string {
  const s = `${(seed % 900) + 100}${String(i).padStart(3, '0')}`
  return pick(r, [
    `FA-2026-${s}`,
    `INV-${s}`,
    `RE${s}${digits(r, 2)}`,
    `F${s}/26`,
    `${s}${digits(r, 3)}`,
    `2026-${s}`,
  ])
}

function kv(label: string, value: string, style: number): string {
  if (style === 0)
    return `<div class="kv"><span>${esc(label)} :</span> <span>${esc(value)}</span></div>`.replace(
      ' :',
      label.endsWith('#') ? '' : ':',
    )
  return `<tr><td class="l">${esc(label)}</td><td class="v">${esc(value)}</td></tr>`
}

export function makeDoc(seed: number, i: number, heldOut: boolean): Doc {
  const r = rngOf(seed * 1000 + i)
  const lang = pick(r, ['fr', 'en', 'de'] as const)
  const families: readonly string[] = heldOut ? [...FAMILIES, ...HELD_OUT_FAMILIES] : FAMILIES
  const family = pick(r, families)
  const variantRoll = r()
  const variant =
    variantRoll < 0.1
      ? 'totals_mismatch'
      : variantRoll < 0.16
        ? 'iban_checksum'
        : variantRoll < 0.22
          ? 'missing_invoice_number'
          : 'clean'
  const noVat = chance(r, 0.2)
  const totalsForm = pick(r, ['rows', 'table', 'summary'] as const)
  const supplier = party(r, lang, true)
  if (noVat) supplier.vat = null
  const customer = party(r, lang, chance(r, 0.8))
  const code = lang === 'en' ? pick(r, ['GBP', 'GBP', 'EUR', 'USD']) : 'EUR'
  const m = money(lang, code, r)
  const issue: Ymd = { y: int(r, 2014, 2026), m: int(r, 1, 12), d: int(r, 1, 28) }
  if (issue.y === 2026 && issue.m > 10) issue.m = 10
  const dateForm = int(r, 0, 5)
  const fmtDate = (t: Ymd) => formatDate(r, lang, t, dateForm)
  const number = variant === 'missing_invoice_number' ? null : invoiceNumber(r, i, seed)
  const items = lines(r, lang, !noVat)
  const byRate = new Map<number, number>()
  for (const it of items) byRate.set(it.rate, round2((byRate.get(it.rate) ?? 0) + it.amount))
  const net = round2(items.reduce((n, it) => n + it.amount, 0))
  const vats = [...byRate].map(([rate, base]) => ({ rate, base, vat: round2((base * rate) / 100) }))
  const vat = noVat ? 0 : round2(vats.reduce((n, v) => n + v.vat, 0))
  let gross = round2(net + vat)
  if (variant === 'totals_mismatch') gross = round2(gross + pick(r, [10, 100, 1, 50]))
  const showBank = family === 'payee' || chance(r, 0.7) || variant === 'iban_checksum'
  const goodIban = iban(r, lang)
  const printedIban = showBank ? (variant === 'iban_checksum' ? brokenIban(goodIban) : goodIban) : null

  // Variations drawn from a second stream, so that adding one leaves the rest of a seed's
  // documents as they were.
  const r2 = rngOf((seed * 1000 + i) ^ 0x5bd1e995)
  const letterheadFamily = family === 'letterhead' || family === 'right-sender' || family === 'centered'
  // A shop's trade name in large type over the company's legal name (the supplier is the company).
  const tradeName =
    letterheadFamily && chance(r2, lang === 'fr' ? 0.4 : 0.15)
      ? `${pick(r2, TRADES[lang])} ${pick(r2, NAME_A)}`
      : null
  // "Facture n° 2026-0142 du 15/03/2026": the issue date on the number's row.
  const dateOnNumberRow = chance(r2, lang === 'fr' ? 0.3 : 0.15)
  // A billing period printed among the meta rows.
  const periodRow = chance(r2, 0.25)
  // A French legal footer that names the company with its capital and registrations.
  const legalNamesCompany = lang === 'fr' && chance(r2, 0.5)

  const name = supplier.name
  const legalNameHtml = supplier.nameLines.map(esc).join('<br>')
  const nameHtml = tradeName
    ? `${esc(tradeName)}</div><div class="${chance(r2, 0.5) ? 'legal-name' : 'small'}">${legalNameHtml}`
    : legalNameHtml
  const addrHtml = `${esc(supplier.street)}<br>${esc(supplier.city)}${chance(r, 0.4) ? `<br>${COUNTRY[lang]}` : ''}`
  const contact = `${lang === 'fr' ? 'Tél.' : 'Tel.'} ${supplier.phone} · ${supplier.email}`
  const vatLine = supplier.vat ? `${pick(r, L.vatId[lang])} ${supplier.vat}` : ''
  const junkTop = chance(r, 0.5) ? `<div class="junk">${esc(pick(r, SLOGANS[lang]))}</div>` : ''
  const title = pick(r, L.title[lang])
  const pageNo = chance(r, 0.4)
    ? `<div class="page-no">${lang === 'de' ? 'Seite 1/1' : 'Page 1/1'}</div>`
    : ''

  // Customer block (labelled or an address window), never the supplier.
  const custLabel = chance(r, 0.7) ? `<div class="lab">${esc(pick(r, L.customer[lang]))}:</div>` : ''
  const custVat =
    chance(r, 0.2) && customer.vat
      ? `<div>${lang === 'de' ? 'USt-IdNr. Kunde' : lang === 'fr' ? 'N° TVA client' : 'Customer VAT No'}: ${customer.vat}</div>`
      : ''
  const custHtml = `<div class="cust">${custLabel}<div>${esc(customer.name)}</div><div>${esc(customer.street)}</div><div>${esc(customer.city)}</div>${custVat}</div>`

  // Meta: number, date, due, delivery, buyer reference.
  const due = addDays(issue, pick(r, [14, 30, 45]))
  const delivery = addDays(issue, -int(r, 1, 10))
  const meta: [string, string][] = []
  const numberLabel = number ? pick(r, L.number[lang]) : ''
  if (number) meta.push([numberLabel, number])
  const dateLabel = pick(r, L.date[lang])
  const issueText = fmtDate(issue)
  const dateMeta: [string, string] = [dateLabel, issueText]
  const extra: [string, string][] = []
  if (chance(r, 0.4)) extra.push([pick(r, L.delivery[lang]), fmtDate(delivery)])
  if (chance(r, 0.6)) extra.push([pick(r, L.due[lang]), fmtDate(due)])
  if (chance(r, 0.3)) extra.push([pick(r, L.buyerRef[lang]), `PO-${digits(r, 5)}`])
  if (periodRow) {
    const from: Ymd = { y: issue.m === 1 ? issue.y - 1 : issue.y, m: issue.m === 1 ? 12 : issue.m - 1, d: 1 }
    const to = addDays({ ...issue, d: 1 }, -1)
    const [label, join] = PERIOD[lang]
    extra.push([label, `${fmtDate(from)} ${join} ${fmtDate(to)}`])
  }
  const dateFirst = chance(r, 0.25)
  // The other dates (due, delivery, period) printed before the issue date, its row last: a third
  // stream, so that the documents drawn before it stay as they were.
  const issueLast = !dateFirst && extra.length > 0 && chance(rngOf((seed * 1000 + i) ^ 0x27d4eb2d), 0.3)
  const metaRows =
    number && dateOnNumberRow
      ? [
          [numberLabel, `${number} ${pick(r2, DATE_ON_NUMBER_ROW[lang])} ${issueText}`] as [string, string],
          ...extra,
        ]
      : dateFirst
        ? [dateMeta, ...meta, ...extra]
        : issueLast
          ? [...meta, ...extra, dateMeta]
          : [...meta, dateMeta, ...extra]
  const metaStyle = int(r, 0, 2)
  const metaHtml =
    metaStyle === 2
      ? `<table class="metat"><tr>${metaRows.map(([l]) => `<th>${esc(l)}</th>`).join('')}</tr><tr>${metaRows.map(([, v]) => `<td>${esc(v)}</td>`).join('')}</tr></table>`
      : metaStyle === 1
        ? `<table class="meta">${metaRows.map(([l, v]) => kv(l, v, 1)).join('')}</table>`
        : `<div class="meta">${metaRows.map(([l, v]) => kv(l, v, 0)).join('')}</div>`

  // Items table.
  const itemsHtml = `<table class="items"><tr><th>${L.desc[lang]}</th><th>${L.qty[lang]}</th><th>${L.unit[lang]}</th>${
    !noVat && byRate.size > 1 ? `<th>${L.vat[lang][0]}</th>` : ''
  }<th>${L.amount[lang]}</th></tr>${items
    .map(
      (it) =>
        `<tr><td>${esc(it.desc)}</td><td class="n">${it.qty}</td><td class="n">${m.fmt(it.unit)}</td>${
          !noVat && byRate.size > 1 ? `<td class="n">${rateText(lang, it.rate)}</td>` : ''
        }<td class="n">${m.fmt(it.amount)}</td></tr>`,
    )
    .join('')}</table>`

  // Totals.
  const netLabel = pick(r, L.net[lang])
  const grossLabel = noVat ? pick(r, L.noVatTotal[lang]) : pick(r, L.gross[lang])
  const vatLabel = pick(r, L.vat[lang])
  const vatRowLabel = (rate: number) =>
    vatLabel.endsWith('@') ? `${vatLabel} ${rate}%` : `${vatLabel} ${rateText(lang, rate)}`
  let totalsHtml: string
  if (noVat) {
    // A wrong total shows only beside a printed net.
    const rows: [string, string][] =
      chance(r, 0.5) || variant === 'totals_mismatch'
        ? [
            [netLabel, m.fmt(net)],
            [grossLabel, m.fmt(gross)],
          ]
        : [[grossLabel, m.fmt(gross)]]
    totalsHtml =
      totalsForm === 'table'
        ? `<table class="tt"><tr>${rows.map(([l]) => `<th>${esc(l)}</th>`).join('')}</tr><tr>${rows.map(([, v]) => `<td>${v}</td>`).join('')}</tr></table>`
        : `<table class="totals">${rows.map(([l, v]) => `<tr><td>${esc(l)}</td><td class="n">${v}</td></tr>`).join('')}</table>`
    totalsHtml += `<div class="note">${esc(pick(r, L.noVat[lang]))}</div>`
  } else if (totalsForm === 'table') {
    const cells: [string, string][] = [
      [netLabel, m.fmt(net)],
      ...vats.map((v) => [vatRowLabel(v.rate), m.fmt(v.vat)] as [string, string]),
      [grossLabel, m.fmt(gross)],
    ]
    totalsHtml = `<table class="tt"><tr>${cells.map(([l]) => `<th>${esc(l)}</th>`).join('')}</tr><tr>${cells.map(([, v]) => `<td>${v}</td>`).join('')}</tr></table>`
  } else if (totalsForm === 'summary') {
    totalsHtml = `<table class="vs"><tr><th>${L.rate[lang]}</th><th>${L.base[lang]}</th><th>${L.vat[lang][0]}</th></tr>${vats
      .map(
        (v) =>
          `<tr><td>${rateText(lang, v.rate)}</td><td class="n">${m.fmt(v.base)}</td><td class="n">${m.fmt(v.vat)}</td></tr>`,
      )
      .join(
        '',
      )}</table><table class="totals"><tr><td>${esc(netLabel)}</td><td class="n">${m.fmt(net)}</td></tr>${
      vats.length > 1 || chance(r, 0.5)
        ? `<tr><td>${esc(lang === 'fr' ? 'Total TVA' : lang === 'de' ? 'Summe MwSt.' : 'Total VAT')}</td><td class="n">${m.fmt(vat)}</td></tr>`
        : ''
    }<tr class="b"><td>${esc(grossLabel)}</td><td class="n">${m.fmt(gross)}</td></tr></table>`
  } else {
    totalsHtml = `<table class="totals"><tr><td>${esc(netLabel)}</td><td class="n">${m.fmt(net)}</td></tr>${vats
      .map((v) => `<tr><td>${esc(vatRowLabel(v.rate))}</td><td class="n">${m.fmt(v.vat)}</td></tr>`)
      .join('')}<tr class="b"><td>${esc(grossLabel)}</td><td class="n">${m.fmt(gross)}</td></tr></table>`
  }

  // Bank details and legal footer.
  const payeeLine =
    family === 'payee' || chance(r, 0.4) ? `<div>${esc(pick(r, L.payee[lang]))}: ${esc(name)}</div>` : ''
  const bankHtml = printedIban
    ? `<div class="bank"><div class="lab">${esc(pick(r, L.bank[lang]))}</div>${payeeLine}<div>IBAN: ${groupIban(printedIban)}</div><div>BIC: ${pick(r, ['BNPAFRPPXXX', 'COBADEFFXXX', 'BARCGB22', 'AGRIFRPP882'])}</div></div>`
    : ''
  const legal =
    lang === 'fr'
      ? `${pick(r, ['SAS au capital de 10 000 €', 'SARL au capital de 7 500 €', 'Capital social 50 000 €'])} · RCS ${pick(r, CITIES.fr)[1]} ${digits(r, 3)} ${digits(r, 3)} ${digits(r, 3)} · SIRET ${digits(r, 14)}`
      : lang === 'de'
        ? `Geschäftsführer: ${pick(r, FIRST)} ${pick(r, LAST)} · Amtsgericht ${pick(r, CITIES.de)[1]} HRB ${digits(r, 5)}`
        : `Registered in England and Wales No. ${digits(r, 8)} · Registered office as above`
  const legalText = !legalNamesCompany
    ? legal
    : legal.startsWith('Capital')
      ? `${name}, c${legal.slice(1)}`
      : `${name} ${legal.replace(/^(SAS|SARL) /, '')}`
  const footerName = family === 'footer' || (family !== 'payee' && chance(r, 0.5))
  const footerHtml = `<div class="footer">${footerName ? `<div>${esc(name)} · ${esc(supplier.address)}</div>` : ''}<div>${esc(legalText)}${vatLine && family !== 'letterhead' ? ` · ${esc(vatLine)}` : ''}</div></div>`

  // The header per family.
  let header: string
  const sender = `<div class="addr">${addrHtml}</div><div class="small">${esc(contact)}</div>${vatLine && family === 'letterhead' ? `<div class="small">${esc(vatLine)}</div>` : ''}`
  switch (family) {
    case 'letterhead':
      header = `${pageNo}<div class="row"><div class="col">${junkTop}<div class="brand">${nameHtml}</div>${sender}</div><div class="col right"><h1>${esc(title)}</h1>${metaHtml}</div></div><div class="row"><div class="col"></div><div class="col">${custHtml}</div></div>`
      break
    case 'label':
      header = `${pageNo}<h1>${esc(title)}</h1><div class="row"><div class="col"><div class="lab">${esc(pick(r, L.supplier[lang]))}: ${esc(name)}</div><div>${esc(supplier.address)}${chance(r, 0.3) ? `, ${COUNTRY[lang]}` : ''}</div>${vatLine ? `<div class="small">${esc(vatLine)}</div>` : ''}</div><div class="col">${custHtml}</div></div>${metaHtml}`
      break
    case 'footer':
      header = `${pageNo}${junkTop || `<div class="junk">${esc(pick(r, SLOGANS[lang]))}</div>`}<div class="row"><div class="col">${custHtml}</div><div class="col right"><h1>${esc(title)}</h1>${metaHtml}</div></div>`
      break
    case 'payee':
      header = `${pageNo}<div class="row"><div class="col"><div class="junk">${esc(pick(r, SLOGANS[lang]))}</div><div class="small">${esc(supplier.address)}</div></div><div class="col right"><h1>${esc(title)}</h1></div></div><div class="row"><div class="col">${custHtml}</div><div class="col">${metaHtml}</div></div>`
      break
    case 'right-sender':
      header = `${pageNo}<div class="row"><div class="col">${custHtml}</div><div class="col right"><div class="brand">${nameHtml}</div>${sender}</div></div><h1>${esc(title)}</h1>${metaHtml}`
      break
    default:
      header = `${pageNo}<div class="center">${junkTop}<div class="brand">${nameHtml}</div>${sender}</div><h1 class="center">${esc(title)}</h1><div class="row"><div class="col">${custHtml}</div><div class="col">${metaHtml}</div></div>`
  }
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><style>
  @page { size: A4; margin: 18mm 16mm; }
  body { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 9.5pt; color: #222; }
  h1 { font-size: 16pt; margin: 6pt 0; } .brand { font-size: 15pt; font-weight: bold; margin: 3pt 0; } .legal-name { font-weight: bold; }
  .row { display: flex; gap: 30pt; margin: 10pt 0; } .col { flex: 1; } .right { text-align: right; } .center { text-align: center; }
  .small, .junk, .page-no { font-size: 8pt; color: #555; } .page-no { text-align: right; }
  .lab { font-weight: bold; } .cust { border: 0.5pt solid #999; padding: 6pt; }
  table { border-collapse: collapse; } td, th { padding: 2pt 8pt; text-align: left; }
  .items { width: 100%; margin: 12pt 0; } .items th { border-bottom: 1pt solid #333; } .n { text-align: right; }
  .totals, .vs { margin-left: auto; margin-top: 6pt; } .totals .b { font-weight: bold; }
  .tt { width: 100%; margin-top: 10pt; } .tt th { font-size: 8pt; border-bottom: 0.5pt solid #333; }
  .metat th, .metat td, .tt th, .tt td, .meta td { white-space: nowrap; }
  .metat th { font-size: 8pt; } .note { margin-top: 8pt; font-style: italic; }
  .bank { margin-top: 16pt; font-size: 8.5pt; }
  .footer { position: fixed; bottom: 0; left: 0; right: 0; text-align: center; font-size: 7pt; color: #555; border-top: 0.5pt solid #aaa; padding-top: 3pt; }
  </style></head><body>${header}${itemsHtml}${totalsHtml}${bankHtml}${footerHtml}</body></html>`

  const errors = variant === 'clean' ? [] : [variant]
  const file = `${String(i + 1).padStart(4, '0')}-${lang}-${family}.pdf`
  return {
    html,
    truth: {
      file,
      kind: 'invoice' as const,
      template: family,
      variant: `${variant}/${totalsForm}${noVat ? '/no-vat' : ''}/${metaStyle === 2 ? 'meta-table' : 'meta-rows'}`,
      render: 'pdf_text' as NovelTruth['render'],
      pages: 1,
      upload_order: i + 1,
      fields: {
        invoice_number: number,
        invoice_date: iso(issue),
        business_name: name,
        business_address: supplier.address,
        vat_number: supplier.vat,
        iban: printedIban ? electronicFormatIBAN(printedIban) : null,
        currency: code,
        has_vat: !noVat,
        total_vat_amount: vat,
        total_charge_excluding_vat: net,
        total_invoice_including_vat: gross,
      },
      expected_status: errors.length ? 'FAILED' : 'COMPLETED',
      expected_error_codes: errors,
      expected_warning_codes: [],
    },
  }
}

/** How a scanned copy is written: an image-only PDF (a JPEG on an A4 page), a PNG or a JPEG. */
export const SCAN_RENDERS = ['pdf_image', 'png', 'jpg'] as const
export type ScanRender = (typeof SCAN_RENDERS)[number]

/**
 * The scanner, run in the page (a string, so that no bundler helper leaks into it): turns and
 * blurs the screenshot in grey, adds seeded noise, and answers a PNG or JPEG data URL.
 */
const DEGRADE = `async ({ png, angle, blur, noise, seed, jpeg }) => {
  const img = new Image()
  img.src = 'data:image/png;base64,' + png
  await img.decode()
  const canvas = document.createElement('canvas')
  canvas.width = img.width
  canvas.height = img.height
  const ctx = canvas.getContext('2d')
  ctx.fillStyle = '#fff'
  ctx.fillRect(0, 0, canvas.width, canvas.height)
  ctx.filter = 'blur(' + blur + 'px) grayscale(1)'
  ctx.translate(canvas.width / 2, canvas.height / 2)
  ctx.rotate((angle * Math.PI) / 180)
  ctx.drawImage(img, -img.width / 2, -img.height / 2)
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height)
  let a = seed >>> 0
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  for (let p = 0; p < data.data.length; p += 4) {
    const v = Math.max(0, Math.min(255, data.data[p] + (rand() + rand() + rand() - 1.5) * noise))
    data.data[p] = data.data[p + 1] = data.data[p + 2] = v
  }
  ctx.putImageData(data, 0, 0)
  return canvas.toDataURL(jpeg ? 'image/jpeg' : 'image/png', 0.8)
}`

/**
 * A scanned copy of the page, as shared/corpus's scans are made: the page at about 170 dpi in grey,
 * turned by up to a degree, slightly blurred, with seeded noise; written as `render`.
 */
export async function scanOf(
  page: Page,
  html: string,
  r: Rng,
  render: ScanRender,
  size: { width: number; height: number } = { width: 794, height: 1123 },
): Promise<Buffer> {
  await page.setViewportSize(size)
  // A page sized by its own body (a till roll, `data-scan-ready`) is shot as that body, whatever
  // the window's size; an A4 page with its print margins and fixed footer, on a screen its size.
  const own = html.includes('data-scan-ready')
  await page.setContent(
    own
      ? html
      : html.replace(
          '</style>',
          'html, body { margin: 0; } body { padding: 18mm 16mm; } .footer { bottom: 12mm; }</style>',
        ),
  )
  await page.evaluate('document.fonts.ready')
  const shot = own
    ? await page.locator('body').screenshot({ type: 'png' })
    : await page.screenshot({ type: 'png' })
  const settings = {
    angle: (r() * 2 - 1) * 1.0,
    blur: 0.3 + r() * 0.5,
    noise: 8 + r() * 14,
    seed: int(r, 1, 1e9),
  }
  const input = { png: shot.toString('base64'), ...settings, jpeg: render !== 'png' }
  const dataUrl: string = await page.evaluate(`(${DEGRADE})(${JSON.stringify(input)})`)
  const image = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64')
  if (render !== 'pdf_image') return image
  const pdf = await PDFDocument.create()
  const jpg = await pdf.embedJpg(image)
  // The page in points, as the CSS pixels it was laid out in (96 per inch).
  const w = (size.width * 72) / 96
  const h = (size.height * 72) / 96
  pdf.addPage([w, h]).drawImage(jpg, { x: 0, y: 0, width: w, height: h })
  return Buffer.from(await pdf.save())
}

/**
 * Writes `count` documents into dir/files and their truth into dir/truth.jsonl. Each is drawn by
 * `make`, then written as a scanned copy (a `scans` share, drawn on a stream of its own so the
 * documents themselves do not change) or printed by `print` to a text-layer PDF.
 */
export async function writeDocuments<D extends { html: string; truth: NovelTruth }>(
  dir: string,
  count: number,
  seed: number,
  scans: number,
  make: (i: number) => D,
  print: (page: Page, doc: D) => Promise<{ pdf: Buffer; size: { width: number; height: number } }>,
): Promise<void> {
  mkdirSync(join(dir, 'files'), { recursive: true })
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  })
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1.77 })
    const truths: string[] = []
    for (let i = 0; i < count; i++) {
      const doc = make(i)
      const printed = await print(page, doc)
      const s = rngOf(seed * 1000 + i + 0x5ca7)
      if (chance(s, scans)) {
        const render = pick(s, SCAN_RENDERS)
        doc.truth.file = doc.truth.file.replace(/\.pdf$/, `-scan.${render === 'pdf_image' ? 'pdf' : render}`)
        doc.truth.render = render
        writeFileSync(
          join(dir, 'files', doc.truth.file),
          await scanOf(page, doc.html, s, render, printed.size),
        )
      } else writeFileSync(join(dir, 'files', doc.truth.file), printed.pdf)
      truths.push(JSON.stringify(doc.truth))
    }
    writeFileSync(join(dir, 'truth.jsonl'), `${truths.join('\n')}\n`)
  } finally {
    await browser.close()
  }
}

/** Writes `count` invoices of the seed (`scans`: the share written as scanned copies). */
export async function generateSet(
  seed: number,
  dir: string,
  count: number,
  heldOut: boolean,
  scans = 0,
): Promise<void> {
  await writeDocuments(
    dir,
    count,
    seed,
    scans,
    (i) => makeDoc(seed, i, heldOut),
    async (page, { html }) => {
      await page.setContent(html)
      const pdf = await page.pdf({ format: 'A4', printBackground: false })
      return { pdf, size: { width: 794, height: 1123 } }
    },
  )
}

if (import.meta.filename === process.argv[1]) {
  const args = process.argv.slice(2)
  const opt = (n: string, d: string) => (args.includes(n) ? args[args.indexOf(n) + 1]! : d)
  await generateSet(
    Number(opt('--seed', '20261126')),
    opt('--out', '/tmp/novel-invoices'),
    Number(opt('--count', '120')),
    args.includes('--held-out'),
    Number(opt('--scans', '0')),
  )
}

/**
 * The correction form's side of the contract: which fields each kind lets a user correct, how a
 * stored value is shown in an input, and how what a user types becomes the value a PATCH sends
 * (dates in the user's language → ISO, amounts with either decimal separator, IBAN checksum, VAT
 * number shape). A value that cannot be read gives an error code the views translate.
 */
import { electronicFormatIBAN, isValidIBAN } from 'ibantools'
import type { FinancialKind } from './documents.ts'

type Language = 'en' | 'fr'

const INVOICE_FIELDS = [
  'invoice_number',
  'invoice_date',
  'due_date',
  'business_name',
  'business_address',
  'vat_number',
  'iban',
  'currency',
  'has_vat',
  'total_charge_excluding_vat',
  'total_vat_amount',
  'total_invoice_including_vat',
] as const

const EXPENSE_FIELDS = [
  'expense_date',
  'business_name',
  'business_address',
  'currency',
  'has_vat',
  'total_charge_excluding_vat',
  'total_vat_amount',
  'total_invoice_including_vat',
] as const

export type EditableField = (typeof INVOICE_FIELDS)[number] | (typeof EXPENSE_FIELDS)[number]

/** The fields a user corrects, in the order the dialog shows them. */
export const EDITABLE_FIELDS: Record<FinancialKind, readonly EditableField[]> = {
  invoice: INVOICE_FIELDS,
  expense: EXPENSE_FIELDS,
}

/** `address`: text of several lines (one per address line). */
type FieldShape = 'text' | 'address' | 'date' | 'amount' | 'iban' | 'vat' | 'currency' | 'boolean'

const SHAPES: Record<EditableField, FieldShape> = {
  invoice_number: 'text',
  invoice_date: 'date',
  due_date: 'date',
  expense_date: 'date',
  business_name: 'text',
  business_address: 'address',
  vat_number: 'vat',
  iban: 'iban',
  currency: 'currency',
  has_vat: 'boolean',
  total_charge_excluding_vat: 'amount',
  total_vat_amount: 'amount',
  total_invoice_including_vat: 'amount',
}

export const fieldShape = (field: EditableField): FieldShape => SHAPES[field]

/** Why a typed value cannot be saved. */
export type FieldErrorCode =
  | 'invalidDate'
  | 'invalidAmount'
  | 'invalidIban'
  | 'invalidVatNumber'
  | 'invalidCurrency'

/** A value the PATCH body carries: null clears the field. */
type FieldValue = string | number | boolean | null

export type ParsedField = { ok: true; value: FieldValue } | { ok: false; error: FieldErrorCode }

const pad = (n: number) => String(n).padStart(2, '0')

function isoDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day))
  if (year < 1900 || year > 2199) return null
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null
  return `${year}-${pad(month)}-${pad(day)}`
}

/**
 * A typed date as ISO: `2026-07-17` in both languages, else day first in French (17/07/2026,
 * 17.07.2026, 17-07-2026) and month first in English (07/17/2026). Two-digit years are 20xx.
 */
export function parseDate(text: string, language: Language): string | null {
  const value = text.trim()
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value)
  if (iso) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]))
  const parts = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(value)
  if (!parts) return null
  const [a, b] = [Number(parts[1]), Number(parts[2])]
  const year = parts[3]!.length === 2 ? 2000 + Number(parts[3]) : Number(parts[3])
  return language === 'fr' ? isoDate(year, b, a) : isoDate(year, a, b)
}

/** An ISO date as the user's language writes it in the input. */
function formatDateInput(iso: string, language: Language): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso)
  if (!m) return iso
  return language === 'fr' ? `${m[3]}/${m[2]}/${m[1]}` : `${m[2]}/${m[3]}/${m[1]}`
}

/**
 * A typed amount as a number: spaces, apostrophes and the thousands separator ignored, either `.`
 * or `,` as the decimal separator (the last one when both appear; a lone separator followed by
 * exactly three digits groups thousands). At most two decimals.
 */
export function parseAmount(text: string): number | null {
  let value = text.replace(/[\s\u00a0\u202f']/g, '')
  if (!/^-?[\d.,]+$/.test(value)) return null
  const last = Math.max(value.lastIndexOf('.'), value.lastIndexOf(','))
  if (last >= 0) {
    const separators = value.match(/[.,]/g) ?? []
    const decimals = value.length - last - 1
    const grouping = new Set(separators).size === 1 && (separators.length > 1 || decimals === 3)
    value = grouping
      ? value.replace(/[.,]/g, '')
      : `${value.slice(0, last).replace(/[.,]/g, '')}.${value.slice(last + 1)}`
  }
  if (!/^-?\d+(\.\d{1,2})?$/.test(value)) return null
  return Number(value)
}

/** A VAT number without spaces, dots or dashes, upper case: a country prefix then 2 to 13 letters or digits. */
export function parseVatNumber(text: string): string | null {
  const value = text.replace(/[\s.-]/g, '').toUpperCase()
  return /^[A-Z]{2}(?=[0-9A-Z]*\d)[0-9A-Z]{2,13}$/.test(value) ? value : null
}

/** An IBAN in its electronic form (no spaces, upper case) when its checksum holds. */
export function parseIban(text: string): string | null {
  const value = electronicFormatIBAN(text) ?? ''
  return isValidIBAN(value) ? value : null
}

/** What the user typed in a field, read as the value to save (a blank input clears the field). */
export function parseField(field: EditableField, text: string, language: Language): ParsedField {
  const value = text.trim()
  const shape = SHAPES[field]
  if (!value) return { ok: true, value: null }
  const read = <T extends FieldValue>(parsed: T | null, error: FieldErrorCode): ParsedField =>
    parsed === null ? { ok: false, error } : { ok: true, value: parsed }
  switch (shape) {
    case 'date':
      return read(parseDate(value, language), 'invalidDate')
    case 'amount':
      return read(parseAmount(value), 'invalidAmount')
    case 'iban':
      return read(parseIban(value), 'invalidIban')
    case 'vat':
      return read(parseVatNumber(value), 'invalidVatNumber')
    case 'currency':
      return read(/^[A-Za-z]{3}$/.test(value) ? value.toUpperCase() : null, 'invalidCurrency')
    case 'boolean':
      return { ok: true, value: value === 'true' }
    case 'text':
      return { ok: true, value }
    case 'address':
      // One line break per address line, whatever the platform typed.
      return { ok: true, value: value.replace(/\r\n?/g, '\n') }
  }
}

/** A stored value as the input shows it. */
export function fieldText(field: EditableField, value: unknown, language: Language): string {
  if (value === null || value === undefined) return ''
  const shape = SHAPES[field]
  if (shape === 'boolean') return value ? 'true' : 'false'
  if (shape === 'date' && typeof value === 'string') return formatDateInput(value, language)
  if (shape === 'amount') {
    const n = typeof value === 'number' ? value : Number(value)
    if (Number.isNaN(n)) return String(value)
    const fixed = n.toFixed(2)
    return language === 'fr' ? fixed.replace('.', ',') : fixed
  }
  return String(value)
}

/** The body of a correction: the changed fields' values. */
export type Correction = Partial<Record<EditableField, FieldValue>>

/** The PATCH body: the parsed value of each changed field; null when one of them cannot be read. */
export function correctionBody(
  changed: Partial<Record<EditableField, string>>,
  language: Language,
): Correction | null {
  const body: Correction = {}
  for (const [field, text] of Object.entries(changed) as [EditableField, string][]) {
    const parsed = parseField(field, text, language)
    if (!parsed.ok) return null
    body[field] = parsed.value
  }
  return body
}

const CURRENCY_SIGNS: Record<string, string> = { '€': 'EUR', $: 'USD', '£': 'GBP', '¥': 'JPY' }
const DATE_IN_TEXT = /(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2}))/

/** A page's date as ISO: the user's order first, the other when that one cannot be a date (31/12 in English). */
function pageDate(text: string, language: Language): string | null {
  const found = DATE_IN_TEXT.exec(text)?.[1]
  if (!found) return null
  return parseDate(found, language) ?? parseDate(found, language === 'fr' ? 'en' : 'fr')
}

/**
 * Text picked on a page (a word, or a few) as the field's input shows it: an amount without its
 * currency sign, a date in the user's order, an IBAN or VAT number without spaces, a currency sign
 * as its code. Text that does not read as the field's type is given as it is (the form then says why).
 */
export function fieldTextFromPage(field: EditableField, picked: string, language: Language): string {
  const text = picked.replace(/\s+/g, ' ').trim()
  switch (SHAPES[field]) {
    case 'amount': {
      const amount = parseAmount(text.replace(/[^\d.,\s\u00a0\u202f'-]/g, '').trim())
      return amount === null ? text : fieldText(field, amount, language)
    }
    case 'date': {
      const iso = pageDate(text, language)
      return iso ? fieldText(field, iso, language) : text
    }
    case 'iban':
      return parseIban(text) ?? text
    case 'vat':
      return parseVatNumber(text) ?? text
    case 'currency': {
      const code = /\b[A-Za-z]{3}\b/.exec(text)?.[0]
      const sign = [...text].find((c) => c in CURRENCY_SIGNS)
      return code?.toUpperCase() ?? (sign ? CURRENCY_SIGNS[sign]! : text)
    }
    default:
      return text
  }
}

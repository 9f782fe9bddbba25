/**
 * A user's corrections of an invoice or expense (`PATCH /api/invoices/{id}`,
 * `PATCH /api/expenses/{id}`): the body holds only the fields to change, as the API carries them
 * (ISO dates, amounts as numbers or numeric strings, `null` to clear). A value that is invalid on
 * its own (a date like 2024-13-45, an IBAN whose checksum fails, a VAT number of the wrong shape)
 * refuses the whole body; a field the kind does not have refuses it too; a `company_id` in the
 * body is ignored (the query names the company). This is the API contract only: the dialog's own
 * parsing of what a user types (decimal comma, spaces) turns it into these values first.
 */
import { electronicFormatIBAN, isValidIBAN } from 'ibantools'
import * as v from 'valibot'
import { noControlCharacters } from './common.ts'
import type { FinancialKind } from './documents.ts'
import { contractMessages } from './messages.ts'
import { FIELD_LIMITS, MAX_AMOUNT } from './text-rule.ts'

/** The English texts of a refused correction (the error body's `detail`). */
const correctionMessages = {
  dateInvalid: 'Must be a valid date (YYYY-MM-DD)',
  amountInvalid: 'Must be an amount (a number, at most 2 decimals, below one trillion)',
  ibanInvalid: 'The IBAN checksum is invalid',
  vatNumberShape: 'Must be a VAT number: two-letter country code, then 2 to 13 letters or digits',
  currencyInvalid: 'Must be a three-letter currency code',
  textTooLong: `Must be at most ${FIELD_LIMITS.business_name} characters`,
  numberTooLong: `Must be at most ${FIELD_LIMITS.invoice_number} characters`,
  notBoolean: 'Must be true or false',
} as const

/** `2024-02-29` yes, `2023-02-29` and `2024-13-45` no. */
export const isIsoDate = (s: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false
  const d = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s && s >= '1900-01-01'
}

/** An IBAN in its electronic form (upper case, no spaces). */
export const normaliseIban = (s: string): string =>
  electronicFormatIBAN(s) ?? s.replace(/\s+/g, '').toUpperCase()

/** A VAT number without spaces, dots or dashes, upper case. */
export const normaliseVatNumber = (s: string): string => s.replace(/[\s.-]+/g, '').toUpperCase()

const clearable = <T extends v.GenericSchema>(schema: T) => v.optional(v.nullable(schema))

/** Empty text clears the field, as null does. */
const emptyToNull = v.transform((s: string) => (s === '' ? null : s))

const Line = (max: number, message: string) =>
  v.pipe(v.string(), v.trim(), noControlCharacters(), v.maxLength(max, message), emptyToNull)
/** A line holds no control character (the shared check, run on its own). */
const isSingleLine = (line: string) => v.is(v.pipe(v.string(), noControlCharacters()), line)

/** An address may hold line breaks (one per address line), nothing else of the control range. */
const Address = v.pipe(
  v.string(),
  v.trim(),
  v.transform((s) => s.replace(/\r\n?/g, '\n')),
  v.check((s) => s.split('\n').every(isSingleLine), contractMessages.controlCharacters),
  v.maxLength(FIELD_LIMITS.business_address, correctionMessages.textTooLong),
  emptyToNull,
)
const IsoDate = v.pipe(v.string(), v.trim(), v.check(isIsoDate, correctionMessages.dateInvalid))
const Iban = v.pipe(
  v.string(),
  v.transform(normaliseIban),
  v.check(isValidIBAN, correctionMessages.ibanInvalid),
)
const VatNumber = v.pipe(
  v.string(),
  v.transform(normaliseVatNumber),
  v.regex(/^[A-Z]{2}[0-9A-Z]{2,13}$/, correctionMessages.vatNumberShape),
)
const Currency = v.pipe(
  v.string(),
  v.trim(),
  v.toUpperCase(),
  v.regex(/^[A-Z]{3}$/, correctionMessages.currencyInvalid),
)
/**
 * At most 2 decimals as written (trailing zeros aside): `1e-9`, `0.001` or `"1e3"` is refused,
 * never rounded into another amount. A number is judged by its shortest decimal form (`String`),
 * which is what the client typed for any amount of 2 decimals below one trillion.
 */
const TWO_DECIMALS = /^-?\d+(\.\d{1,2}0*)?$/
const isAmount = (n: number) => TWO_DECIMALS.test(String(n)) && Math.abs(n) < MAX_AMOUNT
const Amount = v.union(
  [
    v.pipe(v.number(), v.check(isAmount, correctionMessages.amountInvalid)),
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(TWO_DECIMALS, correctionMessages.amountInvalid),
      v.transform(Number),
      v.check(isAmount, correctionMessages.amountInvalid),
    ),
  ],
  correctionMessages.amountInvalid,
)

const shared = {
  business_name: clearable(Line(FIELD_LIMITS.business_name, correctionMessages.textTooLong)),
  business_address: clearable(Address),
  vat_number: clearable(VatNumber),
  currency: clearable(Currency),
  has_vat: clearable(v.boolean(correctionMessages.notBoolean)),
  total_charge_excluding_vat: clearable(Amount),
  total_vat_amount: clearable(Amount),
  total_invoice_including_vat: clearable(Amount),
  /** Ignored: the company is the query's. */
  company_id: v.optional(v.unknown()),
}

const withoutCompanyId = <T extends { company_id?: unknown }>({ company_id: _, ...rest }: T) => rest

export const InvoiceCorrection = v.pipe(
  v.strictObject({
    ...shared,
    invoice_number: clearable(Line(FIELD_LIMITS.invoice_number, correctionMessages.numberTooLong)),
    invoice_date: clearable(IsoDate),
    due_date: clearable(IsoDate),
    iban: clearable(Iban),
  }),
  v.transform(withoutCompanyId),
)
export type InvoiceCorrection = v.InferOutput<typeof InvoiceCorrection>

export const ExpenseCorrection = v.pipe(
  v.strictObject({ ...shared, expense_date: clearable(IsoDate) }),
  v.transform(withoutCompanyId),
)
export type ExpenseCorrection = v.InferOutput<typeof ExpenseCorrection>

/** Every field a correction of either kind may carry, as the API names it. */
export type CorrectionField = keyof InvoiceCorrection | keyof ExpenseCorrection

export const CORRECTION_SCHEMAS = {
  invoice: InvoiceCorrection,
  expense: ExpenseCorrection,
} as const satisfies {
  [K in FinancialKind]: v.GenericSchema
}

/** One change of `GET /api/{invoices|expenses}/{id}/history`, the newest first. */
export const DocumentChange = v.object({
  field: v.string(),
  old_value: v.nullable(v.string()),
  new_value: v.nullable(v.string()),
  user: v.nullable(v.object({ id: v.number(), email: v.string() })),
  at: v.string(),
})
export type DocumentChange = v.InferOutput<typeof DocumentChange>

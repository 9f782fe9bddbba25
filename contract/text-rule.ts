/**
 * The one text rule of every door a value comes in by: what a user types (corrections, names,
 * the dashboard's own rows) is refused when it breaks it, and what is read from a document or a
 * mail (file names, e-invoice XML, the text layer, a message's subject, sender and Message-ID) is
 * cleaned of the characters it forbids. Together with the stored fields' length limits below, what
 * is stored is what a screen, a CSV file and the database can show and hold.
 */

/**
 * The characters no single-line text may hold: C0 and C1 controls and DEL (`\p{Cc}`, NUL
 * included, which PostgreSQL cannot store; tab and line breaks too), the bidirectional marks,
 * embeddings, overrides and isolates (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069:
 * with them `inv\u202Efdp.exe` shows as `invexe.pdf`), the line and paragraph separators
 * (U+2028, U+2029), invisible format characters (zero-width space U+200B, word joiner and
 * invisible operators U+2060–U+2064, the deprecated format characters U+206A–U+206F, the
 * byte-order mark U+FEFF, the interlinear annotation marks U+FFF9–U+FFFB) and a surrogate that
 * is not half of a pair (no character at all: UTF-8 cannot encode it, JSON in PostgreSQL refuses
 * it). The zero-width joiners (U+200C, U+200D) stay: some scripts and emoji need them.
 */
const UNSAFE =
  /[\p{Cc}\u061C\u200B\u200E\u200F\u2028\u2029\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB\uD800-\uDFFF]/u
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'gu')

/** True when the text holds a character of the rule (refused in what a user types). */
export const hasUnsafeCharacter = (text: string): boolean => UNSAFE.test(text)

/**
 * A text read from a document or a mail, for storing and display: NFC (a decomposed name is found
 * by the same search), without the rule's characters, trimmed, cut to `max` code points (never
 * inside a surrogate pair); `fallback` when nothing is left.
 */
export function cleanText(text: string, options: { max?: number; fallback?: string } = {}): string {
  const clean = text.replace(UNSAFE_ALL, '').normalize('NFC').trim() || (options.fallback ?? '')
  if (options.max === undefined || clean.length <= options.max) return clean
  return Array.from(clean).slice(0, options.max).join('')
}

/** A text of several lines (an address, payment terms): each line cleaned, empty ones dropped. */
export const cleanLines = (text: string): string =>
  text
    .split(/\r\n?|\n/)
    .map((line) => cleanText(line))
    .filter(Boolean)
    .join('\n')

/**
 * The longest value each stored text field of an invoice or expense holds, in characters, whatever
 * wrote it (a user's correction, the e-invoice XML, the text layer, OCR). The codes (VAT number,
 * IBAN, currency) have a shape of their own, which corrections check and quality reports; their
 * limit only keeps what no valid code can be out of the database.
 */
export const FIELD_LIMITS = {
  invoice_number: 100,
  business_name: 500,
  business_address: 500,
  vat_number: 100,
  iban: 100,
  currency: 100,
} as const
export type LimitedField = keyof typeof FIELD_LIMITS

/** Amounts are stored with 2 decimals below one trillion (`numeric(14, 2)`). */
export const MAX_AMOUNT = 1e12

/** The longest file name (uploaded or attached) and mail header texts kept, in characters. */
export const TEXT_LIMITS = { fileName: 255, subject: 255, sender: 254, messageId: 998 } as const

/**
 * The document kinds' user-facing labels, as Lingui messages (the French comes from the
 * catalogue). Browser only: the macros are compiled by the app's build, not by the server.
 */
import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { type DocumentCategory, FINANCIAL_KIND, type FinancialKind, type LogType } from './documents.ts'

/** An invoice or expense group: the upload dialog's tab, the upload queue's category. */
const FINANCIAL_KIND_GROUP_LABEL: { readonly [K in FinancialKind]: MessageDescriptor } = {
  invoice: msg`Invoices`,
  expense: msg`Expenses`,
}

/** A dashboard row's type. */
export const LOG_TYPE_LABEL: { readonly [T in LogType]: MessageDescriptor } = {
  Invoice: msg`Invoice`,
  Expense: msg`Expense`,
  Document: msg`Document`,
}

/** A document store category in the interface's language (the stored values stay as they are). */
export const DOCUMENT_CATEGORY_LABEL: { readonly [C in DocumentCategory]: MessageDescriptor } = {
  Administration: msg`Administration`,
  Assurances: msg`Insurance`,
  'Contrats Banques': msg`Bank contracts`,
  Comptabilité: msg`Accounting`,
  RH: msg`HR`,
  Juridique: msg`Legal`,
  Tax: msg`Tax`,
  Justificatifs: msg`Receipts`,
  Autres: msg`Other`,
}

const isDocumentCategory = (value: string): value is DocumentCategory =>
  Object.hasOwn(DOCUMENT_CATEGORY_LABEL, value)

/**
 * The label of an upload's tab (`invoices`, `expenses`) or category (`Invoices`, `Expenses`):
 * the kind's translated group; a document store category is its translated name.
 */
export function groupLabel(i18n: I18n, value: string): string {
  for (const kind of ['invoice', 'expense'] as const) {
    const { plural, category } = FINANCIAL_KIND[kind]
    if (value === plural || value === category) return i18n._(FINANCIAL_KIND_GROUP_LABEL[kind])
  }
  return isDocumentCategory(value) ? i18n._(DOCUMENT_CATEGORY_LABEL[value]) : value
}

/** Dates and amounts of the detail dialog, in the user's language. */
import { i18n } from '../../i18n'

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—'
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value)
  if (Number.isNaN(date.getTime())) return value
  return new Intl.DateTimeFormat(i18n.locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(date)
}

export function formatAmount(
  value: number | string | null | undefined,
  currency: string | null | undefined,
): string {
  if (value === null || value === undefined || value === '') return '—'
  const n = typeof value === 'number' ? value : Number(value)
  if (Number.isNaN(n)) return String(value)
  if (currency) {
    try {
      return new Intl.NumberFormat(i18n.locale, { style: 'currency', currency }).format(n)
    } catch {
      // Not an ISO currency code: the number, then the code as the server wrote it.
    }
  }
  const number = new Intl.NumberFormat(i18n.locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(n)
  return currency ? `${number} ${currency}` : number
}

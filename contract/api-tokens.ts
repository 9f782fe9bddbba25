/**
 * Personal API tokens: the create call's input, its one-time answer (the only place the token is
 * shown) and the listing, which never carries the token. A token lives at most a year.
 */
import * as v from 'valibot'
import { Id, noControlCharacters } from './common.ts'

export const API_TOKEN_NAME_MAX = 100

/**
 * The tokens' own messages (English, as the API answers them). They stay out of `contractMessages`,
 * which travels in the browser's first chunk: the settings section translates them in its own chunk.
 */
export const apiTokenMessages = {
  nameRequired: 'Token name is required',
  nameTooLong: 'Token name must be at most 100 characters',
  expiryInvalid: 'Expiry must be an ISO date',
  limit: 'Too many API tokens: revoke one first',
  notFound: 'API token not found',
} as const

export const ApiTokenName = v.pipe(
  v.string(apiTokenMessages.nameRequired),
  v.trim(),
  noControlCharacters(),
  v.minLength(1, apiTokenMessages.nameRequired),
  v.maxLength(API_TOKEN_NAME_MAX, apiTokenMessages.nameTooLong),
)

/** `YYYY-MM-DD` (midnight UTC, the start of that day) or a date and time with its offset. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/

/** A date the calendar has (JavaScript reads 2026-02-30 as 2 March). */
function isIsoDate(text: string): boolean {
  if (!ISO_DATE.test(text)) return false
  const time = Date.parse(text)
  if (Number.isNaN(time)) return false
  const [year, month, day] = text.slice(0, 10).split('-').map(Number)
  const date = new Date(Date.UTC(year!, month! - 1, day!))
  return date.getUTCMonth() === month! - 1 && date.getUTCDate() === day
}

const ApiTokenExpiry = v.pipe(
  v.string(apiTokenMessages.expiryInvalid),
  v.trim(),
  v.check(isIsoDate, apiTokenMessages.expiryInvalid),
  v.transform((s) => new Date(s)),
)

export const CreateApiTokenInput = v.object({
  name: ApiTokenName,
  expires_at: v.optional(ApiTokenExpiry),
})
export type CreateApiTokenInput = v.InferInput<typeof CreateApiTokenInput>

/** The longest life of a token: the same date and time a year on. */
export function latestApiTokenExpiry(now: Date): Date {
  const latest = new Date(now)
  latest.setUTCFullYear(latest.getUTCFullYear() + 1)
  return latest
}

/**
 * Why an expiry is refused now, or null when it is in the future and within a year. Only scripts
 * send an expiry (the browser offers lives of 7 days to a year), so these texts stay in English.
 */
export function apiTokenExpiryProblem(expiresAt: Date, now: Date): string | null {
  if (expiresAt.getTime() <= now.getTime()) return 'Expiry must be in the future'
  if (expiresAt.getTime() > latestApiTokenExpiry(now).getTime()) return 'Expiry must be at most one year away'
  return null
}

/** The answer of a creation: the token itself, shown this once. */
export const CreatedApiToken = v.object({
  id: Id,
  name: v.string(),
  token: v.string(),
  expires_at: v.string(),
})
export type CreatedApiToken = v.InferOutput<typeof CreatedApiToken>

export const ApiTokenSummary = v.object({
  id: Id,
  name: v.string(),
  created_at: v.string(),
  expires_at: v.string(),
  last_used_at: v.nullable(v.string()),
})
export type ApiTokenSummary = v.InferOutput<typeof ApiTokenSummary>

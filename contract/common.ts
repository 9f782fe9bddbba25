/**
 * What every part of the contract builds on: ids, single-line texts, dates, e-mails, the password
 * rules, the languages and roles, and the error body. Messages are the specification's English
 * texts; the UI translates them, the server returns them in the error `detail`.
 */
import * as v from 'valibot'
import { contractMessages } from './messages.ts'
import { hasUnsafeCharacter } from './text-rule.ts'

export const LANGUAGES = ['en', 'fr'] as const
export type Language = (typeof LANGUAGES)[number]

export const GLOBAL_ROLES = ['SAAS_ADMIN', 'INTERNAL_USER', 'CLIENT_USER'] as const
export type GlobalRole = (typeof GLOBAL_ROLES)[number]
/** A platform administrator: manages every company and user, and belongs to all companies. */
export const isPlatformAdmin = (user: { role: GlobalRole } | null | undefined): boolean =>
  user?.role === 'SAAS_ADMIN'
export const COMPANY_ROLES = ['COMPANY_ADMIN', 'COMPANY_USER'] as const
export type CompanyRole = (typeof COMPANY_ROLES)[number]

export const Id = v.pipe(v.number(), v.integer(), v.minValue(1))
/** The largest id: ids are PostgreSQL `integer` (int4) columns, so a larger value cannot exist. */
export const MAX_ID = 2_147_483_647
/** A positive integer id that arrives as a path or query string, within the int4 range of the columns. */
export const IdParam = v.pipe(
  v.string(),
  v.regex(/^[1-9]\d{0,9}$/, 'Invalid id'),
  v.transform(Number),
  v.maxValue(MAX_ID, 'Invalid id'),
)

const CONTROL_CHARACTERS_MESSAGE: string = contractMessages.controlCharacters

/**
 * The check every text input goes through (after `trim`, so a pasted trailing line break is
 * harmless): the text rule's characters (controls, bidirectional marks, invisible format
 * characters, lone surrogates) are refused, never stripped, so what is stored is what the user
 * typed. Every text the app takes is a single line (names, links, codes, search terms).
 */
export const noControlCharacters = (message = CONTROL_CHARACTERS_MESSAGE) =>
  v.check((s: string) => !hasUnsafeCharacter(s), message)

/** A single-line text of at most `max` characters, trimmed, without control characters. */
export const Text = (max: number, message = `Must be at most ${max} characters`) =>
  v.pipe(v.string(), v.trim(), noControlCharacters(), v.maxLength(max, message))

/** Dates the app accepts as filters: four-digit years from 1900, inside what PostgreSQL and JavaScript hold. */
const DATE_RANGE = { min: '1900-01-01', max: '9999-12-31' } as const
const DATE_MIN_MS = Date.parse(`${DATE_RANGE.min}T00:00:00.000Z`)
const DATE_MAX_MS = Date.parse(`${DATE_RANGE.max}T23:59:59.999Z`)

/** An ISO date (or date and time) given as text, from 1900-01-01 to 9999-12-31. */
export const DateInput = (field: string) =>
  v.pipe(
    v.string(),
    v.check((s) => !Number.isNaN(Date.parse(s)), `${field} must be an ISO date`),
    v.transform((s) => new Date(s)),
    v.check(
      (d) => d.getTime() >= DATE_MIN_MS && d.getTime() <= DATE_MAX_MS,
      `${field} must be between ${DATE_RANGE.min} and ${DATE_RANGE.max}`,
    ),
  )

export const Email = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.email(contractMessages.emailInvalid),
  v.maxLength(254, contractMessages.emailInvalid),
)

/** The specification's password rules (change, activation, reset, first administrator). */
export const NewPassword = v.pipe(
  v.string(),
  v.minLength(8, contractMessages.passwordTooShort),
  v.maxLength(128, contractMessages.passwordOver128),
  v.regex(/[A-Z]/, contractMessages.passwordNeedsUppercase),
  v.regex(/[a-z]/, contractMessages.passwordNeedsLowercase),
  v.regex(/[0-9]/, contractMessages.passwordNeedsNumber),
  noControlCharacters(),
)

/** A person's name or surname: 2 to 100 characters, trimmed, single-line. */
export const PersonName = (message: string) =>
  v.pipe(v.string(), v.trim(), v.minLength(2, message), v.maxLength(100, message), noControlCharacters())

export const MessageResult = v.object({ message: v.string() })
export type MessageResult = v.InferOutput<typeof MessageResult>

/** The contract's error body: `{message, detail?}`; `detail` lists fields for 400. */
export const ErrorBody = v.object({ message: v.string(), detail: v.optional(v.unknown()) })
export type ErrorBody = v.InferOutput<typeof ErrorBody>

/** One entry of the error body's `detail` that names a field: what is wrong with it. */
export const FieldIssue = v.object({ field: v.string(), message: v.string() })
export type FieldIssue = v.InferOutput<typeof FieldIssue>

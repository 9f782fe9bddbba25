/**
 * Valibot schemas shared by the browser app and the server: the single definition of every
 * payload and entity. Messages are the specification's English texts; the UI translates them
 * through `ui/i18n/validation-messages.ts`, the server returns them in the error `detail`.
 */
import * as v from 'valibot'

export const LANGUAGES = ['en', 'fr'] as const
export type Language = (typeof LANGUAGES)[number]

export const GLOBAL_ROLES = ['SAAS_ADMIN', 'INTERNAL_USER', 'CLIENT_USER'] as const
export type GlobalRole = (typeof GLOBAL_ROLES)[number]
export const COMPANY_ROLES = ['COMPANY_ADMIN', 'COMPANY_USER'] as const
export type CompanyRole = (typeof COMPANY_ROLES)[number]

export const Id = v.pipe(v.number(), v.integer(), v.minValue(1))
/** A positive integer id that arrives as a path or query string. */
export const IdParam = v.pipe(v.string(), v.regex(/^[1-9]\d{0,9}$/, 'Invalid id'), v.transform(Number))

export const Email = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.email('Please enter a valid email address'),
  v.maxLength(254, 'Please enter a valid email address'),
)

const RequiredPassword = v.pipe(
  v.string('Password is required'),
  v.minLength(1, 'Password is required'),
  v.maxLength(1024, 'Password is too long'),
)

/** The specification's password rules (change, activation, reset, first administrator). */
export const NewPassword = v.pipe(
  v.string(),
  v.minLength(8, 'Password must be at least 8 characters'),
  v.maxLength(128, 'Password must be at most 128 characters'),
  v.regex(/[A-Z]/, 'Password must contain at least one uppercase letter'),
  v.regex(/[a-z]/, 'Password must contain at least one lowercase letter'),
  v.regex(/[0-9]/, 'Password must contain at least one number'),
)

const PersonName = (message: string) =>
  v.pipe(v.string(), v.trim(), v.minLength(2, message), v.maxLength(100, message))

export const LoginInput = v.object({ email: Email, password: RequiredPassword })
export type LoginInput = v.InferOutput<typeof LoginInput>

export const LoginResult = v.object({ requires_2fa: v.boolean(), should_setup_2fa: v.boolean() })
export type LoginResult = v.InferOutput<typeof LoginResult>

export const CreateFirstAdminInput = v.object({
  email: Email,
  name: PersonName('Name must be at least 2 characters'),
  surname: PersonName('Surname must be at least 2 characters'),
  password: NewPassword,
})
export type CreateFirstAdminInput = v.InferOutput<typeof CreateFirstAdminInput>

export const SetupStatus = v.object({ needs_first_admin: v.boolean() })
export type SetupStatus = v.InferOutput<typeof SetupStatus>

export const UserCompany = v.object({
  company_id: Id,
  company_name: v.string(),
  role: v.picklist(COMPANY_ROLES),
})
export type UserCompany = v.InferOutput<typeof UserCompany>

export const User = v.object({
  id: Id,
  email: v.string(),
  name: v.string(),
  surname: v.string(),
  role: v.picklist(GLOBAL_ROLES),
  validated: v.boolean(),
  enabled: v.boolean(),
  is_2fa_enabled: v.boolean(),
  company_id: v.nullable(Id),
  company_role: v.nullable(v.picklist(COMPANY_ROLES)),
  companies: v.array(UserCompany),
})
export type User = v.InferOutput<typeof User>

export const UserSettings = v.object({ language: v.picklist(LANGUAGES) })
export type UserSettings = v.InferOutput<typeof UserSettings>

export const MessageResult = v.object({ message: v.string() })
export type MessageResult = v.InferOutput<typeof MessageResult>

export const Health = v.object({ status: v.literal('ok') })

/** The contract's error body: `{message, detail?}`; `detail` lists fields for 400. */
export const ErrorBody = v.object({ message: v.string(), detail: v.optional(v.unknown()) })
export type ErrorBody = v.InferOutput<typeof ErrorBody>

export type FieldIssue = { field: string; message: string }

// Account security (two-factor, activation, password reset and change).

const TwoFactorCode = (message: string) =>
  v.pipe(v.string(message), v.trim(), v.minLength(6, message), v.maxLength(64, 'Code is too long'))
const OptionalSecret = v.optional(v.pipe(v.string(), v.maxLength(1024, 'Password is too long')), '')
/** An e-mailed link's token: its format is checked by the server, never described to the caller. */
const LinkToken = v.pipe(
  v.string('Invalid token'),
  v.minLength(1, 'Invalid token'),
  v.maxLength(256, 'Invalid token'),
)

/** `POST /auth/complete-2fa-login`: password and a TOTP code (or a backup code). */
export const Complete2faInput = v.object({
  email: Email,
  password: RequiredPassword,
  token: TwoFactorCode('Code must be at least 6 characters'),
  use_backup_code: v.optional(v.boolean(), false),
})
export type Complete2faInput = v.InferOutput<typeof Complete2faInput>

/** `POST /auth/generate-2fa`: the signed-in user's own e-mail. */
export const Generate2faInput = v.object({ email: Email })
export type Generate2faInput = v.InferOutput<typeof Generate2faInput>

/** The `X-Backup-Codes` header of `generate-2fa`, parsed as JSON. */
export const BackupCodes = v.array(v.string())

/** `POST /auth/verify-2fa`: a code from the pending secret (the password may be empty). */
export const Verify2faInput = v.object({
  email: v.optional(Email),
  password: OptionalSecret,
  token: TwoFactorCode('Token must be at least 6 characters'),
  use_backup_code: v.optional(v.boolean(), false),
})
export type Verify2faInput = v.InferOutput<typeof Verify2faInput>

/** `POST /auth/disable-2fa`: the current password, or a current code (TOTP or backup). */
export const Disable2faInput = v.object({
  password: OptionalSecret,
  token: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(64, 'Code is too long')), ''),
  use_backup_code: v.optional(v.boolean(), false),
})
export type Disable2faInput = v.InferOutput<typeof Disable2faInput>

/** `POST /auth/validate-mail`: activation of an invited account. */
export const ValidateMailInput = v.object({
  email: Email,
  validation_token: LinkToken,
  password: NewPassword,
})
export type ValidateMailInput = v.InferOutput<typeof ValidateMailInput>

export const ResetRequestInput = v.object({ email: Email })
export type ResetRequestInput = v.InferOutput<typeof ResetRequestInput>

export const ResetConfirmInput = v.object({ email: Email, token: LinkToken, new_password: NewPassword })
export type ResetConfirmInput = v.InferOutput<typeof ResetConfirmInput>

export const ChangePasswordInput = v.object({
  current_password: v.pipe(
    v.string('Current password is required'),
    v.minLength(1, 'Current password is required'),
    v.maxLength(1024, 'Password is too long'),
  ),
  new_password: NewPassword,
})
export type ChangePasswordInput = v.InferOutput<typeof ChangePasswordInput>

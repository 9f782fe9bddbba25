/**
 * Accounts: sign-in, the first administrator, the signed-in user and their settings, two-factor
 * authentication, activation of an invited account, password reset and change.
 */
import * as v from 'valibot'
import {
  COMPANY_ROLES,
  Email,
  GLOBAL_ROLES,
  Id,
  LANGUAGES,
  NewPassword,
  noControlCharacters,
  PersonName,
} from './common.ts'
import { contractMessages } from './messages.ts'

const RequiredPassword = v.pipe(
  v.string(contractMessages.passwordRequired),
  v.minLength(1, contractMessages.passwordRequired),
  v.maxLength(1024, contractMessages.passwordTooLong),
)

export const LoginInput = v.object({ email: Email, password: RequiredPassword })
export type LoginInput = v.InferOutput<typeof LoginInput>

export const LoginResult = v.object({ requires_2fa: v.boolean(), should_setup_2fa: v.boolean() })
export type LoginResult = v.InferOutput<typeof LoginResult>

export const CreateFirstAdminInput = v.object({
  email: Email,
  name: PersonName(contractMessages.nameTooShort),
  surname: PersonName(contractMessages.surnameTooShort),
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

/** The fields every listing of a user carries (signed-in user, company members, administration). */
export const userEntries = {
  id: Id,
  email: v.string(),
  name: v.string(),
  surname: v.string(),
  role: v.picklist(GLOBAL_ROLES),
  validated: v.boolean(),
  enabled: v.boolean(),
  is_2fa_enabled: v.boolean(),
}

export const User = v.object({
  ...userEntries,
  company_id: v.nullable(Id),
  company_role: v.nullable(v.picklist(COMPANY_ROLES)),
  companies: v.array(UserCompany),
  /** Sign-in advises setting up 2FA (while it is off); skipping the advice turns it off. */
  two_factor_advice: v.boolean(),
})
export type User = v.InferOutput<typeof User>

/** The signed-in user, or null: what the public session check answers (200 either way). */
export const SessionAnswer = v.object({ user: v.nullable(User) })
export type SessionAnswer = v.InferOutput<typeof SessionAnswer>

export const UserSettings = v.object({ language: v.picklist(LANGUAGES) })
export type UserSettings = v.InferOutput<typeof UserSettings>

/** PUT /settings/two-factor-advice: whether sign-in advises setting up 2FA. */
export const TwoFactorAdvice = v.object({ advice: v.boolean('Must be true or false') })
export type TwoFactorAdvice = v.InferOutput<typeof TwoFactorAdvice>

// Account security (two-factor, activation, password reset and change).

/**
 * A TOTP (6 digits) or backup code as typed: 6 to 64 characters once trimmed. The one rule of its
 * length, for the payloads below and the forms that check a code before sending it.
 */
export const TypedCode = (message: string, tooLong = message) =>
  v.pipe(v.string(message), v.trim(), v.minLength(6, message), v.maxLength(64, tooLong))
const TwoFactorCode = (message: string) =>
  v.pipe(TypedCode(message, 'Code is too long'), noControlCharacters())
/** The sign-in's second step (a TOTP or backup code), as the form checks it. */
export const SecondFactorCode = v.object({ token: TypedCode(contractMessages.codeTooShort) })
/** The 2FA setup's code from the authenticator, as the form checks it. */
export const SetupTokenForm = v.object({ token: TypedCode(contractMessages.tokenTooShort) })
const OptionalSecret = v.optional(v.pipe(v.string(), v.maxLength(1024, contractMessages.passwordTooLong)), '')
/** An e-mailed link's token: its format is checked by the server, never described to the caller. */
const LinkToken = v.pipe(
  v.string('Invalid token'),
  v.minLength(1, 'Invalid token'),
  v.maxLength(256, 'Invalid token'),
  noControlCharacters('Invalid token'),
)

/** `POST /auth/complete-2fa-login`: password and a TOTP code (or a backup code). */
export const Complete2faInput = v.object({
  email: Email,
  password: RequiredPassword,
  token: TwoFactorCode(contractMessages.codeTooShort),
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
  token: TwoFactorCode(contractMessages.tokenTooShort),
  use_backup_code: v.optional(v.boolean(), false),
})
export type Verify2faInput = v.InferOutput<typeof Verify2faInput>

/** `POST /auth/disable-2fa`: the current password, or a current code (TOTP or backup). */
export const Disable2faInput = v.object({
  password: OptionalSecret,
  token: v.optional(
    v.pipe(v.string(), v.trim(), v.maxLength(64, 'Code is too long'), noControlCharacters()),
    '',
  ),
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
    v.string(contractMessages.currentPasswordRequired),
    v.minLength(1, contractMessages.currentPasswordRequired),
    v.maxLength(1024, contractMessages.passwordTooLong),
  ),
  new_password: NewPassword,
})
export type ChangePasswordInput = v.InferOutput<typeof ChangePasswordInput>

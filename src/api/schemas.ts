/**
 * Valibot schemas shared by the browser app and the server: the single definition of every
 * payload and entity. Messages are the specification's English texts; the UI translates them
 * through `ui/messages.ts`, the server returns them in the error `detail`.
 */
import * as v from 'valibot'

export const LANGUAGES = ['en', 'fr'] as const
export type Language = (typeof LANGUAGES)[number]

export const GLOBAL_ROLES = ['SAAS_ADMIN', 'INTERNAL_USER', 'CLIENT_USER'] as const
export type GlobalRole = (typeof GLOBAL_ROLES)[number]
export const COMPANY_ROLES = ['COMPANY_ADMIN', 'COMPANY_USER'] as const
export type CompanyRole = (typeof COMPANY_ROLES)[number]

/** Spec 02 §3: the nine fixed document categories (some names are French); the first is the default. */
export const DOCUMENT_CATEGORIES = [
  'Administration',
  'Assurances',
  'Contrats Banques',
  'Comptabilité',
  'RH',
  'Juridique',
  'Tax',
  'Justificatifs',
  'Autres',
] as const
export type DocumentCategory = (typeof DOCUMENT_CATEGORIES)[number]

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

export const CONTROL_CHARACTERS_MESSAGE = 'Must not contain control characters'

/**
 * True when the text holds a C0 control character (U+0000–U+001F, tab and line breaks included),
 * DEL, a C1 control character (U+0080–U+009F) or a bidirectional embedding, override or isolate
 * mark (U+202A–U+202E, U+2066–U+2069). PostgreSQL cannot store NUL in a text at all; the others
 * only hide text, break lines where none belong, or reorder what is displayed around them
 * (`Acme\u202Etcartnoc` shows as `Acmecontract`): every text the app takes is a single line
 * (names, links, codes, search terms). Refused, never stripped, so what is stored is what the
 * user typed.
 */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true
    if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return true
  }
  return false
}

/** The check every text input goes through (after `trim`, so a pasted trailing line break is harmless). */
export const noControlCharacters = (message = CONTROL_CHARACTERS_MESSAGE) =>
  v.check((s: string) => !hasControlCharacter(s), message)

/** A single-line text of at most `max` characters, trimmed, without control characters. */
export const Text = (max: number, message = `Must be at most ${max} characters`) =>
  v.pipe(v.string(), v.trim(), noControlCharacters(), v.maxLength(max, message))

/** Dates the app accepts as filters: four-digit years from 1900, inside what PostgreSQL and JavaScript hold. */
export const DATE_RANGE = { min: '1900-01-01', max: '9999-12-31' } as const
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
  noControlCharacters(),
)

const PersonName = (message: string) =>
  v.pipe(v.string(), v.trim(), v.minLength(2, message), v.maxLength(100, message), noControlCharacters())

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
  v.pipe(
    v.string(message),
    v.trim(),
    v.minLength(6, message),
    v.maxLength(64, 'Code is too long'),
    noControlCharacters(),
  )
const OptionalSecret = v.optional(v.pipe(v.string(), v.maxLength(1024, 'Password is too long')), '')
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
    v.string('Current password is required'),
    v.minLength(1, 'Current password is required'),
    v.maxLength(1024, 'Password is too long'),
  ),
  new_password: NewPassword,
})
export type ChangePasswordInput = v.InferOutput<typeof ChangePasswordInput>

// Administration and company context: companies, users, memberships.

const NAME_MESSAGE = 'Name must be at least 2 characters'
const EMAIL_MESSAGE = 'Invalid email address'
const ROLE_MESSAGE = 'Role is required'
const LINK_MESSAGE = 'Must be an http:// or https:// address'

/**
 * A required field whose absence reports the field's own message (valibot reports a missing
 * key with the object's generic message otherwise): a missing key is read as null.
 */
const present = <TSchema extends v.GenericSchema>(schema: TSchema) =>
  v.pipe(v.optional(v.unknown(), null), schema)

/** An e-mail typed by an administrator (invite, add to company): the spec's 'Invalid email address'. */
export const AdminEmail = v.pipe(
  v.string(EMAIL_MESSAGE),
  v.trim(),
  v.toLowerCase(),
  v.email(EMAIL_MESSAGE),
  v.maxLength(254, EMAIL_MESSAGE),
)

/** An optional text field: absent stays absent (unchanged), '' and null mean "no value". */
const Blankable = <TSchema extends v.GenericSchema<string, string>>(schema: TSchema, message: string) =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string(message),
        v.trim(),
        v.transform((s): string | null => (s === '' ? null : s)),
        v.nullable(schema),
      ),
    ),
  )

export const CompanyName = v.pipe(
  v.string(NAME_MESSAGE),
  v.trim(),
  v.minLength(2, NAME_MESSAGE),
  v.maxLength(200, 'Name must be at most 200 characters'),
  noControlCharacters(),
)

/** An external link (Power BI, Monday): http(s) only, so no `javascript:` ever reaches an href. */
export const ExternalLink = v.pipe(
  v.string(LINK_MESSAGE),
  v.maxLength(2048, 'Link is too long'),
  noControlCharacters(),
  v.url(LINK_MESSAGE),
  v.check((s) => /^https?:\/\//i.test(s), LINK_MESSAGE),
)

/** `POST /admin/company`. */
export const CreateCompanyInput = v.object({ name: present(CompanyName) })
export type CreateCompanyInput = v.InferOutput<typeof CreateCompanyInput>

/** `PUT /admin/company/{id}`: absent fields stay as they are; '' or null clears an optional one. */
export const UpdateCompanyInput = v.object({
  name: v.optional(CompanyName),
  invoice_scanner: Blankable(AdminEmail, EMAIL_MESSAGE),
  expense_scanner: Blankable(AdminEmail, EMAIL_MESSAGE),
  monday_link: Blankable(ExternalLink, LINK_MESSAGE),
  powerbi_link: Blankable(ExternalLink, LINK_MESSAGE),
})
export type UpdateCompanyInput = v.InferOutput<typeof UpdateCompanyInput>

/** `POST /admin/company/{id}/status` and the `enabled` of `POST /admin/user/status`. */
export const CompanyStatusInput = v.object({ enabled: present(v.boolean('Enabled must be true or false')) })
export type CompanyStatusInput = v.InferOutput<typeof CompanyStatusInput>

export const CompanyRoleInput = v.picklist(COMPANY_ROLES, ROLE_MESSAGE)
export const GlobalRoleInput = v.picklist(GLOBAL_ROLES, ROLE_MESSAGE)

/** A company id as JSON: a positive integer (a numeric string is accepted too). */
export const CompanyIdInput = v.pipe(
  v.union([v.number(), v.string()], 'Company ID is required'),
  v.check((x) => x !== '', 'Company ID is required'),
  v.transform((x) => (typeof x === 'string' && /^[1-9]\d{0,9}$/.test(x) ? Number(x) : x)),
  v.number('Invalid company id'),
  v.integer('Invalid company id'),
  v.minValue(1, 'Invalid company id'),
  v.maxValue(MAX_ID, 'Invalid company id'),
)

/**
 * `POST /admin/invite-user/`, both readings of the contract: `{email, name, surname, role,
 * companies: [{company_id, role}]}` and `{email, name, surname, company_id}`. Without `role`,
 * the single-company reading invites a CLIENT_USER; the list reading needs the role.
 */
export const InviteUserInput = v.pipe(
  v.object({
    email: present(AdminEmail),
    name: present(PersonName(NAME_MESSAGE)),
    surname: present(PersonName('Surname must be at least 2 characters')),
    role: v.optional(GlobalRoleInput),
    company_id: v.optional(v.nullable(CompanyIdInput)),
    company_role: v.optional(CompanyRoleInput),
    companies: v.optional(
      v.pipe(
        v.array(v.object({ company_id: CompanyIdInput, role: CompanyRoleInput })),
        v.maxLength(500, 'Too many companies'),
      ),
    ),
  }),
  v.forward(
    v.check(
      (input) => input.role !== undefined || (input.company_id != null && input.companies === undefined),
      ROLE_MESSAGE,
    ),
    ['role'],
  ),
  v.forward(
    v.check((input) => {
      const ids = [
        ...(input.company_id != null ? [input.company_id] : []),
        ...(input.companies ?? []).map((c) => c.company_id),
      ]
      return new Set(ids).size === ids.length
    }, 'company already added'),
    ['companies'],
  ),
)
export type InviteUserInput = v.InferOutput<typeof InviteUserInput>

/** `POST /admin/user/status`. */
export const UserStatusInput = v.object({
  user_email: present(AdminEmail),
  enabled: present(v.boolean('Enabled must be true or false')),
})
export type UserStatusInput = v.InferOutput<typeof UserStatusInput>

/** `PUT /admin/user/{id}`: absent fields stay as they are. */
export const UpdateUserInput = v.object({
  name: v.optional(PersonName(NAME_MESSAGE)),
  surname: v.optional(PersonName('Surname must be at least 2 characters')),
  role: v.optional(GlobalRoleInput),
  enabled: v.optional(v.boolean('Enabled must be true or false')),
})
export type UpdateUserInput = v.InferOutput<typeof UpdateUserInput>

const SELECT_USER = 'Please select a user'
/** `POST /admin/user-company`: an existing user (by e-mail), a company and a company role. */
// One message for an empty and for a malformed value: the pipe stops at the first failure.
const SelectedUser = v.config(
  v.pipe(
    v.string(SELECT_USER),
    v.trim(),
    v.toLowerCase(),
    v.minLength(1, SELECT_USER),
    v.email(SELECT_USER),
    v.maxLength(254, SELECT_USER),
  ),
  { abortPipeEarly: true },
)
export const UserCompanyInput = v.object({
  user_email: present(SelectedUser),
  company_id: present(CompanyIdInput),
  role: present(CompanyRoleInput),
})
export type UserCompanyInput = v.InferOutput<typeof UserCompanyInput>

/** `DELETE /admin/user-company?user_email=&company_id=`. */
export const RemoveUserCompanyInput = v.object({
  user_email: present(SelectedUser),
  company_id: present(CompanyIdInput),
})
export type RemoveUserCompanyInput = v.InferOutput<typeof RemoveUserCompanyInput>

/** A member as listed with a company: the user's fields plus their role in that company. */
export const CompanyUser = v.object({
  id: Id,
  email: v.string(),
  name: v.string(),
  surname: v.string(),
  role: v.picklist(GLOBAL_ROLES),
  enabled: v.boolean(),
  validated: v.boolean(),
  is_2fa_enabled: v.boolean(),
  company_role: v.picklist(COMPANY_ROLES),
})
export type CompanyUser = v.InferOutput<typeof CompanyUser>

/** A company as the administration sees it (`GET /admin/company…`). */
export const Company = v.object({
  id: Id,
  name: v.string(),
  enabled: v.boolean(),
  invoice_scanner: v.nullable(v.string()),
  expense_scanner: v.nullable(v.string()),
  monday_link: v.nullable(v.string()),
  powerbi_link: v.nullable(v.string()),
  /** API-relative address of the logo (`/companies/company/logo/{id}?v=…`), null without a logo. */
  logo_path: v.nullable(v.string()),
  created_at: v.string(),
  users: v.array(CompanyUser),
  /** Members with COMPANY_ADMIN, and the others (COMPANY_USER). */
  admin_count: v.number(),
  other_user_count: v.number(),
})
export type Company = v.InferOutput<typeof Company>

/** One entry of `GET /users/companies` (the company switcher). */
export const MyCompany = v.object({
  id: Id,
  name: v.string(),
  enabled: v.boolean(),
  logo_path: v.nullable(v.string()),
  powerbi_link: v.nullable(v.string()),
  monday_link: v.nullable(v.string()),
  /** The user's role in it; null for a platform administrator who is not a member. */
  role: v.nullable(v.picklist(COMPANY_ROLES)),
})
export type MyCompany = v.InferOutput<typeof MyCompany>

/** A user as the administration sees it (`GET /admin/users`). */
export const AdminUser = v.object({
  id: Id,
  email: v.string(),
  name: v.string(),
  surname: v.string(),
  role: v.picklist(GLOBAL_ROLES),
  enabled: v.boolean(),
  validated: v.boolean(),
  is_2fa_enabled: v.boolean(),
  created_at: v.string(),
  companies: v.array(UserCompany),
})
export type AdminUser = v.InferOutput<typeof AdminUser>

/** `POST /companies/company/logo/{id}`. */
export const LogoUploadResult = v.object({ message: v.string(), logo_path: v.string() })
export type LogoUploadResult = v.InferOutput<typeof LogoUploadResult>

/** The logo types, checked by content; anything else answers 415 with this message. */
export const LOGO_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const
export const LOGO_TYPE_MESSAGE = 'Invalid file type. Only JPG, PNG and GIF are allowed.'
export const LOGO_MAX_BYTES = 2 * 1024 * 1024

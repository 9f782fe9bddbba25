/**
 * Administration and company context: companies, users, invitations, memberships and logos.
 */
import * as v from 'valibot'
import { UserCompany, userEntries } from './accounts.ts'
import { COMPANY_ROLES, GLOBAL_ROLES, Id, MAX_ID, noControlCharacters, PersonName } from './common.ts'
import { type FileType, GIF, JPEG, PNG } from './documents.ts'
import { contractMessages } from './messages.ts'

const NAME_MESSAGE = contractMessages.nameTooShort
const EMAIL_MESSAGE = contractMessages.emailAddressInvalid
const ROLE_MESSAGE = contractMessages.roleRequired
const LINK_MESSAGE = contractMessages.linkNotHttp

/**
 * A required field whose absence reports the field's own message (valibot reports a missing
 * key with the object's generic message otherwise): a missing key is read as null.
 */
const present = <TSchema extends v.GenericSchema>(schema: TSchema) =>
  v.pipe(v.optional(v.unknown(), null), schema)

/** An e-mail typed by an administrator (invite, add to company); a malformed one is 'Invalid email address'. */
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
  v.maxLength(200, contractMessages.nameTooLong),
  noControlCharacters(),
)

/** An external link (Power BI, Monday): http(s) only, so no `javascript:` ever reaches an href. */
const ExternalLink = v.pipe(
  v.string(LINK_MESSAGE),
  v.maxLength(2048, contractMessages.linkTooLong),
  noControlCharacters(),
  v.url(LINK_MESSAGE),
  v.check((s) => /^https?:\/\//i.test(s), LINK_MESSAGE),
)

const SENDER_MESSAGE = contractMessages.allowedSenderInvalid
/** An allowed sender of a company's scanner addresses: an address or a whole `@domain`, lower-cased. */
const AllowedSender = v.pipe(
  v.string(SENDER_MESSAGE),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(254, SENDER_MESSAGE),
  v.check((s) => /^([^\s@]+)?@[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(s), SENDER_MESSAGE),
)
/** The allowed senders (empty or null: anyone), each once. */
const AllowedSenders = v.optional(
  v.pipe(
    v.nullable(v.array(AllowedSender)),
    v.transform((list) => [...new Set(list ?? [])]),
    v.maxLength(200, contractMessages.tooManyAllowedSenders),
  ),
)

/** The allowed senders as typed in one box: separated by commas, semicolons, spaces or lines. */
export const AllowedSendersText = v.pipe(
  v.string(),
  v.transform((text) => text.split(/[\s,;]+/).filter(Boolean)),
  v.array(AllowedSender),
  v.transform((list) => [...new Set(list)]),
  v.maxLength(200, contractMessages.tooManyAllowedSenders),
)

/** The two scanner addresses: mail to them brings a company its invoices and its expenses. */
export const SCANNER_FIELDS = ['invoice_scanner', 'expense_scanner'] as const
export type ScannerField = (typeof SCANNER_FIELDS)[number]

const scannerEntries = {
  invoice_scanner: Blankable(AdminEmail, EMAIL_MESSAGE),
  expense_scanner: Blankable(AdminEmail, EMAIL_MESSAGE),
}

/** `POST /admin/company`: the name, and optionally the scanner addresses. */
export const CreateCompanyInput = v.object({ name: present(CompanyName), ...scannerEntries })
export type CreateCompanyInput = v.InferOutput<typeof CreateCompanyInput>

/** `PUT /admin/company/{id}`: absent fields stay as they are; '' or null clears an optional one. */
export const UpdateCompanyInput = v.object({
  name: v.optional(CompanyName),
  ...scannerEntries,
  monday_link: Blankable(ExternalLink, LINK_MESSAGE),
  powerbi_link: Blankable(ExternalLink, LINK_MESSAGE),
  allowed_senders: AllowedSenders,
})
export type UpdateCompanyInput = v.InferOutput<typeof UpdateCompanyInput>

/** `POST /admin/company/{id}/status` and the `enabled` of `POST /admin/user/status`. */
export const CompanyStatusInput = v.object({ enabled: present(v.boolean('Enabled must be true or false')) })
export type CompanyStatusInput = v.InferOutput<typeof CompanyStatusInput>

const CompanyRoleInput = v.picklist(COMPANY_ROLES, ROLE_MESSAGE)
export const GlobalRoleInput = v.picklist(GLOBAL_ROLES, ROLE_MESSAGE)

/** A company id as JSON: a positive integer (a numeric string is accepted too). */
const CompanyIdInput = v.pipe(
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
    surname: present(PersonName(contractMessages.surnameTooShort)),
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
  // A company listed twice in `companies` is refused; `company_id` naming a company that
  // `companies` also lists is the same company in both readings: one membership, not a duplicate.
  v.forward(
    v.check((input) => {
      const ids = (input.companies ?? []).map((c) => c.company_id)
      return new Set(ids).size === ids.length
    }, contractMessages.companyAlreadyAdded),
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
  surname: v.optional(PersonName(contractMessages.surnameTooShort)),
  role: v.optional(GlobalRoleInput),
  enabled: v.optional(v.boolean('Enabled must be true or false')),
})
export type UpdateUserInput = v.InferOutput<typeof UpdateUserInput>

const SELECT_USER = contractMessages.selectUser
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
  ...userEntries,
  company_role: v.picklist(COMPANY_ROLES),
})
export type CompanyUser = v.InferOutput<typeof CompanyUser>

/** The fields every listing of a company carries (the administration's, the company switcher's). */
const companyEntries = {
  id: Id,
  name: v.string(),
  enabled: v.boolean(),
  /** API-relative address of the logo (`/companies/company/logo/{id}?v=…`), null without a logo. */
  logo_path: v.nullable(v.string()),
  powerbi_link: v.nullable(v.string()),
  monday_link: v.nullable(v.string()),
}

/** A company as the administration sees it (`GET /admin/company…`). */
export const Company = v.object({
  ...companyEntries,
  invoice_scanner: v.nullable(v.string()),
  expense_scanner: v.nullable(v.string()),
  /** Who may mail the scanner addresses (addresses, `@domains`); empty: anyone. */
  allowed_senders: v.optional(v.array(v.string())),
  created_at: v.string(),
  users: v.array(CompanyUser),
  /** Members with COMPANY_ADMIN, and the others (COMPANY_USER). */
  admin_count: v.number(),
  other_user_count: v.number(),
})
export type Company = v.InferOutput<typeof Company>

/** One entry of `GET /users/companies` (the company switcher). */
export const MyCompany = v.object({
  ...companyEntries,
  /** The user's role in it; null for a platform administrator who is not a member. */
  role: v.nullable(v.picklist(COMPANY_ROLES)),
})
export type MyCompany = v.InferOutput<typeof MyCompany>

/** A user as the administration sees it (`GET /admin/users`). */
export const AdminUser = v.object({
  ...userEntries,
  created_at: v.string(),
  companies: v.array(UserCompany),
})
export type AdminUser = v.InferOutput<typeof AdminUser>

/** `POST /companies/company/logo/{id}`. */
export const LogoUploadResult = v.object({ message: v.string(), logo_path: v.string() })
export type LogoUploadResult = v.InferOutput<typeof LogoUploadResult>

/** The logo types: the server checks the content (anything else answers 415 with this message), the browser the reported type. */
export const LOGO_TYPES: readonly FileType['mime'][] = [JPEG, PNG, GIF].map((t) => t.mime)
export const LOGO_TYPE_MESSAGE = contractMessages.logoFileTypeInvalid
export const LOGO_MAX_BYTES = 2 * 1024 * 1024

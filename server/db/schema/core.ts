/**
 * The core tables: users, companies, the user–company memberships with their role, and sessions.
 * The account-security and document tables reference them from their own files.
 */
import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'
import { COMPANY_ROLES, GLOBAL_ROLES, LANGUAGES } from '../../../contract/index.ts'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '))

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Always stored lower-case (the Email schema lower-cases; the check keeps it so). */
    email: text('email').notNull().unique(),
    name: text('name').notNull(),
    surname: text('surname').notNull(),
    role: text('role', { enum: GLOBAL_ROLES }).notNull(),
    passwordHash: text('password_hash'),
    validated: boolean('validated').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    is2faEnabled: boolean('is_2fa_enabled').notNull().default(false),
    language: text('language', { enum: LANGUAGES }).notNull().default('en'),
    /** Sign-in advises setting up 2FA (while it is off) until the user skips it; Settings turns it back on. */
    twoFactorAdvice: boolean('two_factor_advice').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('users_role_check', sql`${t.role} in (${inList(GLOBAL_ROLES)})`),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
    check('users_language_check', sql`${t.language} in (${inList(LANGUAGES)})`),
  ],
)

export const companies = pgTable('companies', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  invoiceScanner: text('invoice_scanner'),
  expenseScanner: text('expense_scanner'),
  /**
   * Who may send mail to the scanner addresses: lower-case addresses (`a@b.com`) and domains
   * (`@b.com`); empty means anyone.
   */
  allowedSenders: jsonb('allowed_senders').$type<string[]>().notNull().default([]),
  mondayLink: text('monday_link'),
  powerbiLink: text('powerbi_link'),
  logoPath: text('logo_path'),
  createdAt: createdAt(),
})

export const userCompanies = pgTable(
  'user_companies',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    role: text('role', { enum: COMPANY_ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.companyId] }),
    index('user_companies_company_id_idx').on(t.companyId),
    check('user_companies_role_check', sql`${t.role} in (${inList(COMPANY_ROLES)})`),
  ],
)

export const sessions = pgTable(
  'sessions',
  {
    /** HMAC-SHA256(sessionSecret, cookie token), hex: a leaked table does not give usable cookies. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
)

export type UserRow = typeof users.$inferSelect
export type CompanyRow = typeof companies.$inferSelect
export type SessionRow = typeof sessions.$inferSelect

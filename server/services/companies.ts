/**
 * Companies and memberships as the administration and the company switcher read them, and the
 * company writes of the administration (create, update, status, delete, logo).
 */
import { and, asc, count, eq, ilike, inArray, ne, type SQL, sql } from 'drizzle-orm'
import {
  type Company,
  type CompanyUser,
  type CreateCompanyInput,
  type MyCompany,
  SCANNER_FIELDS,
  type ScannerField,
  type UpdateCompanyInput,
} from '../../contract/index.ts'
import type { AppDatabase } from '../db/client.ts'
import {
  type CompanyRow,
  companies,
  documents,
  logs,
  type UserRow,
  userCompanies,
  users,
} from '../db/schema.ts'

/** The logo's API-relative address; `v` changes with every upload, so a new logo is never a cached one. */
export function logoPathOf(row: Pick<CompanyRow, 'id' | 'logoPath'>): string | null {
  return row.logoPath ? `/companies/company/logo/${row.id}?v=${row.logoPath.slice(0, 8)}` : null
}

const memberColumns = {
  companyId: userCompanies.companyId,
  id: users.id,
  email: users.email,
  name: users.name,
  surname: users.surname,
  role: users.role,
  enabled: users.enabled,
  validated: users.validated,
  is_2fa_enabled: users.is2faEnabled,
  company_role: userCompanies.role,
}

async function membersOf(db: AppDatabase, companyIds: number[]): Promise<Map<number, CompanyUser[]>> {
  const byCompany = new Map<number, CompanyUser[]>()
  if (companyIds.length === 0) return byCompany
  const rows = await db
    .select(memberColumns)
    .from(userCompanies)
    .innerJoin(users, eq(users.id, userCompanies.userId))
    .where(inArray(userCompanies.companyId, companyIds))
    .orderBy(asc(users.surname), asc(users.name), asc(users.id))
  for (const { companyId, ...member } of rows) {
    const list = byCompany.get(companyId) ?? []
    list.push(member)
    byCompany.set(companyId, list)
  }
  return byCompany
}

function toCompany(row: CompanyRow, members: CompanyUser[]): Company {
  const admins = members.filter((m) => m.company_role === 'COMPANY_ADMIN').length
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    invoice_scanner: row.invoiceScanner,
    expense_scanner: row.expenseScanner,
    allowed_senders: row.allowedSenders,
    monday_link: row.mondayLink,
    powerbi_link: row.powerbiLink,
    logo_path: logoPathOf(row),
    created_at: row.createdAt.toISOString(),
    users: members,
    admin_count: admins,
    other_user_count: members.length - admins,
  }
}

/** Companies (all, or those whose name contains `search`, case-insensitively) with their members. */
export async function listCompanies(db: AppDatabase, search?: string): Promise<Company[]> {
  const where = search ? ilike(companies.name, `%${escapeLike(search)}%`) : undefined
  const rows = await db
    .select()
    .from(companies)
    .where(where)
    .orderBy(sql`lower(${companies.name})`, asc(companies.id))
  const members = await membersOf(
    db,
    rows.map((r) => r.id),
  )
  return rows.map((row) => toCompany(row, members.get(row.id) ?? []))
}

export async function findCompanyRow(db: AppDatabase, id: number): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id))
  return row
}

export async function getCompany(db: AppDatabase, id: number): Promise<Company | null> {
  const row = await findCompanyRow(db, id)
  if (!row) return null
  return toCompany(row, (await membersOf(db, [id])).get(id) ?? [])
}

/** Members of one company, for `GET /companies/company/users`. */
export async function companyUsers(db: AppDatabase, companyId: number): Promise<CompanyUser[]> {
  return (await membersOf(db, [companyId])).get(companyId) ?? []
}

/**
 * The companies of the switcher: a user's enabled memberships; a platform administrator sees
 * every company (disabled ones too, flagged), with their own role where they are a member.
 */
export async function myCompanies(db: AppDatabase, user: Pick<UserRow, 'id' | 'role'>): Promise<MyCompany[]> {
  const columns = {
    id: companies.id,
    name: companies.name,
    enabled: companies.enabled,
    logoPath: companies.logoPath,
    powerbi_link: companies.powerbiLink,
    monday_link: companies.mondayLink,
    role: userCompanies.role,
  }
  const order = [sql`lower(${companies.name})`, asc(companies.id)]
  const rows =
    user.role === 'SAAS_ADMIN'
      ? await db
          .select(columns)
          .from(companies)
          .leftJoin(
            userCompanies,
            and(eq(userCompanies.companyId, companies.id), eq(userCompanies.userId, user.id)),
          )
          .orderBy(...order)
      : await db
          .select(columns)
          .from(userCompanies)
          .innerJoin(companies, eq(companies.id, userCompanies.companyId))
          .where(and(eq(userCompanies.userId, user.id), eq(companies.enabled, true)))
          .orderBy(...order)
  return rows.map(({ logoPath, ...row }) => ({ ...row, logo_path: logoPathOf({ id: row.id, logoPath }) }))
}

/** Any fixed number: serialises the uniqueness checks and the writes of company creations and updates. */
const COMPANY_NAME_LOCK = 0x0d0c0a3

/** What a company claims that no other may share: its name, and each scanner address (for either kind). */
export type CompanyClaims = {
  name?: string | undefined
  invoice_scanner?: string | null | undefined
  expense_scanner?: string | null | undefined
}

/** Why a write was refused: the name is another company's, or these scanner fields' addresses are in use. */
export type CompanyConflict = { conflict: 'name' } | { conflict: 'scanner'; fields: ScannerField[] }

/**
 * Runs `write` once no claim is in use, the checks and the write in one transaction under an
 * advisory lock: two concurrent creations (or updates) to one name or one scanner address cannot
 * both pass the check. `exceptId` is the company being updated (its own values are no conflict).
 */
export async function withUniqueCompanyFields<T>(
  db: AppDatabase,
  claims: CompanyClaims,
  exceptId: number | undefined,
  write: (tx: AppDatabase) => Promise<T>,
): Promise<{ ok: true; value: T } | ({ ok: false } & CompanyConflict)> {
  return db.transaction(async (tx) => {
    const scoped = tx as unknown as AppDatabase
    const scanners = SCANNER_FIELDS.some((field) => claims[field])
    if (claims.name !== undefined || scanners) {
      await scoped.execute(sql`select pg_advisory_xact_lock(${COMPANY_NAME_LOCK})`)
    }
    if (claims.name !== undefined && (await companyNameTaken(scoped, claims.name, exceptId))) {
      return { ok: false as const, conflict: 'name' as const }
    }
    const fields = scanners ? await scannerConflicts(scoped, claims, exceptId) : []
    if (fields.length > 0) return { ok: false as const, conflict: 'scanner' as const, fields }
    return { ok: true as const, value: await write(scoped) }
  })
}

/** Whether a company other than `exceptId` matches `condition`. */
async function otherCompanyMatches(db: AppDatabase, condition: SQL, exceptId?: number): Promise<boolean> {
  const conditions: SQL[] = [condition]
  if (exceptId !== undefined) conditions.push(ne(companies.id, exceptId))
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(and(...conditions))
    .limit(1)
  return row !== undefined
}

/** Whether another company already has this name (case-insensitive, trimmed). */
const companyNameTaken = (db: AppDatabase, name: string, exceptId?: number) =>
  otherCompanyMatches(db, sql`lower(${companies.name}) = lower(${name})`, exceptId)

const sameAddress = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase()

/**
 * The scanner fields whose new address is already in use (case-insensitively): by another company,
 * for either kind, or by this company for its other kind. An address a field already has is not
 * claimed again, so an older duplicate never blocks an unrelated edit.
 */
async function scannerConflicts(
  db: AppDatabase,
  claims: CompanyClaims,
  exceptId: number | undefined,
): Promise<ScannerField[]> {
  const current = exceptId === undefined ? undefined : await findCompanyRow(db, exceptId)
  const stored: Record<ScannerField, string | null> = {
    invoice_scanner: current?.invoiceScanner ?? null,
    expense_scanner: current?.expenseScanner ?? null,
  }
  const final = (field: ScannerField) => (claims[field] === undefined ? stored[field] : claims[field])
  const conflicts: ScannerField[] = []
  for (const field of SCANNER_FIELDS) {
    const address = claims[field]
    if (!address || sameAddress(address, stored[field])) continue
    const other = field === 'invoice_scanner' ? 'expense_scanner' : 'invoice_scanner'
    if (sameAddress(address, final(other)) || (await scannerAddressUsed(db, address, exceptId))) {
      conflicts.push(field)
    }
  }
  return conflicts
}

/** Whether a company other than `exceptId` has this address as its invoice or expense scanner. */
const scannerAddressUsed = (db: AppDatabase, address: string, exceptId?: number) =>
  otherCompanyMatches(
    db,
    sql`(lower(${companies.invoiceScanner}) = lower(${address}) or lower(${companies.expenseScanner}) = lower(${address}))`,
    exceptId,
  )

export async function createCompany(
  db: AppDatabase,
  input: CreateCompanyInput,
  now: Date,
): Promise<CompanyRow> {
  const [row] = await db
    .insert(companies)
    .values({
      name: input.name,
      invoiceScanner: input.invoice_scanner ?? null,
      expenseScanner: input.expense_scanner ?? null,
      createdAt: now,
    })
    .returning()
  return row!
}

export async function updateCompany(
  db: AppDatabase,
  id: number,
  input: UpdateCompanyInput,
): Promise<CompanyRow | undefined> {
  const values: Partial<typeof companies.$inferInsert> = {}
  if (input.name !== undefined) values.name = input.name
  if (input.invoice_scanner !== undefined) values.invoiceScanner = input.invoice_scanner
  if (input.expense_scanner !== undefined) values.expenseScanner = input.expense_scanner
  if (input.monday_link !== undefined) values.mondayLink = input.monday_link
  if (input.powerbi_link !== undefined) values.powerbiLink = input.powerbi_link
  if (input.allowed_senders !== undefined) values.allowedSenders = input.allowed_senders
  if (Object.keys(values).length === 0) return findCompanyRow(db, id)
  const [row] = await db.update(companies).set(values).where(eq(companies.id, id)).returning()
  return row
}

export async function setCompanyEnabled(db: AppDatabase, id: number, enabled: boolean): Promise<void> {
  await db.update(companies).set({ enabled }).where(eq(companies.id, id))
}

export async function isMember(db: AppDatabase, userId: number, companyId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: userCompanies.userId })
    .from(userCompanies)
    .where(and(eq(userCompanies.userId, userId), eq(userCompanies.companyId, companyId)))
  return row !== undefined
}

export type DeleteOutcome =
  | { outcome: 'deleted'; logoKey: string | null }
  | { outcome: 'not-found' }
  | { outcome: 'in-use'; users: number; documents: number; logs: number }

/**
 * Deletes a company only when nothing hangs on it: no member, no document, no log entry. The
 * row is locked first, so an upload racing the delete either lands before (and is counted) or
 * fails on its foreign key; financial records are never removed by a cascade.
 */
export async function deleteCompany(db: AppDatabase, id: number): Promise<DeleteOutcome> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(companies).where(eq(companies.id, id)).for('update')
    if (!row) return { outcome: 'not-found' as const }
    // One statement at a time: a transaction is one connection.
    const [u] = await tx.select({ n: count() }).from(userCompanies).where(eq(userCompanies.companyId, id))
    const [d] = await tx.select({ n: count() }).from(documents).where(eq(documents.companyId, id))
    const [l] = await tx.select({ n: count() }).from(logs).where(eq(logs.companyId, id))
    const usage = { users: u?.n ?? 0, documents: d?.n ?? 0, logs: l?.n ?? 0 }
    if (usage.users + usage.documents + usage.logs > 0) return { outcome: 'in-use' as const, ...usage }
    await tx.delete(companies).where(eq(companies.id, id))
    return { outcome: 'deleted' as const, logoKey: row.logoPath }
  })
}

/** Points the company at a new stored logo; returns the previous key (to delete) or null when absent. */
export async function replaceLogo(
  db: AppDatabase,
  id: number,
  key: string,
): Promise<{ previous: string | null } | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ logoPath: companies.logoPath })
      .from(companies)
      .where(eq(companies.id, id))
      .for('update')
    if (!row) return null
    await tx.update(companies).set({ logoPath: key }).where(eq(companies.id, id))
    return { previous: row.logoPath }
  })
}

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (ch) => `\\${ch}`)
}

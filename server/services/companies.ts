/**
 * Companies and memberships as the administration and the company switcher read them, and the
 * company writes of the administration (create, update, status, delete, logo).
 */
import { and, asc, count, eq, ilike, inArray, ne, type SQL, sql } from 'drizzle-orm'
import type { Company, CompanyUser, MyCompany, UpdateCompanyInput } from '../../src/contract/index.ts'
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

/** Any fixed number: serialises the name check and the write of company creations and renames. */
const COMPANY_NAME_LOCK = 0x0d0c0a3

/**
 * Runs `write` after `companyNameTaken` says no, both in one transaction under an advisory lock:
 * two concurrent creations (or renames) to one name cannot both pass the check. Answers
 * 'taken' when the name is in use.
 */
export async function withUniqueCompanyName<T>(
  db: AppDatabase,
  name: string | undefined,
  exceptId: number | undefined,
  write: (tx: AppDatabase) => Promise<T>,
): Promise<T | 'taken'> {
  return db.transaction(async (tx) => {
    const scoped = tx as unknown as AppDatabase
    if (name !== undefined) {
      await scoped.execute(sql`select pg_advisory_xact_lock(${COMPANY_NAME_LOCK})`)
      if (await companyNameTaken(scoped, name, exceptId)) return 'taken' as const
    }
    return write(scoped)
  })
}

/** Whether another company already has this name (case-insensitive, trimmed). */
async function companyNameTaken(db: AppDatabase, name: string, exceptId?: number): Promise<boolean> {
  const conditions: SQL[] = [sql`lower(${companies.name}) = lower(${name})`]
  if (exceptId !== undefined) conditions.push(ne(companies.id, exceptId))
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(and(...conditions))
    .limit(1)
  return row !== undefined
}

export async function createCompany(db: AppDatabase, name: string, now: Date): Promise<CompanyRow> {
  const [row] = await db.insert(companies).values({ name, createdAt: now }).returning()
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

/**
 * Users as the administration manages them: listing with memberships, invitation (user and
 * memberships in one transaction), status, profile and role, memberships. Disabling a user ends
 * their sessions in the same transaction.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type {
  AdminUser,
  CompanyRole,
  GlobalRole,
  InviteUserInput,
  UpdateUserInput,
} from '../../contract/index.ts'
import type { AppDatabase } from '../db/client.ts'
import { companies, type UserRow, userCompanies, users } from '../db/schema.ts'
import { endSessionsOfUser } from './sessions.ts'

async function membershipsOf(db: AppDatabase, userIds: number[]) {
  const byUser = new Map<number, AdminUser['companies']>()
  if (userIds.length === 0) return byUser
  const rows = await db
    .select({
      userId: userCompanies.userId,
      company_id: companies.id,
      company_name: companies.name,
      role: userCompanies.role,
    })
    .from(userCompanies)
    .innerJoin(companies, eq(companies.id, userCompanies.companyId))
    .where(inArray(userCompanies.userId, userIds))
    .orderBy(sql`lower(${companies.name})`, asc(companies.id))
  for (const { userId, ...membership } of rows) {
    const list = byUser.get(userId) ?? []
    list.push(membership)
    byUser.set(userId, list)
  }
  return byUser
}

function toAdminUser(row: UserRow, memberships: AdminUser['companies']): AdminUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    surname: row.surname,
    role: row.role,
    enabled: row.enabled,
    validated: row.validated,
    is_2fa_enabled: row.is2faEnabled,
    created_at: row.createdAt.toISOString(),
    companies: memberships,
  }
}

export async function listAdminUsers(db: AppDatabase): Promise<AdminUser[]> {
  const rows = await db
    .select()
    .from(users)
    .orderBy(sql`lower(${users.surname})`, sql`lower(${users.name})`, asc(users.id))
  const memberships = await membershipsOf(
    db,
    rows.map((r) => r.id),
  )
  return rows.map((row) => toAdminUser(row, memberships.get(row.id) ?? []))
}

export async function adminUserView(db: AppDatabase, row: UserRow): Promise<AdminUser> {
  return toAdminUser(row, (await membershipsOf(db, [row.id])).get(row.id) ?? [])
}

export async function findUserById(db: AppDatabase, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id))
  return row
}

export type InviteOutcome =
  | { outcome: 'invited'; user: UserRow }
  | { outcome: 'email-taken' }
  | { outcome: 'unknown-company'; companyId: number }

/**
 * The memberships an invitation asks for, from either reading of the payload. A `company_id` that
 * `companies` also lists is one membership, with the role the list gives it.
 */
function invitedMemberships(input: InviteUserInput): { companyId: number; role: CompanyRole }[] {
  const list = (input.companies ?? []).map((c) => ({ companyId: c.company_id, role: c.role }))
  if (input.company_id != null && !list.some((m) => m.companyId === input.company_id)) {
    list.unshift({ companyId: input.company_id, role: input.company_role ?? 'COMPANY_USER' })
  }
  return list
}

/** Creates the not-yet-validated user (no password) and their memberships, atomically. */
export async function createInvitedUser(
  db: AppDatabase,
  input: InviteUserInput,
  now: Date,
): Promise<InviteOutcome> {
  const role: GlobalRole = input.role ?? 'CLIENT_USER'
  const memberships = invitedMemberships(input)
  return db.transaction(async (tx) => {
    if (memberships.length > 0) {
      const ids = memberships.map((m) => m.companyId)
      const found = await tx.select({ id: companies.id }).from(companies).where(inArray(companies.id, ids))
      const known = new Set(found.map((f) => f.id))
      const missing = ids.find((id) => !known.has(id))
      if (missing !== undefined) return { outcome: 'unknown-company' as const, companyId: missing }
    }
    const [user] = await tx
      .insert(users)
      .values({
        email: input.email,
        name: input.name,
        surname: input.surname,
        role,
        passwordHash: null,
        validated: false,
        enabled: true,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: users.email })
      .returning()
    if (!user) return { outcome: 'email-taken' as const }
    if (memberships.length > 0) {
      await tx
        .insert(userCompanies)
        .values(
          memberships.map((m) => ({ userId: user.id, companyId: m.companyId, role: m.role, createdAt: now })),
        )
    }
    return { outcome: 'invited' as const, user }
  })
}

export async function deleteUser(db: AppDatabase, id: number): Promise<void> {
  await db.delete(users).where(eq(users.id, id))
}

/** Sets `enabled`; disabling ends every session of the user in the same transaction. */
export async function setUserEnabled(
  db: AppDatabase,
  id: number,
  enabled: boolean,
  now: Date,
): Promise<UserRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx.update(users).set({ enabled, updatedAt: now }).where(eq(users.id, id)).returning()
    if (row && !enabled) await endSessionsOfUser(tx, id)
    return row
  })
}

export async function updateUser(
  db: AppDatabase,
  id: number,
  input: UpdateUserInput,
  now: Date,
): Promise<UserRow | undefined> {
  const values: Partial<typeof users.$inferInsert> = { updatedAt: now }
  if (input.name !== undefined) values.name = input.name
  if (input.surname !== undefined) values.surname = input.surname
  if (input.role !== undefined) values.role = input.role
  if (input.enabled !== undefined) values.enabled = input.enabled
  return db.transaction(async (tx) => {
    const [row] = await tx.update(users).set(values).where(eq(users.id, id)).returning()
    if (row && input.enabled === false) await endSessionsOfUser(tx, id)
    return row
  })
}

/** Adds the membership, or changes its role when it exists; true when it was created. */
export async function upsertMembership(
  db: AppDatabase,
  userId: number,
  companyId: number,
  role: CompanyRole,
  now: Date,
): Promise<boolean> {
  const [row] = await db
    .insert(userCompanies)
    .values({ userId, companyId, role, createdAt: now })
    .onConflictDoUpdate({ target: [userCompanies.userId, userCompanies.companyId], set: { role } })
    .returning({ created: sql<boolean>`(xmax = 0)` })
  return row?.created ?? false
}

export async function removeMembership(db: AppDatabase, userId: number, companyId: number): Promise<boolean> {
  const rows = await db
    .delete(userCompanies)
    .where(and(eq(userCompanies.userId, userId), eq(userCompanies.companyId, companyId)))
    .returning({ userId: userCompanies.userId })
  return rows.length > 0
}

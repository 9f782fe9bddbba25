import { and, asc, eq, sql } from 'drizzle-orm'
import type { User } from '../../contract/index.ts'
import type { AppDatabase } from '../db/client.ts'
import { companies, type UserRow, userCompanies, users } from '../db/schema.ts'

export async function findUserByEmail(db: AppDatabase, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()))
  return row
}

/** The `User` answer of `GET /auth/logged-in`: the user with their company memberships. */
export async function toUserView(db: AppDatabase, user: UserRow): Promise<User> {
  const memberships = await db
    .select({ company_id: companies.id, company_name: companies.name, role: userCompanies.role })
    .from(userCompanies)
    .innerJoin(companies, eq(companies.id, userCompanies.companyId))
    // A disabled company is gone for its members (its data answers 404 to them); platform
    // administrators still reach it, as in GET /users/companies.
    .where(
      and(
        eq(userCompanies.userId, user.id),
        user.role === 'SAAS_ADMIN' ? undefined : eq(companies.enabled, true),
      ),
    )
    .orderBy(asc(companies.name), asc(companies.id))
  // The "current" company of the legacy shape: the oldest membership by company id.
  const first = memberships.reduce<(typeof memberships)[number] | null>(
    (min, m) => (min === null || m.company_id < min.company_id ? m : min),
    null,
  )
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    surname: user.surname,
    role: user.role,
    validated: user.validated,
    enabled: user.enabled,
    is_2fa_enabled: user.is2faEnabled,
    company_id: first?.company_id ?? null,
    company_role: first?.role ?? null,
    companies: memberships,
    two_factor_advice: user.twoFactorAdvice,
  }
}

export async function hasSaasAdmin(db: AppDatabase): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'SAAS_ADMIN')).limit(1)
  return row !== undefined
}

/** Any fixed number: serialises first-administrator creation across processes sharing the database. */
const FIRST_ADMIN_LOCK = 0x0d0cf10
export type FirstAdminOutcome = 'created' | 'admin-exists' | 'users-exist' | 'email-taken'

/**
 * Creates the first validated SAAS_ADMIN, unless `guard` already holds: 'no-admin' (the
 * setup call) refuses once any SAAS_ADMIN exists, 'no-user' (ADMIN_EMAIL at start-up) once
 * any user exists. Check and insert run under one transaction-scoped advisory lock.
 */
export async function createFirstAdmin(
  db: AppDatabase,
  input: { email: string; name: string; surname: string; passwordHash: string },
  guard: 'no-admin' | 'no-user',
): Promise<FirstAdminOutcome> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ADMIN_LOCK})`)
    const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'SAAS_ADMIN')).limit(1)
    if (admin) return 'admin-exists'
    const [anyUser] = await tx.select({ id: users.id }).from(users).limit(1)
    if (anyUser && guard === 'no-user') return 'users-exist'
    const email = input.email.toLowerCase()
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email))
    if (taken) return 'email-taken'
    await tx.insert(users).values({
      email,
      name: input.name,
      surname: input.surname,
      role: 'SAAS_ADMIN',
      passwordHash: input.passwordHash,
      validated: true,
      enabled: true,
    })
    return 'created'
  })
}

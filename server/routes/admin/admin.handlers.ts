/**
 * The administration calls: companies, users, invitations and memberships, for platform
 * administrators only. The rules that protect the caller from locking themself out (own account,
 * own company, own membership, own role) answer 403 with the reason.
 */
import type { Context } from 'hono'
import type * as v from 'valibot'
import { type CompanySearchTerm, UserKey } from '../../../contract/admin-calls.ts'
import type {
  CompanyStatusInput,
  CreateCompanyInput,
  InviteUserInput,
  RemoveUserCompanyInput,
  UpdateCompanyInput,
  UpdateUserInput,
  UserCompanyInput,
  UserStatusInput,
} from '../../../contract/index.ts'
import { contractMessages } from '../../../contract/index.ts'
import type { UserRow } from '../../db/schema.ts'
import type { AppEnv } from '../../http/context.ts'
import { HttpError, parse, parsePathId } from '../../http/errors.ts'
import {
  adminUserView,
  createInvitedUser,
  deleteUser,
  findUserById,
  removeMembership,
  setUserEnabled,
  updateUser,
  upsertMembership,
} from '../../services/admin-users.ts'
import {
  type CompanyConflict,
  createCompany,
  deleteCompany,
  findCompanyRow,
  getCompany,
  isMember,
  listCompanies,
  setCompanyEnabled,
  updateCompany,
  withUniqueCompanyFields,
} from '../../services/companies.ts'
import { findUserByEmail } from '../../services/users.ts'
import type { CompanyRouteDeps as AdminRouteDeps } from '../companies/companies.handlers.ts'

export type { AdminRouteDeps }

export const COMPANY_NOT_FOUND = 'Company not found'
const USER_NOT_FOUND = 'User not found'
const NAME_TAKEN = 'A company with this name already exists'

type Input<T extends object> = Context<AppEnv, string, { out: T }>
type Json<S extends v.GenericSchema> = { json: v.InferOutput<S> }
type Id = { param: { id: number } }

/**
 * 409 for a company write that claims what another has: the name, or scanner addresses (each
 * address belongs to one company and one kind), the latter naming each refused field in `detail`.
 */
function conflictError(outcome: CompanyConflict): HttpError {
  if (outcome.conflict === 'name') return new HttpError(409, NAME_TAKEN)
  return new HttpError(
    409,
    contractMessages.scannerAddressInUse,
    outcome.fields.map((field) => ({ field, message: contractMessages.scannerAddressTaken })),
  )
}

async function userByEmail({ db }: AdminRouteDeps, email: string): Promise<UserRow> {
  const user = await findUserByEmail(db, email)
  if (!user) throw new HttpError(404, USER_NOT_FOUND)
  return user
}

async function requireCompany({ db }: AdminRouteDeps, id: number) {
  const row = await findCompanyRow(db, id)
  if (!row) throw new HttpError(404, COMPANY_NOT_FOUND)
  return row
}

export const searchCompanies = async (
  { db }: AdminRouteDeps,
  c: Input<{ param: { name: v.InferOutput<typeof CompanySearchTerm> } }>,
) => c.json(await listCompanies(db, c.req.valid('param').name))

export async function readCompany({ db }: AdminRouteDeps, c: Input<Id>) {
  const company = await getCompany(db, c.req.valid('param').id)
  if (!company) throw new HttpError(404, COMPANY_NOT_FOUND)
  return c.json(company)
}

export async function addCompany(
  { db, clock, logger }: AdminRouteDeps,
  c: Input<Json<typeof CreateCompanyInput>>,
) {
  const input = c.req.valid('json')
  const outcome = await withUniqueCompanyFields(db, input, undefined, (tx) =>
    createCompany(tx, input, clock()),
  )
  if (!outcome.ok) throw conflictError(outcome)
  const row = outcome.value
  logger.info({ reqId: c.var.requestId, companyId: row.id, by: c.var.user.id }, 'company created')
  return c.json(await getCompany(db, row.id), 201)
}

export async function changeCompany(deps: AdminRouteDeps, c: Input<Id & Json<typeof UpdateCompanyInput>>) {
  const { db, logger } = deps
  const { id } = c.req.valid('param')
  const input = c.req.valid('json')
  await requireCompany(deps, id)
  const outcome = await withUniqueCompanyFields(db, input, id, (tx) => updateCompany(tx, id, input))
  if (!outcome.ok) throw conflictError(outcome)
  logger.info({ reqId: c.var.requestId, companyId: id, by: c.var.user.id }, 'company updated')
  return c.json(await getCompany(db, id))
}

export async function companyStatus(deps: AdminRouteDeps, c: Input<Id & Json<typeof CompanyStatusInput>>) {
  const { db, logger } = deps
  const { id } = c.req.valid('param')
  const { enabled } = c.req.valid('json')
  await requireCompany(deps, id)
  if (!enabled && (await isMember(db, c.var.user.id, id))) {
    throw new HttpError(403, 'You cannot deactivate your own company')
  }
  await setCompanyEnabled(db, id, enabled)
  logger.info({ reqId: c.var.requestId, companyId: id, enabled, by: c.var.user.id }, 'company status')
  return c.json(await getCompany(db, id))
}

export async function removeCompany({ db, storage, logger }: AdminRouteDeps, c: Input<Id>) {
  const { id } = c.req.valid('param')
  const result = await deleteCompany(db, id)
  if (result.outcome === 'not-found') throw new HttpError(404, COMPANY_NOT_FOUND)
  if (result.outcome === 'in-use') {
    throw new HttpError(
      409,
      'The company still has users or documents: remove its users, or disable it instead',
      {
        users: result.users,
        documents: result.documents,
        logs: result.logs,
      },
    )
  }
  if (result.logoKey) {
    await storage.delete(result.logoKey).catch((error) => logger.warn({ err: error }, 'logo delete failed'))
  }
  logger.info({ reqId: c.var.requestId, companyId: id, by: c.var.user.id }, 'company deleted')
  return c.json({ message: 'Company deleted successfully' })
}

export async function userStatus(deps: AdminRouteDeps, c: Input<Json<typeof UserStatusInput>>) {
  const { db, clock, logger } = deps
  const { user_email, enabled } = c.req.valid('json')
  const target = await userByEmail(deps, user_email)
  if (target.id === c.var.user.id)
    throw new HttpError(403, 'You cannot change the status of your own account')
  const row = await setUserEnabled(db, target.id, enabled, clock())
  if (!row) throw new HttpError(404, USER_NOT_FOUND)
  logger.info({ reqId: c.var.requestId, userId: row.id, enabled, by: c.var.user.id }, 'user status')
  return c.json(await adminUserView(db, row))
}

/** `PUT /admin/user/{id}`: the numeric id, or the e-mail (one source updates by e-mail). */
export const userKey = (raw: string | undefined): { id: number } | { email: string } =>
  raw !== undefined && /^\d+$/.test(raw) ? { id: parsePathId(raw, USER_NOT_FOUND) } : parse(UserKey, raw)

export async function changeUser(
  { db, clock, logger }: AdminRouteDeps,
  c: Input<{ param: { id: { id: number } | { email: string } } } & Json<typeof UpdateUserInput>>,
) {
  const key = c.req.valid('param').id
  const input = c.req.valid('json')
  const target = 'id' in key ? await findUserById(db, key.id) : await findUserByEmail(db, key.email)
  if (!target) throw new HttpError(404, USER_NOT_FOUND)
  if (target.id === c.var.user.id) {
    if (input.enabled === false) throw new HttpError(403, 'You cannot disable your own account')
    if (input.role !== undefined && input.role !== target.role) {
      throw new HttpError(403, 'You cannot change your own role')
    }
  }
  const row = await updateUser(db, target.id, input, clock())
  if (!row) throw new HttpError(404, USER_NOT_FOUND)
  logger.info({ reqId: c.var.requestId, userId: row.id, by: c.var.user.id }, 'user updated')
  return c.json(await adminUserView(db, row))
}

export async function addMembership(deps: AdminRouteDeps, c: Input<Json<typeof UserCompanyInput>>) {
  const { db, clock, logger } = deps
  const input = c.req.valid('json')
  const target = await userByEmail(deps, input.user_email)
  await requireCompany(deps, input.company_id)
  const created = await upsertMembership(db, target.id, input.company_id, input.role, clock())
  logger.info(
    { reqId: c.var.requestId, userId: target.id, companyId: input.company_id, by: c.var.user.id },
    created ? 'membership added' : 'membership role changed',
  )
  return c.json(
    { user_email: target.email, company_id: input.company_id, role: input.role },
    created ? 201 : 200,
  )
}

export async function dropMembership(
  deps: AdminRouteDeps,
  c: Input<{ query: v.InferOutput<typeof RemoveUserCompanyInput> }>,
) {
  const { db, logger } = deps
  const input = c.req.valid('query')
  const target = await userByEmail(deps, input.user_email)
  if (target.id === c.var.user.id) throw new HttpError(403, 'You cannot remove yourself from a company')
  if (!(await removeMembership(db, target.id, input.company_id))) {
    throw new HttpError(404, 'This user is not a member of this company')
  }
  logger.info(
    { reqId: c.var.requestId, userId: target.id, companyId: input.company_id, by: c.var.user.id },
    'membership removed',
  )
  return c.json({ message: 'User removed from company' })
}

export async function invite(
  { db, clock, logger, accounts }: AdminRouteDeps,
  c: Input<Json<typeof InviteUserInput>>,
) {
  const input = c.req.valid('json')
  const result = await createInvitedUser(db, input, clock())
  if (result.outcome === 'email-taken') throw new HttpError(409, contractMessages.emailInUse)
  if (result.outcome === 'unknown-company') {
    throw new HttpError(404, COMPANY_NOT_FOUND, { company_id: result.companyId })
  }
  try {
    await accounts.sendInvitation(result.user)
  } catch (error) {
    // No mail, no account: the administrator can simply invite again.
    await deleteUser(db, result.user.id)
    logger.error({ err: error, reqId: c.var.requestId }, 'invitation mail failed')
    throw new HttpError(502, 'The invitation e-mail could not be sent; try again later')
  }
  logger.info({ reqId: c.var.requestId, userId: result.user.id, by: c.var.user.id }, 'user invited')
  return c.json({ message: 'User invited successfully', user: await adminUserView(db, result.user) }, 201)
}

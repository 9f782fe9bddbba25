/**
 * The administration calls (`/admin/*`): companies, users, invitations and memberships. Every
 * one of them is for platform administrators only: 401 anonymous, 403 for anyone else. The
 * rules that protect the caller from locking themself out (own account, own company, own
 * membership, own role) answer 403 with the reason.
 */
import { type Context, Hono } from 'hono'
import { createMiddleware } from 'hono/factory'
import * as v from 'valibot'
import {
  CompanyStatusInput,
  CreateCompanyInput,
  contractMessages,
  IdParam,
  InviteUserInput,
  RemoveUserCompanyInput,
  Text,
  UpdateCompanyInput,
  UpdateUserInput,
  UserCompanyInput,
  UserStatusInput,
} from '../../contract/index.ts'
import type { UserRow } from '../db/schema.ts'
import { requireUser } from '../http/auth.ts'
import { refuseApiToken } from '../http/bearer.ts'
import type { AppEnv, RouteDeps } from '../http/context.ts'
import { HttpError, parse, parsePathId, readJson } from '../http/errors.ts'
import {
  adminUserView,
  createInvitedUser,
  deleteUser,
  findUserById,
  listAdminUsers,
  removeMembership,
  setUserEnabled,
  updateUser,
  upsertMembership,
} from '../services/admin-users.ts'
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
} from '../services/companies.ts'
import type { FileStorage } from '../services/storage/index.ts'
import { findUserByEmail } from '../services/users.ts'

export interface AdminRouteDeps extends RouteDeps {
  storage: FileStorage
}

const SAAS_ADMIN_ONLY = 'Only a platform administrator (SAAS_ADMIN) can do this'
const COMPANY_NOT_FOUND = 'Company not found'
const USER_NOT_FOUND = 'User not found'
const NAME_TAKEN = 'A company with this name already exists'

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

/** After `requireUser`: 403 unless the user is a platform administrator. */
export const requireSaasAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.user.role !== 'SAAS_ADMIN') throw new HttpError(403, SAAS_ADMIN_ONLY)
  await next()
})

const companyIdParam = (c: Context) => parsePathId(c.req.param('id'), COMPANY_NOT_FOUND)

const SearchTerm = v.pipe(Text(200, 'Search term is too long'), v.minLength(1, 'Search term is required'))

/** `PUT /admin/user/{id}`: the numeric id, or the e-mail (one source updates by e-mail). */
const UserKey = v.union(
  [
    v.pipe(
      IdParam,
      v.transform((id) => ({ id: id as number })),
    ),
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.email(),
      v.maxLength(254),
      v.transform((email) => ({ email })),
    ),
  ],
  'Invalid user id',
)

export function adminRoutes(deps: AdminRouteDeps) {
  const { db, sessions, clock, logger, accounts, storage } = deps

  const userByEmail = async (email: string): Promise<UserRow> => {
    const user = await findUserByEmail(db, email)
    if (!user) throw new HttpError(404, USER_NOT_FOUND)
    return user
  }

  const requireCompany = async (id: number) => {
    const row = await findCompanyRow(db, id)
    if (!row) throw new HttpError(404, COMPANY_NOT_FOUND)
    return row
  }

  return (
    new Hono<AppEnv>()
      .use('/admin/*', requireUser(sessions), refuseApiToken, requireSaasAdmin)

      // Companies.
      .get('/admin/company', async (c) => c.json(await listCompanies(db)))
      .get('/admin/company/search/:name', async (c) => {
        const term = parse(SearchTerm, c.req.param('name'))
        return c.json(await listCompanies(db, term))
      })
      .get('/admin/company/:id', async (c) => {
        const company = await getCompany(db, companyIdParam(c))
        if (!company) throw new HttpError(404, COMPANY_NOT_FOUND)
        return c.json(company)
      })
      .post('/admin/company', async (c) => {
        const input = parse(CreateCompanyInput, await readJson(c))
        const outcome = await withUniqueCompanyFields(db, input, undefined, (tx) =>
          createCompany(tx, input, clock()),
        )
        if (!outcome.ok) throw conflictError(outcome)
        const row = outcome.value
        logger.info({ reqId: c.var.requestId, companyId: row.id, by: c.var.user.id }, 'company created')
        return c.json(await getCompany(db, row.id), 201)
      })
      .put('/admin/company/:id', async (c) => {
        const id = companyIdParam(c)
        const input = parse(UpdateCompanyInput, await readJson(c))
        await requireCompany(id)
        const outcome = await withUniqueCompanyFields(db, input, id, (tx) => updateCompany(tx, id, input))
        if (!outcome.ok) throw conflictError(outcome)
        logger.info({ reqId: c.var.requestId, companyId: id, by: c.var.user.id }, 'company updated')
        return c.json(await getCompany(db, id))
      })
      .post('/admin/company/:id/status', async (c) => {
        const id = companyIdParam(c)
        const { enabled } = parse(CompanyStatusInput, await readJson(c))
        await requireCompany(id)
        if (!enabled && (await isMember(db, c.var.user.id, id))) {
          throw new HttpError(403, 'You cannot deactivate your own company')
        }
        await setCompanyEnabled(db, id, enabled)
        logger.info({ reqId: c.var.requestId, companyId: id, enabled, by: c.var.user.id }, 'company status')
        return c.json(await getCompany(db, id))
      })
      .delete('/admin/company/:id', async (c) => {
        const id = companyIdParam(c)
        const result = await deleteCompany(db, id)
        if (result.outcome === 'not-found') throw new HttpError(404, COMPANY_NOT_FOUND)
        if (result.outcome === 'in-use') {
          throw new HttpError(
            409,
            'The company still has users or documents: remove its users, or disable it instead',
            { users: result.users, documents: result.documents, logs: result.logs },
          )
        }
        if (result.logoKey) {
          await storage
            .delete(result.logoKey)
            .catch((error) => logger.warn({ err: error }, 'logo delete failed'))
        }
        logger.info({ reqId: c.var.requestId, companyId: id, by: c.var.user.id }, 'company deleted')
        return c.json({ message: 'Company deleted successfully' })
      })

      // Users.
      .get('/admin/users', async (c) => c.json(await listAdminUsers(db)))
      .post('/admin/invite-user', (c) => invite(c))
      .post('/admin/invite-user/', (c) => invite(c))
      .post('/admin/user/status', async (c) => {
        const { user_email, enabled } = parse(UserStatusInput, await readJson(c))
        const target = await userByEmail(user_email)
        if (target.id === c.var.user.id)
          throw new HttpError(403, 'You cannot change the status of your own account')
        const row = await setUserEnabled(db, target.id, enabled, clock())
        if (!row) throw new HttpError(404, USER_NOT_FOUND)
        logger.info({ reqId: c.var.requestId, userId: row.id, enabled, by: c.var.user.id }, 'user status')
        return c.json(await adminUserView(db, row))
      })
      .put('/admin/user/:id', async (c) => {
        const raw = c.req.param('id')
        const key = /^\d+$/.test(raw) ? { id: parsePathId(raw, USER_NOT_FOUND) } : parse(UserKey, raw)
        const input = parse(UpdateUserInput, await readJson(c))
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
      })

      // Memberships.
      .post('/admin/user-company', async (c) => {
        const input = parse(UserCompanyInput, await readJson(c))
        const target = await userByEmail(input.user_email)
        await requireCompany(input.company_id)
        const created = await upsertMembership(db, target.id, input.company_id, input.role, clock())
        logger.info(
          { reqId: c.var.requestId, userId: target.id, companyId: input.company_id, by: c.var.user.id },
          created ? 'membership added' : 'membership role changed',
        )
        return c.json(
          { user_email: target.email, company_id: input.company_id, role: input.role },
          created ? 201 : 200,
        )
      })
      .delete('/admin/user-company', async (c) => {
        const input = parse(RemoveUserCompanyInput, {
          user_email: c.req.query('user_email'),
          company_id: c.req.query('company_id'),
        })
        const target = await userByEmail(input.user_email)
        if (target.id === c.var.user.id) throw new HttpError(403, 'You cannot remove yourself from a company')
        if (!(await removeMembership(db, target.id, input.company_id))) {
          throw new HttpError(404, 'This user is not a member of this company')
        }
        logger.info(
          { reqId: c.var.requestId, userId: target.id, companyId: input.company_id, by: c.var.user.id },
          'membership removed',
        )
        return c.json({ message: 'User removed from company' })
      })
  )

  async function invite(c: Context<AppEnv>) {
    const input = parse(InviteUserInput, await readJson(c))
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
}

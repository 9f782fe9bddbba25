/**
 * The administration calls (`/admin/*`): companies, users, invitations and memberships. Every
 * one of them is for platform administrators only: 401 anonymous, 403 for anyone else.
 */
import { Hono } from 'hono'
import * as v from 'valibot'
import { CompanySearchTerm, InviteAnswer, MembershipAnswer, UserKey } from '../../../contract/admin-calls.ts'
import {
  AdminUser,
  Company,
  CompanyStatusInput,
  CreateCompanyInput,
  InviteUserInput,
  MessageResult,
  RemoveUserCompanyInput,
  UpdateCompanyInput,
  UpdateUserInput,
  UserCompanyInput,
  UserStatusInput,
} from '../../../contract/index.ts'
import { requireSaasAdmin, requireUser } from '../../http/auth.ts'
import { refuseApiToken } from '../../http/bearer.ts'
import type { AppEnv } from '../../http/context.ts'
import { describe, json, pathId, pathParam, validate } from '../../http/openapi.ts'
import { listAdminUsers } from '../../services/admin-users.ts'
import { listCompanies } from '../../services/companies.ts'
import {
  type AdminRouteDeps,
  addCompany,
  addMembership,
  COMPANY_NOT_FOUND,
  changeCompany,
  changeUser,
  companyStatus,
  dropMembership,
  invite,
  readCompany,
  removeCompany,
  searchCompanies,
  userKey,
  userStatus,
} from './admin.handlers.ts'

const companyId = () => pathId(COMPANY_NOT_FOUND)

function companyAdminRoutes(deps: AdminRouteDeps) {
  const tags = ['Administration: companies']
  const company = { 200: json(Company) }
  return new Hono<AppEnv>()
    .get(
      '/admin/company',
      describe({ tags, summary: 'Every company', responses: { 200: json(v.array(Company)) } }),
      async (c) => c.json(await listCompanies(deps.db)),
    )
    .get(
      '/admin/company/search/:name',
      describe({
        tags,
        summary: 'The companies whose name contains a term',
        responses: { 200: json(v.array(Company)) },
      }),
      pathParam('name', CompanySearchTerm),
      (c) => searchCompanies(deps, c),
    )
    .get(
      '/admin/company/:id',
      describe({ tags, summary: 'One company', responses: company }),
      companyId(),
      (c) => readCompany(deps, c),
    )
    .post(
      '/admin/company',
      describe({ tags, summary: 'Creates a company', responses: { 201: json(Company, 'Created') } }),
      validate('json', CreateCompanyInput),
      (c) => addCompany(deps, c),
    )
    .put(
      '/admin/company/:id',
      describe({ tags, summary: 'Updates a company', responses: company }),
      companyId(),
      validate('json', UpdateCompanyInput),
      (c) => changeCompany(deps, c),
    )
    .post(
      '/admin/company/:id/status',
      describe({ tags, summary: 'Enables or disables a company', responses: company }),
      companyId(),
      validate('json', CompanyStatusInput),
      (c) => companyStatus(deps, c),
    )
    .delete(
      '/admin/company/:id',
      describe({
        tags,
        summary: 'Deletes a company without users or documents',
        responses: { 200: json(MessageResult) },
      }),
      companyId(),
      (c) => removeCompany(deps, c),
    )
}

function userAdminRoutes(deps: AdminRouteDeps) {
  const tags = ['Administration: users']
  const invitation = [
    describe({
      tags,
      summary: 'Invites a user (an activation mail)',
      responses: { 201: json(InviteAnswer, 'Invited') },
    }),
    validate('json', InviteUserInput),
  ] as const
  return new Hono<AppEnv>()
    .get(
      '/admin/users',
      describe({ tags, summary: 'Every user', responses: { 200: json(v.array(AdminUser)) } }),
      async (c) => c.json(await listAdminUsers(deps.db)),
    )
    .post('/admin/invite-user', ...invitation, (c) => invite(deps, c))
    .post('/admin/invite-user/', ...invitation, (c) => invite(deps, c))
    .post(
      '/admin/user/status',
      describe({ tags, summary: 'Enables or disables a user', responses: { 200: json(AdminUser) } }),
      validate('json', UserStatusInput),
      (c) => userStatus(deps, c),
    )
    .put(
      '/admin/user/:id',
      describe({ tags, summary: 'Updates a user (by id or e-mail)', responses: { 200: json(AdminUser) } }),
      pathParam('id', UserKey, userKey),
      validate('json', UpdateUserInput),
      (c) => changeUser(deps, c),
    )
    .post(
      '/admin/user-company',
      describe({
        tags,
        summary: "Adds a user to a company, or changes the user's role in it",
        responses: { 200: json(MembershipAnswer, 'Role changed'), 201: json(MembershipAnswer, 'Added') },
      }),
      validate('json', UserCompanyInput),
      (c) => addMembership(deps, c),
    )
    .delete(
      '/admin/user-company',
      describe({ tags, summary: 'Removes a user from a company', responses: { 200: json(MessageResult) } }),
      validate('query', RemoveUserCompanyInput),
      (c) => dropMembership(deps, c),
    )
}

export function adminRoutes(deps: AdminRouteDeps) {
  return new Hono<AppEnv>()
    .use('/admin/*', requireUser(deps.sessions), refuseApiToken, requireSaasAdmin)
    .route('/', companyAdminRoutes(deps))
    .route('/', userAdminRoutes(deps))
}

/** Companies and users of the administration tests: the signed-in admin belongs to Acme. */
import type { AdminUser, Company, CompanyUser } from '../../contract'

export const ME = 'admin@example.com'

const member = (id: number, email: string, name: string, role: CompanyUser['company_role']): CompanyUser => ({
  id,
  email,
  name,
  surname: 'Test',
  role: id === 1 ? 'SAAS_ADMIN' : 'CLIENT_USER',
  enabled: true,
  validated: true,
  is_2fa_enabled: false,
  company_role: role,
})

const company = (id: number, name: string, enabled: boolean, users: CompanyUser[]): Company => ({
  id,
  name,
  enabled,
  invoice_scanner: null,
  expense_scanner: null,
  monday_link: null,
  powerbi_link: null,
  logo_path: null,
  created_at: '2025-01-01T00:00:00.000Z',
  users,
  admin_count: users.filter((u) => u.company_role === 'COMPANY_ADMIN').length,
  other_user_count: users.filter((u) => u.company_role === 'COMPANY_USER').length,
})

export const acme = company(1, 'Acme', true, [
  member(1, ME, 'Ada', 'COMPANY_ADMIN'),
  member(2, 'alice@example.com', 'Alice', 'COMPANY_USER'),
])
export const globex = company(2, 'Globex', true, [member(2, 'alice@example.com', 'Alice', 'COMPANY_ADMIN')])
export const initech = company(3, 'Initech', false, [])
export const companies = [acme, globex, initech]

const user = (
  id: number,
  email: string,
  name: string,
  role: AdminUser['role'],
  enabled: boolean,
  memberships: AdminUser['companies'],
): AdminUser => ({
  id,
  email,
  name,
  surname: 'Test',
  role,
  enabled,
  validated: true,
  is_2fa_enabled: id === 1,
  created_at: '2025-01-01T00:00:00.000Z',
  companies: memberships,
})

export const users: AdminUser[] = [
  user(1, ME, 'Ada', 'SAAS_ADMIN', true, [{ company_id: 1, company_name: 'Acme', role: 'COMPANY_ADMIN' }]),
  user(2, 'alice@example.com', 'Alice', 'CLIENT_USER', true, [
    { company_id: 1, company_name: 'Acme', role: 'COMPANY_USER' },
    { company_id: 2, company_name: 'Globex', role: 'COMPANY_ADMIN' },
    { company_id: 3, company_name: 'Initech', role: 'COMPANY_USER' },
  ]),
  user(3, 'bob@example.com', 'Bob', 'INTERNAL_USER', false, []),
]

/** A failed call as the API client throws it; `detail` is the error body's (field issues, for instance). */
export const failure = (status: number, message: string, detail?: unknown) =>
  Object.assign(new Error(message), { status, ...(detail === undefined ? {} : { detail }) })
/** `PUT /admin/company/{id}` refused: the expense scanner address is already in use. */
export const scannerTaken = failure(409, 'A scanner address is already in use', [
  {
    field: 'expense_scanner',
    message: 'This address is already the invoice or expense scanner of a company',
  },
])
export const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output })
export const error = (id: string, e: unknown) => ({ type: `xstate.error.actor.${id}`, error: e })

/** The invitation the invite-user tests send, and the events their graphs are walked with. */
export const inviteIdentity = {
  email: 'carol@example.com',
  name: 'Carol',
  surname: 'Test',
  role: 'CLIENT_USER' as const,
}
export const inviteEvents = {
  'company.add': [
    { type: 'company.add', companyId: 1, role: 'COMPANY_USER' },
    { type: 'company.add', companyId: null, role: 'COMPANY_USER' },
    { type: 'company.add', companyId: 2, role: '' },
  ],
  'company.remove': [{ type: 'company.remove', companyId: 1 }],
  'invite.submit': [
    { type: 'invite.submit', values: { ...inviteIdentity, email: ' Carol@Example.com ' } },
    { type: 'invite.submit', values: { email: 'not-an-email', name: 'C', surname: 'Test', role: '' } },
  ],
  'xstate.done.actor.invite': [done('invite', undefined)],
  'xstate.error.actor.invite': [error('invite', failure(409, 'A user with this e-mail already exists'))],
}

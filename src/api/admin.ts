/**
 * The administration calls: companies, users, memberships
 * and company logos. Answers that are read are validated; writes whose answer the app does not
 * read ignore it (the lists are fetched again afterwards).
 */
import * as v from 'valibot'
import {
  AdminUser,
  Company,
  type CompanyRole,
  CompanyUser,
  type GlobalRole,
  LogoUploadResult,
  type UpdateCompanyInput,
} from '../../contract'
import type { Http } from './http'

/** The invite payload in the contract's list reading: a global role and company memberships. */
export type InviteUserPayload = {
  email: string
  name: string
  surname: string
  role: GlobalRole
  companies: { company_id: number; role: CompanyRole }[]
}

export type UpdateUserPayload = { name: string; surname: string; role: GlobalRole; enabled?: boolean }

export function createAdminApi(http: Http, config: { baseUrl: string; now?: () => number }) {
  const base = config.baseUrl.endsWith('/') ? config.baseUrl.slice(0, -1) : config.baseUrl
  const now = config.now ?? Date.now
  return {
    // Companies
    listCompanies: () => http.json('admin/company', v.array(Company)),
    getCompany: (id: number) => http.json(`admin/company/${id}`, Company),
    createCompany: (input: { name: string }) =>
      http.send('admin/company', { method: 'post', json: { name: input.name } }),
    updateCompany: (id: number, input: UpdateCompanyInput) =>
      http.send(`admin/company/${id}`, { method: 'put', json: input }),
    setCompanyStatus: (id: number, enabled: boolean) =>
      http.send(`admin/company/${id}/status`, { method: 'post', json: { enabled } }),

    // Logos
    uploadLogo: (id: number, file: Blob, fileName = 'logo') => {
      const body = new FormData()
      body.append('file', file, fileName)
      return http.upload(`companies/company/logo/${id}`, body, LogoUploadResult)
    },
    /** The logo's address; the time parameter makes a just-uploaded logo bypass any cached one. */
    logoUrl: (id: number, at: number = now()) => `${base}/companies/company/logo/${id}?t=${at}`,

    // Users
    listUsers: () => http.json('admin/users', v.array(AdminUser)),
    /** Users of one company (company administrators and the edit sheet). */
    companyUsers: (companyId: number) =>
      http.json('companies/company/users', v.array(CompanyUser), { searchParams: { company_id: companyId } }),
    inviteUser: (input: InviteUserPayload) =>
      http.send('admin/invite-user/', { method: 'post', json: input }),
    setUserStatus: (email: string, enabled: boolean) =>
      http.send('admin/user/status', { method: 'post', json: { user_email: email, enabled } }),
    updateUser: (id: number, input: UpdateUserPayload) =>
      http.send(`admin/user/${id}`, { method: 'put', json: input }),

    // Memberships
    addUserToCompany: (input: { email: string; companyId: number; role: CompanyRole }) =>
      http.send('admin/user-company', {
        method: 'post',
        json: { user_email: input.email, company_id: input.companyId, role: input.role },
      }),
    removeUserFromCompany: (input: { email: string; companyId: number }) =>
      http.send('admin/user-company', {
        method: 'delete',
        searchParams: { user_email: input.email, company_id: input.companyId },
      }),
  }
}
export type AdminApi = ReturnType<typeof createAdminApi>

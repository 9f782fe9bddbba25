/** The signed-in user's companies, a company's members, and company logos. */
import * as v from 'valibot'
import { CompanyUser, MyCompany } from '../../contract'
import type { Http } from './http'

export function createCompaniesApi(http: Http) {
  return {
    /** GET /users/companies: the companies the user works in. */
    mine: () => http.json('users/companies', v.array(MyCompany)),
    /** GET companies/company/users: the members of a company the user belongs to. */
    users: (companyId: number) =>
      http.json('companies/company/users', v.array(CompanyUser), { searchParams: { company_id: companyId } }),
    /** The logo's address; `version` (the `t` query parameter) busts caches after an upload. */
    logoUrl: (companyId: number, version: string | number) =>
      `${http.url(`companies/company/logo/${companyId}`)}?t=${encodeURIComponent(String(version))}`,
  }
}

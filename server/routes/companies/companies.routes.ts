/**
 * The company context of a signed-in user: `GET /users/companies` (the switcher),
 * `GET /companies/company/users` (company administrators) and the company logo (upload: platform
 * administrators; fetch: members).
 */
import { Hono } from 'hono'
import * as v from 'valibot'
import { CompanyUser, LogoUploadResult, MyCompany } from '../../../contract/index.ts'
import { requireSaasAdmin, requireUser } from '../../http/auth.ts'
import { refuseApiToken } from '../../http/bearer.ts'
import { COMPANY_NOT_FOUND, requireCompanyMember, requireCompanyOfPath } from '../../http/company-access.ts'
import type { AppEnv } from '../../http/context.ts'
import { binary, describe, documentedInput, json, pathId } from '../../http/openapi.ts'
import { myCompanies } from '../../services/companies.ts'
import { type CompanyRouteDeps, listCompanyUsers, readLogo, uploadLogo } from './companies.handlers.ts'

export type { CompanyRouteDeps } from './companies.handlers.ts'

export function companyRoutes(deps: CompanyRouteDeps) {
  const { db, sessions } = deps
  const signedIn = requireUser(sessions)
  const tags = ['Companies']

  return (
    new Hono<AppEnv>()
      .get(
        '/users/companies',
        describe({
          tags,
          summary: "The signed-in user's companies",
          responses: { 200: json(v.array(MyCompany)) },
        }),
        signedIn,
        async (c) => c.json(await myCompanies(db, c.var.user)),
      )
      .get(
        '/companies/company/users',
        describe({ tags, summary: 'The users of a company', responses: { 200: json(v.array(CompanyUser)) } }),
        signedIn,
        requireCompanyMember(db, { fromBody: false }),
        (c) => listCompanyUsers(deps, c),
      )
      // Platform administration, like `/admin/*`: never with an API token.
      .post(
        '/companies/company/logo/:id',
        describe({
          tags,
          summary: "Replaces the company's logo",
          responses: { 200: json(LogoUploadResult) },
        }),
        signedIn,
        refuseApiToken,
        requireSaasAdmin,
        pathId(COMPANY_NOT_FOUND),
        documentedInput('form', v.object({ file: v.pipe(v.file(), v.metadata({ format: 'binary' })) })),
        (c) => uploadLogo(deps, c),
      )
      // Any query string (the client's cache-busting `?t=`) is ignored.
      .get(
        '/companies/company/logo/:id',
        describe({
          tags,
          summary: "The company's logo",
          responses: { 200: binary('image/png', 'The logo, with its own type') },
        }),
        signedIn,
        requireCompanyOfPath(db),
        (c) => readLogo(deps, c),
      )
  )
}

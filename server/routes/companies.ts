/**
 * The company context of a signed-in user: their companies (the switcher), the users of one
 * company (company administrators), and company logos (upload: platform administrators; fetch:
 * members). Logos are checked by their first bytes (JPEG, PNG, GIF), limited in size, and served
 * with the detected type, `nosniff` and `inline`, so an upload can never be served as a page.
 */
import { Hono } from 'hono'
import { contractMessages, LOGO_MAX_BYTES, LOGO_TYPE_MESSAGE, LOGO_TYPES } from '../../contract/index.ts'
import { requireUser } from '../http/auth.ts'
import { refuseApiToken } from '../http/bearer.ts'
import { COMPANY_NOT_FOUND, findCompanyAccess, requireCompanyAccess } from '../http/company-access.ts'
import type { AppEnv } from '../http/context.ts'
import { HttpError, parsePathId } from '../http/errors.ts'
import { companyUsers, findCompanyRow, logoPathOf, myCompanies, replaceLogo } from '../services/companies.ts'
import { type SniffedType, sniff } from '../services/documents/ingest.ts'
import { receiveUpload } from '../services/documents/upload.ts'
import { type AdminRouteDeps, requireSaasAdmin } from './admin.ts'

const logoTypes: readonly SniffedType[] = LOGO_TYPES

export function companyRoutes(deps: AdminRouteDeps) {
  const { db, sessions, storage, logger } = deps
  const signedIn = requireUser(sessions)

  return (
    new Hono<AppEnv>()
      .get('/users/companies', signedIn, async (c) => c.json(await myCompanies(db, c.var.user)))

      .get('/companies/company/users', signedIn, async (c) => {
        const access = await requireCompanyAccess(db, c.var.user, c.req.query('company_id'))
        if (c.var.user.role !== 'SAAS_ADMIN' && access.role !== 'COMPANY_ADMIN') {
          throw new HttpError(403, 'Only company administrators can list the users of their company')
        }
        return c.json(await companyUsers(db, access.companyId))
      })

      // Platform administration, like `/admin/*`: never with an API token.
      .post('/companies/company/logo/:id', signedIn, refuseApiToken, requireSaasAdmin, async (c) => {
        const id = parsePathId(c.req.param('id'), COMPANY_NOT_FOUND)
        if (!(await findCompanyRow(db, id))) throw new HttpError(404, COMPANY_NOT_FOUND)
        const { file } = await receiveUpload(c, {
          storage,
          maxBytes: LOGO_MAX_BYTES,
          authorize: async () => {},
          checkType: (sniffed) => {
            if (!logoTypes.includes(sniffed)) throw new HttpError(415, LOGO_TYPE_MESSAGE)
          },
        })
        if (!file)
          throw new HttpError(400, contractMessages.invalidInput, [
            { field: 'file', message: 'A file is required' },
          ])
        const replaced = await replaceLogo(db, id, file.key).catch(async (error) => {
          await storage.delete(file.key).catch(() => {})
          throw error
        })
        if (!replaced) {
          await storage.delete(file.key).catch(() => {})
          throw new HttpError(404, COMPANY_NOT_FOUND)
        }
        if (replaced.previous) {
          await storage
            .delete(replaced.previous)
            .catch((error) => logger.warn({ err: error }, 'old logo delete failed'))
        }
        logger.info(
          { reqId: c.var.requestId, companyId: id, size: file.size, type: file.sniffed },
          'logo uploaded',
        )
        return c.json({
          message: 'Logo uploaded successfully',
          logo_path: logoPathOf({ id, logoPath: file.key })!,
        })
      })

      // Any query string (the client's cache-busting `?t=`) is ignored.
      .get('/companies/company/logo/:id', signedIn, async (c) => {
        const id = parsePathId(c.req.param('id'), COMPANY_NOT_FOUND)
        const access = await findCompanyAccess(db, c.var.user, id)
        if (!access) throw new HttpError(404, COMPANY_NOT_FOUND)
        const row = await findCompanyRow(db, id)
        if (!row?.logoPath) throw new HttpError(404, 'Logo not found')
        const body = await storage.read(row.logoPath).catch(() => null)
        const type = body ? sniff(body.subarray(0, 8)) : null
        if (!body || !type || !logoTypes.includes(type)) throw new HttpError(404, 'Logo not found')
        c.header('Content-Type', type)
        c.header('Content-Length', String(body.length))
        c.header('Content-Disposition', 'inline')
        c.header('X-Content-Type-Options', 'nosniff')
        return c.body(new Uint8Array(body), 200)
      })
  )
}

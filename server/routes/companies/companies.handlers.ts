/**
 * The company context of a signed-in user: their companies (the switcher), the users of one
 * company (company administrators), and company logos. Logos are checked by their first bytes
 * (JPEG, PNG, GIF), limited in size, and served with the detected type, `nosniff` and `inline`,
 * so an upload can never be served as a page.
 */
import type { Context } from 'hono'
import { contractMessages, LOGO_MAX_BYTES, LOGO_TYPE_MESSAGE, LOGO_TYPES } from '../../../contract/index.ts'
import type { CompanyEnv } from '../../http/company-access.ts'
import { COMPANY_NOT_FOUND } from '../../http/company-access.ts'
import type { AppEnv, RouteDeps } from '../../http/context.ts'
import { HttpError } from '../../http/errors.ts'
import { companyUsers, findCompanyRow, logoPathOf, replaceLogo } from '../../services/companies.ts'
import { type SniffedType, sniff } from '../../services/documents/ingest.ts'
import { receiveUpload } from '../../services/documents/upload.ts'
import type { FileStorage } from '../../services/storage/index.ts'

export interface CompanyRouteDeps extends RouteDeps {
  storage: FileStorage
}

const logoTypes: readonly SniffedType[] = LOGO_TYPES

/** The users of `c.var.company`, for its administrators (and platform administrators). */
export async function listCompanyUsers({ db }: RouteDeps, c: Context<CompanyEnv>) {
  if (c.var.user.role !== 'SAAS_ADMIN' && c.var.company.role !== 'COMPANY_ADMIN') {
    throw new HttpError(403, 'Only company administrators can list the users of their company')
  }
  return c.json(await companyUsers(db, c.var.company.companyId))
}

/** Stores the multipart `file` as the company's logo and deletes the one it replaces. */
export async function uploadLogo(
  { db, storage, logger }: CompanyRouteDeps,
  c: Context<AppEnv, string, { out: { param: { id: number } } }>,
) {
  const { id } = c.req.valid('param')
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
  logger.info({ reqId: c.var.requestId, companyId: id, size: file.size, type: file.sniffed }, 'logo uploaded')
  return c.json({
    message: 'Logo uploaded successfully',
    logo_path: logoPathOf({ id, logoPath: file.key })!,
  })
}

/** The logo of `c.var.company`, with the type its bytes show. */
export async function readLogo({ db, storage }: CompanyRouteDeps, c: Context<CompanyEnv>) {
  const row = await findCompanyRow(db, c.var.company.companyId)
  if (!row?.logoPath) throw new HttpError(404, 'Logo not found')
  const body = await storage.read(row.logoPath).catch(() => null)
  const type = body ? sniff(body.subarray(0, 8)) : null
  if (!body || !type || !logoTypes.includes(type)) throw new HttpError(404, 'Logo not found')
  c.header('Content-Type', type)
  c.header('Content-Length', String(body.length))
  c.header('Content-Disposition', 'inline')
  c.header('X-Content-Type-Options', 'nosniff')
  return c.body(new Uint8Array(body), 200)
}

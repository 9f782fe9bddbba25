/**
 * Settings → API tokens: create (the token shown this once; a year when `expires_at` is absent,
 * at most a year), list (never the token) and revoke, for the signed-in user's own tokens.
 */
import type { Context } from 'hono'
import type * as v from 'valibot'
import {
  type ApiTokenSummary,
  apiTokenExpiryProblem,
  apiTokenMessages,
  type CreateApiTokenInput,
  type CreatedApiToken,
  latestApiTokenExpiry,
} from '../../../contract/api-tokens.ts'
import { contractMessages } from '../../../contract/index.ts'
import type { ApiTokenRow } from '../../db/schema.ts'
import type { AppEnv, RouteDeps } from '../../http/context.ts'
import { HttpError } from '../../http/errors.ts'

const summary = (row: ApiTokenRow): ApiTokenSummary => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
  expires_at: row.expiresAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
})

export async function listTokens({ apiTokens }: RouteDeps, c: Context<AppEnv>) {
  const rows = await apiTokens.list(c.var.user.id)
  return c.json(rows.map(summary))
}

export async function createToken(
  { apiTokens, clock, logger }: RouteDeps,
  c: Context<AppEnv, string, { out: { json: v.InferOutput<typeof CreateApiTokenInput> } }>,
) {
  const input = c.req.valid('json')
  const now = clock()
  const expiresAt = input.expires_at ?? latestApiTokenExpiry(now)
  const problem = apiTokenExpiryProblem(expiresAt, now)
  if (problem)
    throw new HttpError(400, contractMessages.invalidInput, [{ field: 'expires_at', message: problem }])
  const issued = await apiTokens.issue(c.var.user.id, input.name, expiresAt)
  if (!issued) throw new HttpError(409, apiTokenMessages.limit)
  logger.info({ reqId: c.var.requestId, userId: c.var.user.id, tokenId: issued.row.id }, 'API token created')
  const created: CreatedApiToken = {
    id: issued.row.id,
    name: issued.row.name,
    token: issued.token,
    expires_at: issued.row.expiresAt.toISOString(),
  }
  return c.json(created, 201)
}

export async function revokeToken(
  { apiTokens, logger }: RouteDeps,
  c: Context<AppEnv, string, { out: { param: { id: number } } }>,
) {
  const { id } = c.req.valid('param')
  if (!(await apiTokens.revoke(c.var.user.id, id))) throw new HttpError(404, apiTokenMessages.notFound)
  logger.info({ reqId: c.var.requestId, userId: c.var.user.id, tokenId: id }, 'API token revoked')
  return c.body(null, 204)
}

/**
 * Settings → API tokens: `POST /settings/api-tokens` `{name, expires_at?}` → 201 `{id, name, token,
 * expires_at}` (the token, shown this once; a year when `expires_at` is absent, at most a year),
 * `GET /settings/api-tokens` → `[{id, name, created_at, expires_at, last_used_at}]` (never the token)
 * and `DELETE /settings/api-tokens/{id}` → 204. For a signed-in browser only: a bearer token cannot
 * manage tokens (403), so a leaked token cannot mint itself successors.
 */
import { Hono } from 'hono'
import {
  type ApiTokenSummary,
  apiTokenExpiryProblem,
  apiTokenMessages,
  CreateApiTokenInput,
  type CreatedApiToken,
  latestApiTokenExpiry,
} from '../../contract/api-tokens.ts'
import { contractMessages } from '../../contract/index.ts'
import type { ApiTokenRow } from '../db/schema.ts'
import { requireUser } from '../http/auth.ts'
import { refuseApiToken } from '../http/bearer.ts'
import type { AppEnv, RouteDeps } from '../http/context.ts'
import { HttpError, parse, parsePathId, readJson } from '../http/errors.ts'

const summary = (row: ApiTokenRow): ApiTokenSummary => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
  expires_at: row.expiresAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
})

export function apiTokenRoutes({ sessions, apiTokens, clock, logger }: RouteDeps) {
  const signedIn = requireUser(sessions)
  return new Hono<AppEnv>()
    .use('/settings/api-tokens', signedIn, refuseApiToken)
    .use('/settings/api-tokens/*', signedIn, refuseApiToken)
    .get('/settings/api-tokens', async (c) => {
      const rows = await apiTokens.list(c.var.user.id)
      return c.json(rows.map(summary))
    })
    .post('/settings/api-tokens', async (c) => {
      const input = parse(CreateApiTokenInput, await readJson(c))
      const now = clock()
      const expiresAt = input.expires_at ?? latestApiTokenExpiry(now)
      const problem = apiTokenExpiryProblem(expiresAt, now)
      if (problem)
        throw new HttpError(400, contractMessages.invalidInput, [{ field: 'expires_at', message: problem }])
      const issued = await apiTokens.issue(c.var.user.id, input.name, expiresAt)
      if (!issued) throw new HttpError(409, apiTokenMessages.limit)
      logger.info(
        { reqId: c.var.requestId, userId: c.var.user.id, tokenId: issued.row.id },
        'API token created',
      )
      const created: CreatedApiToken = {
        id: issued.row.id,
        name: issued.row.name,
        token: issued.token,
        expires_at: issued.row.expiresAt.toISOString(),
      }
      return c.json(created, 201)
    })
    .delete('/settings/api-tokens/:id', async (c) => {
      const id = parsePathId(c.req.param('id'), apiTokenMessages.notFound)
      if (!(await apiTokens.revoke(c.var.user.id, id))) throw new HttpError(404, apiTokenMessages.notFound)
      logger.info({ reqId: c.var.requestId, userId: c.var.user.id, tokenId: id }, 'API token revoked')
      return c.body(null, 204)
    })
}

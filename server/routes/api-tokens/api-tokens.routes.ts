/**
 * Settings → API tokens: `POST /settings/api-tokens` `{name, expires_at?}` → 201 `{id, name, token,
 * expires_at}`, `GET /settings/api-tokens` → `[{id, name, created_at, expires_at, last_used_at}]`
 * and `DELETE /settings/api-tokens/{id}` → 204. For a signed-in browser only: a bearer token cannot
 * manage tokens (403), so a leaked token cannot mint itself successors.
 */
import { Hono } from 'hono'
import * as v from 'valibot'
import {
  ApiTokenSummary,
  apiTokenMessages,
  CreateApiTokenInput,
  CreatedApiToken,
} from '../../../contract/api-tokens.ts'
import { requireUser } from '../../http/auth.ts'
import { refuseApiToken } from '../../http/bearer.ts'
import type { AppEnv, RouteDeps } from '../../http/context.ts'
import { describe, json, pathId, validate } from '../../http/openapi.ts'
import { createToken, listTokens, revokeToken } from './api-tokens.handlers.ts'

const tags = ['API tokens']

export function apiTokenRoutes(deps: RouteDeps) {
  const signedIn = requireUser(deps.sessions)
  return new Hono<AppEnv>()
    .use('/settings/api-tokens', signedIn, refuseApiToken)
    .use('/settings/api-tokens/*', signedIn, refuseApiToken)
    .get(
      '/settings/api-tokens',
      describe({
        tags,
        summary: "The user's tokens (never the token itself)",
        responses: { 200: json(v.array(ApiTokenSummary)) },
      }),
      (c) => listTokens(deps, c),
    )
    .post(
      '/settings/api-tokens',
      describe({
        tags,
        summary: 'Creates a token (shown only in this answer)',
        responses: { 201: json(CreatedApiToken, 'Created') },
      }),
      validate('json', CreateApiTokenInput),
      (c) => createToken(deps, c),
    )
    .delete(
      '/settings/api-tokens/:id',
      describe({ tags, summary: 'Revokes a token', responses: { 204: { description: 'Revoked' } } }),
      pathId(apiTokenMessages.notFound),
      (c) => revokeToken(deps, c),
    )
}

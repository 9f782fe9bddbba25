/** Settings → API tokens: list, create (the token comes back this once) and revoke. */
import * as v from 'valibot'
import { ApiTokenSummary, CreatedApiToken } from '../../contract/api-tokens'
import type { Http } from './http'

export function createApiTokensApi(http: Http) {
  return {
    list: () => http.json('settings/api-tokens', v.array(ApiTokenSummary)),
    /** Without `expires_at` the server gives the token a year. */
    create: (input: { name: string; expires_at?: string }) =>
      http.json('settings/api-tokens', CreatedApiToken, { method: 'post', json: input }),
    revoke: (id: number) => http.send(`settings/api-tokens/${id}`, { method: 'delete' }),
  }
}
export type ApiTokensApi = ReturnType<typeof createApiTokensApi>

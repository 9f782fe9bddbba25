/**
 * Fills the API tokens machine from the tokens API, the clipboard and the notices. Loaded with the
 * settings section's chunk (`AppActors.loadApiTokens`).
 */
import { fromPromise } from 'xstate'
import type { ApiTokensApi } from '../../api/api-tokens'
import { type Notify, notice } from '../shared/notice'
import { apiTokensMachine } from './api-tokens.machine'

const DAY_MS = 24 * 60 * 60 * 1000
/** The longest life (a year) is the server's default: sent without an expiry. */
const DEFAULT_LIFETIME_DAYS = 365

export type ApiTokensDeps = {
  apiTokens: ApiTokensApi
  notify: Notify
  clipboard: Pick<Clipboard, 'writeText'>
  now?: () => number
}

export function createApiTokensImplementations({
  apiTokens,
  notify,
  clipboard,
  now = Date.now,
}: ApiTokensDeps) {
  return {
    apiTokens: apiTokensMachine.provide({
      actors: {
        loadTokens: fromPromise(() => apiTokens.list()),
        createToken: fromPromise(({ input }) =>
          apiTokens.create(
            input.lifetime === DEFAULT_LIFETIME_DAYS
              ? { name: input.name }
              : { name: input.name, expires_at: new Date(now() + input.lifetime * DAY_MS).toISOString() },
          ),
        ),
        copyToken: fromPromise(({ input }) => clipboard.writeText(input.text)),
        revokeToken: fromPromise(({ input }) => apiTokens.revoke(input.id)),
      },
      actions: {
        // A refusal says why (its code, translated); a server failure only that it failed.
        notify: (_, { notice: code, failure }) =>
          notify(notice(`apiTokens.${code}`, failure && failure.status < 500 ? { failure } : {})),
      },
    }),
  }
}
export type ApiTokensMachines = ReturnType<typeof createApiTokensImplementations>

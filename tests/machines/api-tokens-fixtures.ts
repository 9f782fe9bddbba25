/** What the API tokens machine and view tests share: a listed token, a created one, the invoke outcomes. */
import type { ApiTokenSummary, CreatedApiToken } from '../../contract/api-tokens'
import { done, error, failure } from '../support/fixtures'

export const tokens: ApiTokenSummary[] = [
  {
    id: 4,
    name: 'Nightly export',
    created_at: '2026-03-10T09:00:00.000Z',
    expires_at: '2099-03-10T09:00:00.000Z',
    last_used_at: null,
  },
]

export const created: CreatedApiToken = {
  id: 5,
  name: 'Uploader',
  token: `dft_${'a'.repeat(43)}`,
  expires_at: '2099-03-10T09:00:00.000Z',
}

/** The four invoked actors, each settling once with its output and once with a failure. */
export const invokeOutcomes = {
  'xstate.done.actor.loadTokens': [done('loadTokens', tokens)],
  'xstate.error.actor.loadTokens': [error('loadTokens', failure(500, 'Internal server error'))],
  'xstate.done.actor.createToken': [done('createToken', created)],
  'xstate.error.actor.createToken': [
    error('createToken', failure(409, 'Too many API tokens: revoke one first')),
  ],
  'xstate.done.actor.copyToken': [done('copyToken', undefined)],
  'xstate.error.actor.copyToken': [error('copyToken', new Error('denied'))],
  'xstate.done.actor.revokeToken': [done('revokeToken', undefined)],
  'xstate.error.actor.revokeToken': [error('revokeToken', failure(404, 'API token not found'))],
}

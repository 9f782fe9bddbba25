/**
 * Settings → API tokens: `loading` → `list` (or `failed`, retry). From the list a token is created
 * (`creating`) and then `shown` once, with a copy button, until the user puts it away (the token
 * leaves the context and the list reloads); a token is revoked after a confirmation (`confirmingRevoke`
 * → `revoking` → the list reloads).
 */
import * as v from 'valibot'
import { assign, setup } from 'xstate'
import {
  ApiTokenName,
  type ApiTokenSummary,
  apiTokenMessages,
  type CreatedApiToken,
} from '../../../contract/api-tokens'
import { type CallFailure, failureOf, toFailure } from '../shared/failure'
import {
  checkedSubmit,
  type FieldErrors,
  type FormValues,
  isValidForm,
  parsedValues,
  refusedValues,
} from '../shared/form'
import { promisePlaceholder } from '../shared/placeholder'

/** Toasts: copying and revoking. A failed load or creation shows in the section itself. */
export type ApiTokensNotice = 'copied' | 'copyFailed' | 'revoked' | 'revokeFailed'

/** The lives a new token can be given, in days; a year, the longest, is the default. */
export const TOKEN_LIFETIMES = ['7', '30', '90', '365'] as const

const NewTokenForm = v.object({
  name: ApiTokenName,
  lifetime: v.pipe(v.picklist(TOKEN_LIFETIMES, apiTokenMessages.expiryInvalid), v.transform(Number)),
})
export type NewToken = v.InferOutput<typeof NewTokenForm>

export type ApiTokensEvent =
  | { type: 'list.retry' }
  | { type: 'token.create'; values: FormValues }
  | { type: 'token.copy' }
  | { type: 'token.dismiss' }
  | { type: 'token.revoke'; id: number }
  | { type: 'revoke.confirm' }
  | { type: 'revoke.cancel' }

export type ApiTokensContext = {
  tokens: ApiTokenSummary[]
  /** The token just created: shown once, forgotten when the user puts it away. */
  created: CreatedApiToken | null
  /** The new token's form values, once valid. */
  draft: NewToken | null
  formErrors: FieldErrors<keyof NewToken>
  /** Why the last creation was refused or failed (shown by the form). */
  failure: CallFailure | null
  /** The token to revoke. */
  selectedId: number | null
}

/** `notify` params after a failed call: the notice and the call's failure. */
const failedNotice =
  (notice: ApiTokensNotice) =>
  ({ event }: { event: { error?: unknown } }) => ({ notice, failure: toFailure(event.error) })

export const selectedToken = (context: ApiTokensContext): ApiTokenSummary | null =>
  context.tokens.find((t) => t.id === context.selectedId) ?? null

export const apiTokensMachine = setup({
  types: {} as { context: ApiTokensContext; events: ApiTokensEvent },
  actors: {
    loadTokens: promisePlaceholder<ApiTokenSummary[]>('loadTokens'),
    createToken: promisePlaceholder<CreatedApiToken, NewToken>('createToken'),
    copyToken: promisePlaceholder<void, { text: string }>('copyToken'),
    revokeToken: promisePlaceholder<void, { id: number }>('revokeToken'),
  },
  actions: {
    notify: (_, _params: { notice: ApiTokensNotice; failure?: CallFailure }) => {},
  },
  guards: {
    hasValidDraft: ({ event }) => event.type === 'token.create' && isValidForm(NewTokenForm, event.values),
    isKnownToken: ({ context, event }) =>
      event.type === 'token.revoke' && context.tokens.some((t) => t.id === event.id),
  },
}).createMachine({
  id: 'apiTokens',
  context: { tokens: [], created: null, draft: null, formErrors: {}, failure: null, selectedId: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy', 'loading'],
      invoke: {
        id: 'loadTokens',
        src: 'loadTokens',
        onDone: { target: 'list', actions: assign({ tokens: ({ event }) => event.output, failure: null }) },
        onError: 'failed',
      },
    },
    failed: { on: { 'list.retry': 'loading' } },
    list: {
      on: {
        'token.create': checkedSubmit({
          guard: 'hasValidDraft',
          target: 'creating',
          accept: assign({ draft: parsedValues(NewTokenForm), formErrors: {}, failure: null }),
          refuse: assign({ formErrors: refusedValues(NewTokenForm) }),
        }),
        'token.revoke': {
          guard: 'isKnownToken',
          target: 'confirmingRevoke',
          actions: assign({ selectedId: ({ event }) => event.id }),
        },
      },
    },
    creating: {
      tags: ['busy', 'creating'],
      invoke: {
        id: 'createToken',
        src: 'createToken',
        input: ({ context }) => context.draft!,
        onDone: {
          target: 'shown',
          actions: assign({ created: ({ event }) => event.output, draft: null }),
        },
        onError: {
          target: 'list',
          description:
            'Refused (a name the server will not take, too many tokens) or failed: the form stays.',
          actions: assign({ failure: ({ event }) => failureOf(event) }),
        },
      },
    },
    shown: {
      description: 'The new token, shown this once: copied or not, it is gone once put away.',
      initial: 'idle',
      on: { 'token.dismiss': { target: 'loading', actions: assign({ created: null }) } },
      states: {
        idle: { on: { 'token.copy': 'copying' } },
        copying: {
          invoke: {
            id: 'copyToken',
            src: 'copyToken',
            input: ({ context }) => ({ text: context.created!.token }),
            onDone: { target: 'idle', actions: { type: 'notify', params: { notice: 'copied' } } },
            onError: { target: 'idle', actions: { type: 'notify', params: { notice: 'copyFailed' } } },
          },
        },
      },
    },
    confirmingRevoke: {
      on: {
        'revoke.confirm': 'revoking',
        'revoke.cancel': { target: 'list', actions: assign({ selectedId: null }) },
      },
    },
    revoking: {
      tags: ['busy', 'revoking'],
      invoke: {
        id: 'revokeToken',
        src: 'revokeToken',
        input: ({ context }) => ({ id: context.selectedId! }),
        onDone: {
          target: 'loading',
          actions: [
            assign({ selectedId: null, failure: null }),
            { type: 'notify', params: { notice: 'revoked' } },
          ],
        },
        onError: {
          target: 'list',
          actions: [assign({ selectedId: null }), { type: 'notify', params: failedNotice('revokeFailed') }],
        },
      },
    },
  },
})

export type ApiTokensMachine = typeof apiTokensMachine

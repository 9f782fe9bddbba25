/**
 * Setting up 2FA (/setup-2fa): `intro` (start, or skip with a confirmation) → `qrcode` (QR, backup
 * codes, copy-all, manual secret) → `verify` (a 6-digit code) → `complete`; back between steps.
 */
import * as v from 'valibot'
import { assign, setup } from 'xstate'
import { SetupTokenForm, type User } from '../../../contract'
import { type CallFailure, failedCallNotice, toFailure } from '../shared/failure'
import { type FieldErrors, fieldErrorsOf, isValidForm } from '../shared/form'
import { promisePlaceholder } from '../shared/placeholder'

export type TwoFactorEnrollment = { qrDataUrl: string; backupCodes: string[]; secret: string }

export type TwoFactorSetupNotice =
  | 'setupSkipped'
  | 'codesCopied'
  | 'copyFailed'
  | 'setupComplete'
  | 'profileUpdated'
  | 'generateFailed'

export type TwoFactorSetupEvent =
  | { type: 'setup.start' }
  | { type: 'setup.skip' }
  | { type: 'skip.confirm' }
  | { type: 'skip.cancel' }
  | { type: 'codes.copy' }
  | { type: 'setup.next' }
  | { type: 'setup.back' }
  | { type: 'code.submit'; token: string }

export type TwoFactorSetupContext = {
  email: string
  enrollment: TwoFactorEnrollment | null
  failure: CallFailure | null
  copied: boolean
  token: string | null
  /** Validation message (English source text) of the code, from the last submit. */
  tokenErrors: FieldErrors<'token'>
}

export const twoFactorSetupMachine = setup({
  types: {} as { context: TwoFactorSetupContext; events: TwoFactorSetupEvent; input: { email: string } },
  actors: {
    generate: promisePlaceholder<TwoFactorEnrollment, { email: string }>('generate'),
    copyCodes: promisePlaceholder<void, { text: string }>('copyCodes'),
    verify: promisePlaceholder<void, { email: string; token: string }>('verify'),
    reloadUser: promisePlaceholder<User>('reloadUser'),
    /** Remembers on the server that the advice was skipped; answers the updated user. */
    skipAdvice: promisePlaceholder<User>('skipAdvice'),
  },
  actions: {
    notify: (_, _params: { notice: TwoFactorSetupNotice; message?: string }) => {},
    publishUser: (_, _params: { user: User }) => {},
    leave: () => {},
  },
  guards: {
    hasValidToken: ({ event }) =>
      event.type === 'code.submit' && isValidForm(SetupTokenForm, { token: event.token }),
  },
}).createMachine({
  id: 'twoFactorSetup',
  context: ({ input }) => ({
    email: input.email,
    enrollment: null,
    failure: null,
    copied: false,
    token: null,
    tokenErrors: {},
  }),
  initial: 'intro',
  states: {
    intro: {
      tags: ['step:intro'],
      initial: 'idle',
      states: {
        idle: {
          on: {
            'setup.start': 'generating',
            'setup.skip': 'confirmingSkip',
          },
        },
        confirmingSkip: {
          description: "The 'Skip 2FA Setup?' dialog.",
          on: {
            'skip.cancel': 'idle',
            'skip.confirm': 'savingSkip',
          },
        },
        savingSkip: {
          tags: ['busy'],
          description: 'Sign-in stops advising 2FA until the user asks for it again in Settings.',
          invoke: {
            id: 'skipAdvice',
            src: 'skipAdvice',
            onDone: {
              target: '#twoFactorSetup.skipped',
              actions: [
                { type: 'publishUser', params: ({ event }) => ({ user: event.output }) },
                { type: 'notify', params: { notice: 'setupSkipped' } },
                'leave',
              ],
            },
            onError: {
              target: '#twoFactorSetup.skipped',
              description: 'Not remembered (offline): the advice comes back at the next sign-in.',
              actions: [{ type: 'notify', params: { notice: 'setupSkipped' } }, 'leave'],
            },
          },
        },
        generating: {
          tags: ['busy'],
          invoke: {
            id: 'generate',
            src: 'generate',
            input: ({ context }) => ({ email: context.email }),
            onDone: {
              target: '#twoFactorSetup.qrcode',
              actions: assign({ enrollment: ({ event }) => event.output, failure: null, copied: false }),
            },
            onError: {
              target: 'idle',
              actions: [
                assign({ failure: ({ event }) => toFailure(event.error) }),
                { type: 'notify', params: failedCallNotice('generateFailed') },
              ],
            },
          },
        },
      },
    },
    qrcode: {
      tags: ['step:qrcode'],
      initial: 'idle',
      on: {
        'setup.back': { target: '#twoFactorSetup.intro', actions: assign({ failure: null }) },
        'setup.next': { target: '#twoFactorSetup.verify', actions: assign({ failure: null }) },
      },
      states: {
        idle: { on: { 'codes.copy': 'copying' } },
        copying: {
          invoke: {
            id: 'copyCodes',
            src: 'copyCodes',
            input: ({ context }) => ({ text: context.enrollment?.backupCodes.join('\n') ?? '' }),
            onDone: {
              target: 'idle',
              actions: [assign({ copied: true }), { type: 'notify', params: { notice: 'codesCopied' } }],
            },
            onError: { target: 'idle', actions: { type: 'notify', params: { notice: 'copyFailed' } } },
          },
        },
      },
    },
    verify: {
      tags: ['step:verify'],
      initial: 'editing',
      entry: assign({ tokenErrors: {} }),
      states: {
        editing: {
          on: {
            'setup.back': { target: '#twoFactorSetup.qrcode', actions: assign({ failure: null }) },
            'code.submit': [
              {
                guard: 'hasValidToken',
                target: 'verifying',
                actions: assign({
                  token: ({ event }) => v.parse(SetupTokenForm, { token: event.token }).token,
                  tokenErrors: {},
                  failure: null,
                }),
              },
              {
                description: 'The code is too short or too long: shown by the field, nothing is sent.',
                actions: assign({
                  tokenErrors: ({ event }) => fieldErrorsOf<'token'>(SetupTokenForm, { token: event.token }),
                }),
              },
            ],
          },
        },
        verifying: {
          tags: ['busy'],
          invoke: {
            id: 'verify',
            src: 'verify',
            input: ({ context }) => ({ email: context.email, token: context.token ?? '' }),
            onDone: {
              target: '#twoFactorSetup.complete',
              actions: { type: 'notify', params: { notice: 'setupComplete' } },
            },
            onError: {
              target: 'editing',
              actions: assign({ failure: ({ event }) => toFailure(event.error) }),
            },
          },
        },
      },
    },
    complete: {
      tags: ['step:verify', 'busy'],
      description: 'Re-fetch the user (now is_2fa_enabled) for the session, then leave.',
      invoke: {
        id: 'reloadUser',
        src: 'reloadUser',
        onDone: {
          target: 'done',
          actions: [
            { type: 'publishUser', params: ({ event }) => ({ user: event.output }) },
            { type: 'notify', params: { notice: 'profileUpdated' } },
            'leave',
          ],
        },
        onError: { target: 'done', actions: 'leave' },
      },
    },
    done: { type: 'final' },
    skipped: { type: 'final' },
  },
})

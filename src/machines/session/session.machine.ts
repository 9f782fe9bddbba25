/**
 * The session and the login flow: `checking` the cookie on start, then `signedOut`
 * (idle → signingIn → [secondFactor: editing ⇄ verifying] → loadingUser) or `signedIn`
 * (idle, refreshing, signingOut). API calls, toasts and navigation are injected.
 */
import * as v from 'valibot'
import { assign, emit, setup } from 'xstate'
import { LoginInput, type LoginResult, SecondFactorCode, type User } from '../../../contract'
import { type CallFailure, toFailure } from '../shared/failure'
import { type FieldErrors, fieldErrorsOf, isValidForm } from '../shared/form'
import { promisePlaceholder } from '../shared/placeholder'

export type SecondFactor = { token: string; useBackupCode: boolean }

export type SessionNotice =
  | 'loggedIn'
  | 'loggedOut'
  | 'logoutFailed'
  | 'twoFactorRequired'
  | 'twoFactorAdvised'
  | 'userFetchFailed'
  | 'sessionExpired'

export type SessionContext = {
  user: User | null
  /** Why the last sign-in attempt failed, for the login screen. */
  loginFailure: CallFailure | null
  /** Validation messages (English source text) of the login fields, from the last attempt. */
  loginFieldErrors: FieldErrors<keyof LoginInput>
  /** Where to go after signing in (a same-origin path, validated by the login route). */
  redirectTo: string
  /** Credentials held only in memory while the second factor is asked (never in URL or storage). */
  pendingCredentials: LoginInput | null
  /** The code being checked while `verifying`. */
  pendingSecondFactor: SecondFactor | null
  /** Validation message (English source text) of the second-factor code, from the last attempt. */
  twoFactorFieldErrors: FieldErrors<'token'>
  /** Why the last second-factor attempt failed. */
  twoFactorFailure: CallFailure | null
  /** The server advised setting up 2FA: go through /setup-2fa after signing in. */
  adviseSetup: boolean
}

/** What the session tells listeners: signing in (the companies and saved language load) and out. */
export type SessionEmitted = { type: 'session.signedIn' } | { type: 'session.signedOut' }

export type SessionEvent =
  | { type: 'session.login'; email: string; password: string; redirectTo?: string }
  | { type: 'session.logout' }
  | { type: 'session.refresh' }
  | { type: 'session.expired' }
  | { type: 'session.reset' }
  | ({ type: 'twoFactor.submit' } & SecondFactor)
  | { type: 'session.userLoaded'; user: User }

const isUnauthorized = (error: unknown) => toFailure(error).status === 401

const credentialsOf = (event: { email: string; password: string }) => ({
  email: event.email,
  password: event.password,
})

export const sessionMachine = setup({
  types: {} as { context: SessionContext; events: SessionEvent; emitted: SessionEmitted },
  actors: {
    /** The start-up check: the signed-in user, or null without a session. */
    checkSession: promisePlaceholder<User | null>('checkSession'),
    fetchUser: promisePlaceholder<User>('fetchUser'),
    login: promisePlaceholder<LoginResult, LoginInput>('login'),
    logout: promisePlaceholder<void>('logout'),
    completeTwoFactorLogin: promisePlaceholder<void, LoginInput & SecondFactor>('completeTwoFactorLogin'),
  },
  actions: {
    notify: (_, _params: { notice: SessionNotice }) => {},
    /** `setupTwoFactor`: go through the 2FA setup first, then to `to`. */
    navigateAfterSignIn: (_, _params: { to: string; setupTwoFactor: boolean }) => {},
    /** `returnHere`: come back to the current page after signing in again (session expiry). */
    navigateToLogin: (_, _params: { returnHere: boolean }) => {},
    navigateToSecondFactor: () => {},
  },
  guards: {
    requiresTwoFactor: (_, output: LoginResult) => output.requires_2fa,
    advisesTwoFactorSetup: (_, output: LoginResult) => output.should_setup_2fa,
    isUnauthorized: (_, error: unknown) => isUnauthorized(error),
    hasValidCode: ({ event }) =>
      event.type === 'twoFactor.submit' && isValidForm(SecondFactorCode, { token: event.token }),
    hasValidCredentials: ({ event }) =>
      event.type === 'session.login' && isValidForm(LoginInput, credentialsOf(event)),
  },
}).createMachine({
  id: 'session',
  context: {
    user: null,
    loginFailure: null,
    loginFieldErrors: {},
    redirectTo: '/',
    pendingCredentials: null,
    twoFactorFailure: null,
    twoFactorFieldErrors: {},
    pendingSecondFactor: null,
    adviseSetup: false,
  },
  initial: 'checking',
  states: {
    checking: {
      tags: ['checking'],
      invoke: {
        id: 'checkSession',
        src: 'checkSession',
        onDone: [
          {
            guard: ({ event }) => event.output !== null,
            target: 'signedIn',
            actions: assign({ user: ({ event }) => event.output }),
          },
          { target: 'signedOut', description: 'No session: ask for credentials.' },
        ],
        onError: {
          target: 'signedOut',
          description: 'The check failed (offline): ask for credentials.',
        },
      },
    },
    signedOut: {
      entry: assign({ user: null, loginFieldErrors: {} }),
      initial: 'idle',
      states: {
        idle: {
          on: {
            'session.login': [
              {
                guard: 'hasValidCredentials',
                target: 'signingIn',
                actions: assign({
                  loginFailure: null,
                  loginFieldErrors: {},
                  twoFactorFailure: null,
                  adviseSetup: false,
                  pendingCredentials: ({ event }) => v.parse(LoginInput, credentialsOf(event)),
                  redirectTo: ({ event }) => event.redirectTo ?? '/',
                }),
              },
              {
                description: 'An e-mail or password breaks its rule: shown by the field, nothing is sent.',
                actions: assign({
                  loginFieldErrors: ({ event }) => fieldErrorsOf(LoginInput, credentialsOf(event)),
                }),
              },
            ],
          },
        },
        signingIn: {
          tags: ['busy'],
          invoke: {
            id: 'login',
            src: 'login',
            input: ({ context }) => context.pendingCredentials!,
            onDone: [
              {
                guard: { type: 'requiresTwoFactor', params: ({ event }) => event.output },
                target: 'secondFactor',
                actions: [
                  { type: 'notify', params: { notice: 'twoFactorRequired' } },
                  'navigateToSecondFactor',
                ],
                description:
                  'The server wants a second factor: keep the credentials in memory for that step.',
              },
              {
                guard: { type: 'advisesTwoFactorSetup', params: ({ event }) => event.output },
                target: 'loadingUser',
                actions: [
                  assign({ pendingCredentials: null, adviseSetup: true }),
                  { type: 'notify', params: { notice: 'twoFactorAdvised' } },
                ],
              },
              { target: 'loadingUser', actions: assign({ pendingCredentials: null }) },
            ],
            onError: {
              target: 'idle',
              actions: assign({
                loginFailure: ({ event }) => toFailure(event.error),
                pendingCredentials: null,
              }),
            },
          },
        },
        secondFactor: {
          description: 'The /two-factor step: a TOTP or backup code completes the sign-in.',
          initial: 'editing',
          entry: assign({ twoFactorFieldErrors: {} }),
          on: {
            'session.reset': {
              target: 'idle',
              description: 'Back to the login screen, forgetting the credentials.',
              actions: [
                assign({ pendingCredentials: null, twoFactorFailure: null }),
                { type: 'navigateToLogin', params: { returnHere: false } },
              ],
            },
          },
          states: {
            editing: {
              on: {
                'twoFactor.submit': [
                  {
                    guard: 'hasValidCode',
                    target: 'verifying',
                    actions: assign({
                      twoFactorFailure: null,
                      twoFactorFieldErrors: {},
                      pendingSecondFactor: ({ event }) => ({
                        token: v.parse(SecondFactorCode, { token: event.token }).token,
                        useBackupCode: event.useBackupCode,
                      }),
                    }),
                  },
                  {
                    description: 'The code is too short or too long: shown by the field, nothing is sent.',
                    actions: assign({
                      twoFactorFieldErrors: ({ event }) =>
                        fieldErrorsOf<'token'>(SecondFactorCode, { token: event.token }),
                    }),
                  },
                ],
              },
            },
            verifying: {
              tags: ['busy'],
              invoke: {
                id: 'completeTwoFactorLogin',
                src: 'completeTwoFactorLogin',
                input: ({ context }) => ({ ...context.pendingCredentials!, ...context.pendingSecondFactor! }),
                onDone: {
                  target: '#session.signedOut.loadingUser',
                  actions: assign({ pendingCredentials: null, pendingSecondFactor: null }),
                },
                onError: {
                  target: 'editing',
                  actions: assign({
                    twoFactorFailure: ({ event }) => toFailure(event.error),
                    pendingSecondFactor: null,
                  }),
                },
              },
            },
          },
        },
        loadingUser: {
          tags: ['busy'],
          invoke: {
            id: 'fetchUserAfterLogin',
            src: 'fetchUser',
            onDone: {
              target: '#session.signedIn',
              actions: [
                assign({ user: ({ event }) => event.output }),
                { type: 'notify', params: { notice: 'loggedIn' } },
                {
                  type: 'navigateAfterSignIn',
                  params: ({ context }) => ({ to: context.redirectTo, setupTwoFactor: context.adviseSetup }),
                },
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                assign({ loginFailure: ({ event }) => toFailure(event.error) }),
                { type: 'notify', params: { notice: 'userFetchFailed' } },
              ],
            },
          },
        },
      },
    },
    signedIn: {
      entry: emit({ type: 'session.signedIn' }),
      exit: emit({ type: 'session.signedOut' }),
      initial: 'idle',
      on: {
        'session.expired': {
          target: 'signedOut',
          actions: [
            { type: 'notify', params: { notice: 'sessionExpired' } },
            { type: 'navigateToLogin', params: { returnHere: true } },
          ],
        },
      },
      states: {
        idle: {
          on: {
            'session.refresh': 'refreshing',
            'session.logout': 'signingOut',
            'session.userLoaded': {
              actions: assign({ user: ({ event }) => event.user }),
              description: 'Another flow (2FA setup) re-fetched the user.',
            },
          },
        },
        refreshing: {
          invoke: {
            id: 'refreshUser',
            src: 'fetchUser',
            onDone: { target: 'idle', actions: assign({ user: ({ event }) => event.output }) },
            onError: [
              {
                guard: {
                  type: 'isUnauthorized',
                  params: ({ event }: { event: { error: unknown } }) => event.error,
                },
                target: '#session.signedOut',
                actions: [
                  { type: 'notify', params: { notice: 'sessionExpired' } },
                  { type: 'navigateToLogin', params: { returnHere: true } },
                ],
              },
              { target: 'idle', description: 'A failed refresh keeps the user we have.' },
            ],
          },
        },
        signingOut: {
          tags: ['busy'],
          invoke: {
            id: 'logout',
            src: 'logout',
            onDone: {
              target: '#session.signedOut',
              actions: [
                { type: 'notify', params: { notice: 'loggedOut' } },
                { type: 'navigateToLogin', params: { returnHere: false } },
              ],
            },
            onError: { target: 'idle', actions: { type: 'notify', params: { notice: 'logoutFailed' } } },
          },
        },
      },
    },
  },
})

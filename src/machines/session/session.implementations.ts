/**
 * The session flow's placeholders filled from its dependencies: the auth API, the notices and the
 * router. The session emits `session.signedIn` / `session.signedOut`; the shell and the uploads listen.
 */
import { type ActorRefFrom, fromPromise } from 'xstate'
import type { LoginInput } from '../../../contract'
import type { Api } from '../../api'
import type { Navigator } from '../shared/deps'
import { type Notify, notice } from '../shared/notice'
import { firstAdminMachine } from './first-admin.machine'
import { type SecondFactor, sessionMachine } from './session.machine'

export type SessionActor = ActorRefFrom<typeof sessionMachine>
export type FirstAdminActor = ActorRefFrom<typeof firstAdminMachine>

export type SessionDeps = {
  api: Pick<Api, 'auth'>
  notify: Notify
  navigate: Navigator
}

export function createSessionImplementations({ api, notify, navigate }: SessionDeps) {
  return {
    session: sessionMachine.provide({
      actors: {
        checkSession: fromPromise(async () => (await api.auth.session()).user),
        fetchUser: fromPromise(() => api.auth.loggedIn()),
        login: fromPromise(({ input }: { input: LoginInput }) => api.auth.login(input)),
        logout: fromPromise(() => api.auth.logout()),
        completeTwoFactorLogin: fromPromise(async ({ input }: { input: LoginInput & SecondFactor }) => {
          await api.auth.completeTwoFactorLogin(input)
        }),
      },
      actions: {
        notify: (_, { notice: code }) => notify(notice(`session.${code}`)),
        navigateAfterSignIn: (_, { to, setupTwoFactor }) =>
          navigate.toPath(
            setupTwoFactor ? `/setup-2fa${to === '/' ? '' : `?redirect=${encodeURIComponent(to)}`}` : to,
          ),
        navigateToLogin: (_, { returnHere }) => navigate.toLogin(returnHere),
        navigateToSecondFactor: () => navigate.toPath('/two-factor'),
      },
    }),
    firstAdmin: firstAdminMachine.provide({
      actors: {
        setupStatus: fromPromise(() => api.auth.setupStatus()),
        createFirstAdmin: fromPromise(({ input }) => api.auth.createFirstAdmin(input)),
      },
    }),
  }
}

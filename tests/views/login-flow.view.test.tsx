/** The session statechart (login → 2FA → app) replayed through the rendered login and /two-factor screens. */
import { render, screen } from '@testing-library/react'
import { useSelector } from '@xstate/react'
import { expect } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import type { User } from '../../contract'
import { firstAdminMachine } from '../../src/machines/session/first-admin.machine'
import type { SessionActor } from '../../src/machines/session/session.implementations'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { LoginView } from '../../src/ui/views/login-view'
import { CheckingAuthView } from '../../src/ui/views/status-views'
import { TwoFactorView } from '../../src/ui/views/two-factor-view'
import { ada, done, error, failure, loginResult } from '../support/fixtures'
import { inApp, testActors } from '../support/render'
import { describeViewModel } from '../support/view-model'

const user: User = { ...ada, role: 'CLIENT_USER' }
const unauthorized = failure(401, 'Invalid email or password')
const offline = failure(500, 'Failed to fetch')
const result = loginResult
const isDisabled = (element: HTMLElement) => (element as HTMLButtonElement).disabled

/** What the routes do: the session's state picks the screen. */
function LoginFlow({ session }: { session: SessionActor }) {
  const screenName = useSelector(session, (s) =>
    s.matches('checking')
      ? 'checking'
      : s.matches({ signedOut: 'secondFactor' })
        ? 'twoFactor'
        : s.matches('signedOut')
          ? 'login'
          : 'app',
  )
  if (screenName === 'checking') return <CheckingAuthView />
  if (screenName === 'twoFactor') return <TwoFactorView />
  if (screenName === 'login') return <LoginView redirectTo="/" />
  return <p>Signed in as {session.getSnapshot().context.user?.email}</p>
}

const firstAdmin = firstAdminMachine.provide({
  actors: { setupStatus: fromPromise(async () => ({ needs_first_admin: false as boolean })) },
})

describeViewModel('login flow screens', {
  machine: sessionMachine,
  actors: ['checkSession', 'fetchUser', 'login', 'logout', 'completeTwoFactorLogin'],
  mount: (machine, inspect) => {
    const session = createActor(machine, { inspect }) as unknown as SessionActor
    session.start()
    return {
      actor: session,
      element: inApp(<LoginFlow session={session} />, {
        ...testActors({ session }),
        machines: { firstAdmin } as never,
      }),
    }
  },
  render: (element) => render(element),
  ui: {
    'session.login': async (u, event) => {
      await u.clear(screen.getByLabelText('Email'))
      await u.type(screen.getByLabelText('Email'), String(event.email))
      await u.clear(screen.getByLabelText('Password'))
      await u.type(screen.getByLabelText('Password'), String(event.password))
      await u.click(screen.getByRole('button', { name: 'Sign in' }))
    },
    'twoFactor.submit': async (u, event) => {
      await u.clear(screen.getByLabelText('Authentication code'))
      await u.type(screen.getByLabelText('Authentication code'), String(event.token))
      await u.click(screen.getByRole('button', { name: 'Verify' }))
    },
    'session.reset': (u) => u.click(screen.getByRole('button', { name: 'Back to login' })),
  },
  events: {
    'session.login': [
      { type: 'session.login', email: 'ada@example.com', password: 'Secret123', redirectTo: '/' },
      { type: 'session.login', email: 'ada', password: 'Secret123', redirectTo: '/' },
    ],
    'xstate.done.actor.checkSession': [done('checkSession', user), done('checkSession', null)],
    'xstate.error.actor.checkSession': [error('checkSession', offline)],
    'xstate.done.actor.login': [
      done('login', result({ requires_2fa: true })),
      done('login', result({ should_setup_2fa: true })),
      done('login', result({})),
    ],
    'xstate.error.actor.login': [error('login', unauthorized)],
    'xstate.done.actor.fetchUserAfterLogin': [done('fetchUserAfterLogin', user)],
    'xstate.error.actor.fetchUserAfterLogin': [error('fetchUserAfterLogin', offline)],
    'xstate.done.actor.refreshUser': [done('refreshUser', { ...user, is_2fa_enabled: true })],
    'xstate.error.actor.refreshUser': [error('refreshUser', unauthorized), error('refreshUser', offline)],
    'xstate.done.actor.logout': [done('logout', undefined)],
    'xstate.error.actor.logout': [error('logout', offline)],
    'twoFactor.submit': [
      { type: 'twoFactor.submit', token: '123456', useBackupCode: false },
      { type: 'twoFactor.submit', token: '123', useBackupCode: false },
    ],
    'xstate.done.actor.completeTwoFactorLogin': [done('completeTwoFactorLogin', undefined)],
    'xstate.error.actor.completeTwoFactorLogin': [error('completeTwoFactorLogin', unauthorized)],
    'session.userLoaded': [{ type: 'session.userLoaded', user: { ...user, is_2fa_enabled: true } }],
  },
  contextKey: (c) => {
    const ctx = c as {
      user: User | null
      loginFailure: unknown
      twoFactorFailure: unknown
      loginFieldErrors: object
      twoFactorFieldErrors: object
    }
    return {
      codeRefused: Object.keys(ctx.twoFactorFieldErrors).length > 0,
      refused: Object.keys(ctx.loginFieldErrors).length > 0,
      signedIn: ctx.user !== null,
      twoFactor: ctx.user?.is_2fa_enabled,
      failed: ctx.loginFailure !== null,
      twoFactorFailed: ctx.twoFactorFailure !== null,
    }
  },
  views: {
    // The shell's frame with placeholders, announced as loading (no "Checking authentication" screen).
    checking: () => {
      expect(screen.getByRole('status').textContent).toBe('Loading')
      expect(screen.queryByText(/Checking authentication/)).toBeNull()
    },
    'signedOut.idle': (s) => {
      expect(isDisabled(screen.getByRole('button', { name: 'Sign in' }))).toBe(false)
      const refused = Object.keys(s.context.loginFieldErrors).length > 0
      expect(screen.queryByText('Please enter a valid email address') !== null).toBe(refused)
      const failure = s.context.loginFailure
      // The sign-in failure's alert, not a field's error message (also an alert).
      const [alert = null, ...others] = screen
        .queryAllByRole('alert')
        .filter((element) => !element.id.endsWith('-error'))
      expect(others).toEqual([])
      if (!failure) expect(alert).toBeNull()
      else
        expect(alert?.textContent).toBe(
          failure.status === 401
            ? 'Login failed. Please check your credentials and try again.'
            : 'Cannot reach the server. Check your connection.',
        )
    },
    'signedOut.signingIn': () =>
      expect(isDisabled(screen.getByRole('button', { name: 'Signing in...' }))).toBe(true),
    'signedOut.loadingUser': () =>
      expect(isDisabled(screen.getByRole('button', { name: 'Signing in...' }))).toBe(true),
    'signedOut.secondFactor.editing': (s) => {
      expect(screen.getByRole('heading', { name: 'Two-factor authentication' })).toBeDefined()
      expect(isDisabled(screen.getByRole('button', { name: 'Verify' }))).toBe(false)
      const refused = Object.keys(s.context.twoFactorFieldErrors).length > 0
      expect(screen.queryByText('Code must be at least 6 characters') !== null).toBe(refused)
      if (s.context.twoFactorFailure)
        expect(
          screen
            .getAllByRole('alert')
            .filter((element) => !element.id.endsWith('-error'))
            .map((element) => element.textContent),
        ).toEqual(['2FA verification failed'])
    },
    'signedOut.secondFactor.verifying': () =>
      expect(isDisabled(screen.getByRole('button', { name: 'Verify' }))).toBe(true),
    'signedIn.idle': () => expect(screen.getByText('Signed in as ada@example.com')).toBeDefined(),
    'signedIn.refreshing': () => expect(screen.getByText('Signed in as ada@example.com')).toBeDefined(),
    'signedIn.signingOut': () => expect(screen.getByText('Signed in as ada@example.com')).toBeDefined(),
  },
})

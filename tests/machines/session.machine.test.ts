import { expect } from 'vitest'
import type { User } from '../../contract'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { ada, done, error, failure, loginResult } from '../support/fixtures'
import { describeModel } from '../support/model'

const user = ada
const unauthorized = failure(401, 'Not authenticated')
const offline = failure(500, 'Failed to fetch')
const result = loginResult

describeModel('session machine', {
  machine: sessionMachine,
  actors: ['checkSession', 'fetchUser', 'login', 'logout', 'completeTwoFactorLogin'],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: {
        notify: (_, params) => record(`notify:${params.notice}`),
        navigateAfterSignIn: (_, params) =>
          record(`navigate:${params.setupTwoFactor ? '/setup-2fa then ' : ''}${params.to}`),
        navigateToSecondFactor: () => record('navigate:/two-factor'),
        navigateToLogin: (_, params) => record(`navigate:/login${params.returnHere ? '?redirect' : ''}`),
      },
    }),
  events: {
    'session.login': [
      { type: 'session.login', email: 'ada@example.com', password: 'Secret123', redirectTo: '/settings' },
      { type: 'session.login', email: 'ada', password: 'Secret123', redirectTo: '/settings' },
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
    'twoFactor.submit': [
      { type: 'twoFactor.submit', token: '123456', useBackupCode: false },
      { type: 'twoFactor.submit', token: '123', useBackupCode: false },
    ],
    'xstate.done.actor.completeTwoFactorLogin': [done('completeTwoFactorLogin', undefined)],
    'xstate.error.actor.completeTwoFactorLogin': [error('completeTwoFactorLogin', unauthorized)],
    'session.userLoaded': [{ type: 'session.userLoaded', user: { ...user, is_2fa_enabled: true } }],
    'xstate.error.actor.logout': [error('logout', offline)],
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
  states: {
    checking: (s) => {
      expect(s.hasTag('checking')).toBe(true)
      expect(s.context.user).toBeNull()
    },
    'signedOut.idle': (s, log) => {
      expect(s.context.user).toBeNull()
      if (log.includes('notify:loggedOut')) expect(log).toContain('navigate:/login')
      if (log.includes('notify:sessionExpired')) expect(log).toContain('navigate:/login?redirect')
      expect(s.context.pendingCredentials).toBeNull()
      expect(s.can({ type: 'session.login', email: 'a@b.c', password: 'x' })).toBe(true)
      // A refused attempt names the broken field and sends nothing.
      if (Object.keys(s.context.loginFieldErrors).length > 0)
        expect(s.context.loginFieldErrors).toEqual({ email: 'Please enter a valid email address' })
    },
    'signedOut.signingIn': (s) => {
      expect(s.hasTag('busy')).toBe(true)
      expect(s.context.pendingCredentials).toEqual({ email: 'ada@example.com', password: 'Secret123' })
      expect(s.context.loginFailure).toBeNull()
    },
    'signedOut.secondFactor.editing': (s, log) => {
      expect(s.context.pendingCredentials?.email).toBe('ada@example.com')
      expect(s.context.pendingSecondFactor).toBeNull()
      expect(log).toContain('notify:twoFactorRequired')
      expect(log).toContain('navigate:/two-factor')
      expect(s.context.user).toBeNull()
      // A refused code is named by its field and nothing is sent.
      if (Object.keys(s.context.twoFactorFieldErrors).length > 0)
        expect(s.context.twoFactorFieldErrors).toEqual({ token: 'Code must be at least 6 characters' })
    },
    'signedOut.secondFactor.verifying': (s) => {
      expect(s.hasTag('busy')).toBe(true)
      expect(s.context.pendingCredentials?.password).toBe('Secret123')
      expect(s.context.pendingSecondFactor).toEqual({ token: '123456', useBackupCode: false })
    },
    'signedOut.loadingUser': (s) => {
      expect(s.hasTag('busy')).toBe(true)
      expect(s.context.pendingCredentials).toBeNull()
      expect(s.context.pendingSecondFactor).toBeNull()
    },
    'signedIn.idle': (s, log) => {
      expect(s.context.user?.email).toBe('ada@example.com')
      if (log.includes('notify:twoFactorAdvised')) expect(log).toContain('navigate:/setup-2fa then /settings')
      else if (log.includes('notify:loggedIn')) expect(log).toContain('navigate:/settings')
    },
    'signedIn.refreshing': (s) => expect(s.context.user).not.toBeNull(),
    'signedIn.signingOut': (s) => expect(s.hasTag('busy')).toBe(true),
  },
})

/** The 2FA setup statechart's paths, replayed through the rendered /setup-2fa screen. */
import { render, screen } from '@testing-library/react'
import { expect } from 'vitest'
import { createActor } from 'xstate'
import type { User } from '../../contract'
import { twoFactorSetupMachine } from '../../src/machines/account/two-factor-setup.machine'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { SetupTwoFactorView } from '../../src/ui/views/setup-two-factor-view'
import { inApp, testActors } from '../support/render'
import { describeViewModel } from '../support/view-model'

const enrollment = {
  qrDataUrl: 'data:image/png;base64,iVBORw0KGgo=',
  backupCodes: ['AAAAA-BBBBB', 'CCCCC-DDDDD'],
  secret: 'JBSWY3DPEHPK3PXP',
}
const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output })
const error = (id: string, e: unknown) => ({ type: `xstate.error.actor.${id}`, error: e })
const button = (name: string) => screen.getByRole('button', { name })
const isDisabled = (element: HTMLElement) => (element as HTMLButtonElement | HTMLInputElement).disabled

describeViewModel('/setup-2fa screen', {
  machine: twoFactorSetupMachine,
  actors: ['generate', 'copyCodes', 'verify', 'reloadUser', 'skipAdvice'],
  input: { email: 'ada@example.com' },
  mount: (machine, inspect) => {
    const session = createActor(sessionMachine)
    return {
      element: inApp(<SetupTwoFactorView email="ada@example.com" redirectTo="/" />, {
        ...testActors({ session }),
        machines: { twoFactorSetup: () => machine } as never,
        inspect,
      }),
    }
  },
  render: (element) => render(element),
  ui: {
    'setup.start': (user) => user.click(button('Get started')),
    'setup.skip': (user) => user.click(button('Skip for now')),
    'skip.confirm': (user) => user.click(button('Skip')),
    'skip.cancel': (user) => user.click(button('Cancel')),
    'codes.copy': (user) => user.click(screen.getByRole('button', { name: /Copy all codes|Copied/ })),
    'setup.next': (user) => user.click(button('Next')),
    'setup.back': (user) => user.click(button('Back')),
    'code.submit': async (user, event) => {
      const field = screen.getByLabelText('Verification code')
      await user.clear(field)
      await user.type(field, String(event.token))
      await user.click(button('Verify and enable'))
    },
  },
  events: {
    'code.submit': [
      { type: 'code.submit', token: '123456' },
      { type: 'code.submit', token: '123' },
    ],
    'xstate.done.actor.generate': [done('generate', enrollment)],
    'xstate.error.actor.generate': [error('generate', failure(400, 'User email not found'))],
    'xstate.done.actor.copyCodes': [done('copyCodes', undefined)],
    'xstate.error.actor.copyCodes': [error('copyCodes', new Error('denied'))],
    'xstate.done.actor.verify': [done('verify', undefined)],
    'xstate.error.actor.verify': [error('verify', failure(400, 'Invalid code'))],
    'xstate.done.actor.reloadUser': [
      done('reloadUser', { email: 'ada@example.com', is_2fa_enabled: true } as User),
    ],
    'xstate.error.actor.reloadUser': [error('reloadUser', failure(500, 'offline'))],
    'xstate.done.actor.skipAdvice': [
      done('skipAdvice', {
        email: 'ada@example.com',
        is_2fa_enabled: false,
        two_factor_advice: false,
      } as User),
    ],
    'xstate.error.actor.skipAdvice': [error('skipAdvice', failure(500, 'offline'))],
  },
  contextKey: (c) => {
    const ctx = c as { enrollment: unknown; failure: unknown; copied: boolean; tokenErrors: object }
    return {
      enrolled: ctx.enrollment !== null,
      failed: ctx.failure !== null,
      copied: ctx.copied,
      refused: Object.keys(ctx.tokenErrors).length > 0,
    }
  },
  views: {
    'intro.idle': (s) => {
      expect(isDisabled(button('Get started'))).toBe(false)
      expect(screen.queryByRole('alertdialog')).toBeNull()
      if (s.context.failure) expect(screen.getByRole('alert').textContent).toContain('User email not found')
    },
    'intro.confirmingSkip': () =>
      expect(screen.getByRole('alertdialog').textContent).toContain('Skip 2FA Setup?'),
    'intro.generating': () => expect(isDisabled(button('Get started'))).toBe(true),
    // The skip is being remembered on the server: nothing can be pressed twice.
    'intro.savingSkip': () => expect(isDisabled(button('Skip for now'))).toBe(true),
    'qrcode.idle': (s) => {
      expect(screen.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeDefined()
      expect(screen.getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP')
      expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toContain('CCCCC-DDDDD')
      expect(screen.queryByRole('button', { name: 'Copied' }) !== null).toBe(s.context.copied)
    },
    'qrcode.copying': () =>
      expect(isDisabled(screen.getByRole('button', { name: /Copy all codes|Copied/ }))).toBe(true),
    'verify.editing': (s) => {
      expect(isDisabled(screen.getByLabelText('Verification code'))).toBe(false)
      const refused = Object.keys(s.context.tokenErrors).length > 0
      expect(screen.queryByText('Token must be at least 6 characters') !== null).toBe(refused)
      // The verification failure's alert, not the field's error message (also an alert).
      const alerts = screen
        .queryAllByRole('alert')
        .filter((element) => !element.id.endsWith('-error'))
        .map((element) => element.textContent)
      expect(alerts).toEqual(s.context.failure ? ['Invalid code'] : [])
    },
    'verify.verifying': () => expect(isDisabled(button('Verify and enable'))).toBe(true),
    complete: () => expect(isDisabled(button('Verify and enable'))).toBe(true),
    done: () => expect(isDisabled(screen.getByLabelText('Verification code'))).toBe(true),
    skipped: () => expect(screen.queryByRole('alertdialog')).toBeNull(),
  },
})

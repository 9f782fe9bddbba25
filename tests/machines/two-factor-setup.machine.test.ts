import { expect } from 'vitest'
import type { User } from '../../contract'
import { twoFactorSetupMachine } from '../../src/machines/account/two-factor-setup.machine'
import { describeModel } from '../support/model'

const enrollment = {
  qrDataUrl: 'data:image/png;base64,AAAA',
  backupCodes: ['AAAAA-BBBBB', 'CCCCC-DDDDD'],
  secret: 'JBSWY3DP',
}
const user = { id: 1, email: 'ada@example.com', is_2fa_enabled: true } as User
const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output })
const error = (id: string, e: unknown) => ({ type: `xstate.error.actor.${id}`, error: e })

describeModel('2FA setup machine', {
  machine: twoFactorSetupMachine,
  input: { email: 'ada@example.com' },
  actors: ['generate', 'copyCodes', 'verify', 'reloadUser', 'skipAdvice'],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: {
        notify: (_, p) => record(`notify:${p.notice}${p.message ? `:${p.message}` : ''}`),
        publishUser: (_, p) => record(`publish:${p.user.is_2fa_enabled}`),
        leave: () => record('leave'),
      },
    }),
  events: {
    'code.submit': [
      { type: 'code.submit', token: ' 123456 ' },
      { type: 'code.submit', token: '123' },
    ],
    'xstate.done.actor.generate': [done('generate', enrollment)],
    'xstate.error.actor.generate': [error('generate', failure(500, 'Failed to generate 2FA QR code'))],
    'xstate.done.actor.copyCodes': [done('copyCodes', undefined)],
    'xstate.error.actor.copyCodes': [error('copyCodes', new Error('denied'))],
    'xstate.done.actor.verify': [done('verify', undefined)],
    'xstate.error.actor.verify': [error('verify', failure(400, 'Invalid code'))],
    'xstate.done.actor.reloadUser': [done('reloadUser', user)],
    'xstate.error.actor.reloadUser': [error('reloadUser', failure(500, 'offline'))],
    'xstate.done.actor.skipAdvice': [
      done('skipAdvice', { ...user, is_2fa_enabled: false, two_factor_advice: false }),
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
  states: {
    'intro.idle': (s, log) => {
      expect(s.hasTag('step:intro')).toBe(true)
      if (s.context.failure) expect(log).toContain('notify:generateFailed:Failed to generate 2FA QR code')
    },
    'intro.confirmingSkip': (s) => expect(s.can({ type: 'skip.confirm' })).toBe(true),
    'intro.generating': (s) => expect(s.hasTag('busy')).toBe(true),
    'intro.savingSkip': (s) => expect(s.hasTag('busy')).toBe(true),
    'qrcode.idle': (s, log) => {
      expect(s.hasTag('step:qrcode')).toBe(true)
      expect(s.context.failure).toBeNull()
      expect(s.context.enrollment?.backupCodes).toHaveLength(2)
      if (s.context.copied) expect(log).toContain('notify:codesCopied')
    },
    'qrcode.copying': (s) => expect(s.context.enrollment).not.toBeNull(),
    'verify.editing': (s) => {
      expect(s.hasTag('step:verify')).toBe(true)
      if (s.context.failure) expect(s.context.failure.message).toBe('Invalid code')
      expect(s.can({ type: 'setup.back' })).toBe(true)
      // A refused code is named by its field and nothing is sent.
      if (Object.keys(s.context.tokenErrors).length > 0)
        expect(s.context.tokenErrors).toEqual({ token: 'Token must be at least 6 characters' })
    },
    'verify.verifying': (s) => expect(s.context.token).toBe('123456'),
    complete: (_s, log) => expect(log).toContain('notify:setupComplete'),
    done: (_s, log) => {
      expect(log.at(-1)).toBe('leave')
      if (log.includes('notify:profileUpdated')) expect(log).toContain('publish:true')
    },
    skipped: (_s, log) => {
      expect(log.slice(-2)).toEqual(['notify:setupSkipped', 'leave'])
      // Remembered on the server: the session's user no longer asks for the advice.
      if (log.includes('publish:false')) expect(log.at(-3)).toBe('publish:false')
    },
  },
})

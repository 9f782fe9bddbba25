import { expect } from 'vitest'
import { firstAdminMachine } from '../../src/machines/session/first-admin.machine'
import { describeModel } from '../support/model'

const input = { email: 'grace@example.com', name: 'Grace', surname: 'Hopper', password: 'Compiler1952' }
const failure = (status: number) => Object.assign(new Error(`status ${status}`), { status })

describeModel('first administrator machine', {
  machine: firstAdminMachine,
  actors: ['setupStatus', 'createFirstAdmin'],
  events: {
    'firstAdmin.submit': [{ type: 'firstAdmin.submit', input }],
    'xstate.done.actor.setupStatus': [
      { type: 'xstate.done.actor.setupStatus', output: { needs_first_admin: true } },
      { type: 'xstate.done.actor.setupStatus', output: { needs_first_admin: false } },
    ],
    'xstate.error.actor.setupStatus': [{ type: 'xstate.error.actor.setupStatus', error: failure(500) }],
    'xstate.done.actor.createFirstAdmin': [
      { type: 'xstate.done.actor.createFirstAdmin', output: { message: 'ok' } },
    ],
    'xstate.error.actor.createFirstAdmin': [
      { type: 'xstate.error.actor.createFirstAdmin', error: failure(409) },
      { type: 'xstate.error.actor.createFirstAdmin', error: failure(400) },
    ],
  },
  contextKey: (c) => ({ failed: (c as { failure: unknown }).failure !== null }),
  states: {
    checking: (s) => expect(s.context.email).toBeNull(),
    'available.editing': (s) => {
      if (s.context.failure) expect(s.context.failure.status).toBe(400)
    },
    'available.submitting': (s) => {
      expect(s.hasTag('busy')).toBe(true)
      expect(s.context.email).toBe('grace@example.com')
    },
    created: (s) => expect(s.context.email).toBe('grace@example.com'),
    unavailable: (s) => expect(s.can({ type: 'firstAdmin.submit', input })).toBe(false),
  },
})

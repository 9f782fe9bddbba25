import { expect } from 'vitest'
import { firstAdminMachine } from '../../src/machines/session/first-admin.machine'
import { describeModel } from '../support/model'

const input = { email: 'grace@example.com', name: 'Grace', surname: 'Hopper', password: 'Compiler1952' }
const values = { ...input, email: ' Grace@Example.com ', confirmPassword: input.password }
const invalid = { email: 'grace', name: 'G', surname: 'Hopper', password: 'short', confirmPassword: 'other' }
const failure = (status: number) => Object.assign(new Error(`status ${status}`), { status })

describeModel('first administrator machine', {
  machine: firstAdminMachine,
  actors: ['setupStatus', 'createFirstAdmin'],
  events: {
    'firstAdmin.submit': [
      { type: 'firstAdmin.submit', values },
      { type: 'firstAdmin.submit', values: invalid },
    ],
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
  contextKey: (c) => ({
    failed: (c as { failure: unknown }).failure !== null,
    refused: Object.keys((c as { fieldErrors: object }).fieldErrors).length > 0,
  }),
  states: {
    checking: (s) => expect(s.context.email).toBeNull(),
    'available.editing': (s) => {
      if (s.context.failure) expect(s.context.failure.status).toBe(400)
      // A refused submit names every broken field, the confirmation included.
      if (Object.keys(s.context.fieldErrors).length > 0)
        expect(s.context.fieldErrors).toEqual({
          email: expect.any(String),
          name: 'Name must be at least 2 characters',
          password: expect.any(String),
          confirmPassword: "Passwords don't match",
        })
    },
    'available.submitting': (s) => {
      expect(s.hasTag('busy')).toBe(true)
      expect(s.context.email).toBe('grace@example.com')
      expect(s.context.input).toEqual(input)
    },
    created: (s) => expect(s.context.email).toBe('grace@example.com'),
    unavailable: (s) => expect(s.can({ type: 'firstAdmin.submit', values })).toBe(false),
  },
})

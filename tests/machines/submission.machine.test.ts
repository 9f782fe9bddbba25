import * as v from 'valibot'
import { expect } from 'vitest'
import { Email } from '../../contract'
import { createSubmissionMachine } from '../../src/machines/shared/submission.machine'
import { describeModel } from '../support/model'

const failure = Object.assign(new Error('Invalid or expired link'), { status: 400 })

describeModel('submission machine', {
  machine: createSubmissionMachine(v.object({ email: Email })),
  actors: ['submit'],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: {
        succeeded: (_, p) => record(`succeeded:${JSON.stringify(p.input)}`),
        failed: (_, p) => record(`failed:${p.failure.status}:${p.failure.message}`),
      },
    }),
  events: {
    'form.submit': [
      { type: 'form.submit', values: { email: ' Ada@Example.com ' } },
      { type: 'form.submit', values: { email: 'ada' } },
    ],
    'xstate.done.actor.submit': [{ type: 'xstate.done.actor.submit', output: { message: 'ok' } }],
    'xstate.error.actor.submit': [{ type: 'xstate.error.actor.submit', error: failure }],
  },
  contextKey: (c) => ({
    failed: (c as { failure: unknown }).failure !== null,
    refused: Object.keys((c as { fieldErrors: object }).fieldErrors).length > 0,
  }),
  states: {
    editing: (s, log) => {
      if (s.context.failure) {
        expect(s.context.failure).toEqual({
          status: 400,
          code: 'unexpected',
          message: 'Invalid or expired link',
        })
        expect(log).toContain('failed:400:Invalid or expired link')
      }
      // A refused submit names the broken field and sends nothing.
      if (Object.keys(s.context.fieldErrors).length > 0)
        expect(s.context.fieldErrors).toEqual({ email: 'Please enter a valid email address' })
    },
    submitting: (s) => {
      expect(s.hasTag('busy')).toBe(true)
      expect(s.context.input).toEqual({ email: 'ada@example.com' })
    },
    succeeded: (s, log) => {
      expect(log).toContain('succeeded:{"email":"ada@example.com"}')
      expect(s.can({ type: 'form.reset' })).toBe(true)
    },
  },
})

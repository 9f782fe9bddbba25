/**
 * One form sent to the server: `editing` → `submitting` → `succeeded`, back to `editing` with the
 * failure. Activation, password reset (request and confirm), password change and disabling 2FA
 * are this machine, each provided with its own `submit` actor and `succeeded`/`failed` actions.
 */
import { assign, fromPromise, setup } from 'xstate'
import { type CallFailure, toFailure } from '../shared/failure'

export type SubmissionEvent = { type: 'form.submit'; input: unknown } | { type: 'form.reset' }

export const submissionMachine = setup({
  types: {
    context: {} as { failure: CallFailure | null; input: unknown },
    events: {} as SubmissionEvent,
  },
  actors: {
    submit: fromPromise<unknown, unknown>(async () => {
      throw new Error('submit not provided')
    }),
  },
  actions: {
    succeeded: (_, _params: { input: unknown }) => {},
    failed: (_, _params: { failure: CallFailure }) => {},
  },
}).createMachine({
  id: 'submission',
  context: { failure: null, input: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'form.submit': {
          target: 'submitting',
          actions: assign({ input: ({ event }) => event.input, failure: null }),
        },
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }: { context: { input: unknown } }) => context.input,
        onDone: {
          target: 'succeeded',
          actions: { type: 'succeeded', params: ({ context }) => ({ input: context.input }) },
        },
        onError: {
          target: 'editing',
          actions: [
            assign({ failure: ({ event }) => toFailure(event.error) }),
            { type: 'failed', params: ({ event }) => ({ failure: toFailure(event.error) }) },
          ],
        },
      },
    },
    succeeded: {
      on: { 'form.reset': { target: 'editing', actions: assign({ input: null, failure: null }) } },
    },
  },
})

export type SubmissionMachine = typeof submissionMachine

/**
 * Creating the first platform administrator from the login page: `checking` whether one exists,
 * then `available` (editing ⇄ submitting) until `created`, or `unavailable` for good.
 */
import { assign, fromPromise, setup } from 'xstate'
import type { CreateFirstAdminInput, SetupStatus } from '../../contract'
import { type CallFailure, toFailure } from '../shared/failure'

export type FirstAdminEvent = { type: 'firstAdmin.submit'; input: CreateFirstAdminInput }

export const firstAdminMachine = setup({
  types: {
    context: {} as { failure: CallFailure | null; email: string | null },
    events: {} as FirstAdminEvent,
  },
  actors: {
    setupStatus: fromPromise<SetupStatus>(async () => {
      throw new Error('setupStatus not provided')
    }),
    createFirstAdmin: fromPromise<unknown, CreateFirstAdminInput>(async () => {
      throw new Error('createFirstAdmin not provided')
    }),
  },
  guards: {
    needsFirstAdmin: (_, output: SetupStatus) => output.needs_first_admin,
    isConflict: (_, error: unknown) => toFailure(error).status === 409,
  },
}).createMachine({
  id: 'firstAdmin',
  context: { failure: null, email: null },
  initial: 'checking',
  states: {
    checking: {
      invoke: {
        id: 'setupStatus',
        src: 'setupStatus',
        onDone: [
          { guard: { type: 'needsFirstAdmin', params: ({ event }) => event.output }, target: 'available' },
          { target: 'unavailable' },
        ],
        onError: { target: 'unavailable', description: 'Sign-in stays usable when the check fails.' },
      },
    },
    available: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'firstAdmin.submit': {
              target: 'submitting',
              actions: assign({ email: ({ event }) => event.input.email, failure: null }),
            },
          },
        },
        submitting: {
          tags: ['busy'],
          invoke: {
            id: 'createFirstAdmin',
            src: 'createFirstAdmin',
            input: ({ event }) => (event as FirstAdminEvent).input,
            onDone: { target: '#firstAdmin.created' },
            onError: [
              {
                guard: {
                  type: 'isConflict',
                  params: ({ event }: { event: { error: unknown } }) => event.error,
                },
                target: '#firstAdmin.unavailable',
                description: 'Someone else created the administrator meanwhile.',
              },
              { target: 'editing', actions: assign({ failure: ({ event }) => toFailure(event.error) }) },
            ],
          },
        },
      },
    },
    created: {},
    unavailable: {},
  },
})

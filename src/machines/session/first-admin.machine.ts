/**
 * Creating the first platform administrator from the login page: `checking` whether one exists,
 * then `available` (editing ⇄ submitting) until `created`, or `unavailable` for good. The form's
 * fields are checked here: a submit that breaks a rule, or whose confirmation differs from the
 * password, stays in `editing` with the field errors.
 */
import * as v from 'valibot'
import { assign, setup } from 'xstate'
import { CreateFirstAdminInput, type SetupStatus } from '../../../contract'
import { type CallFailure, toFailure } from '../shared/failure'
import { type FieldErrors, type FormValues, fieldErrorsOf } from '../shared/form'
import { promisePlaceholder } from '../shared/placeholder'

export type FirstAdminEvent = { type: 'firstAdmin.submit'; values: FormValues }

type FirstAdminField = keyof CreateFirstAdminInput | 'confirmPassword'

/** The schema's errors, and "Passwords don't match" whenever the confirmation differs. */
function firstAdminErrors(values: FormValues): FieldErrors<FirstAdminField> {
  const mismatch = values.password !== values.confirmPassword
  return {
    ...fieldErrorsOf<FirstAdminField>(CreateFirstAdminInput, values),
    ...(mismatch ? { confirmPassword: "Passwords don't match" } : {}),
  }
}

export const firstAdminMachine = setup({
  types: {
    context: {} as {
      failure: CallFailure | null
      email: string | null
      input: CreateFirstAdminInput | null
      /** Validation messages (English source text) by field, from the last submit. */
      fieldErrors: FieldErrors<FirstAdminField>
    },
    events: {} as FirstAdminEvent,
  },
  actors: {
    setupStatus: promisePlaceholder<SetupStatus>('setupStatus'),
    createFirstAdmin: promisePlaceholder<unknown, CreateFirstAdminInput>('createFirstAdmin'),
  },
  guards: {
    needsFirstAdmin: (_, output: SetupStatus) => output.needs_first_admin,
    isConflict: (_, error: unknown) => toFailure(error).status === 409,
    hasValidFields: ({ event }) => Object.keys(firstAdminErrors(event.values)).length === 0,
  },
}).createMachine({
  id: 'firstAdmin',
  context: { failure: null, email: null, input: null, fieldErrors: {} },
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
            'firstAdmin.submit': [
              {
                guard: 'hasValidFields',
                target: 'submitting',
                actions: assign(({ event }) => {
                  const input = v.parse(CreateFirstAdminInput, event.values)
                  return { input, email: input.email, fieldErrors: {}, failure: null }
                }),
              },
              {
                description: 'A field breaks its rule or the confirmation differs: nothing is sent.',
                actions: assign({ fieldErrors: ({ event }) => firstAdminErrors(event.values) }),
              },
            ],
          },
        },
        submitting: {
          tags: ['busy'],
          invoke: {
            id: 'createFirstAdmin',
            src: 'createFirstAdmin',
            input: ({ context }) => context.input!,
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

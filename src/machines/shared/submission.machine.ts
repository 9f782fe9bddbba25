/**
 * One form sent to the server: `editing` → `submitting` → `succeeded`, back to `editing` with the
 * failure. The draft values are checked against the form's valibot schema first: a submit that
 * breaks a rule stays in `editing` with the field errors, and the parsed values are what is sent.
 * Creating a company, activation, password reset (request and confirm), password change and
 * disabling 2FA are this machine, each with its schema, its own `submit` actor and
 * `succeeded`/`failed` actions.
 */
import type * as v from 'valibot'
import { assign, setup } from 'xstate'
import { type CallFailure, toFailure } from '../shared/failure'
import { checkedSubmit, type FieldErrors, isValidForm, parsedValues, refusedValues } from './form'
import { promisePlaceholder } from './placeholder'

export type SubmissionEvent = { type: 'form.submit'; values: unknown } | { type: 'form.reset' }

type SubmissionContext = {
  failure: CallFailure | null
  /** What is sent: the values the schema parsed. */
  input: unknown
  /** Validation messages (English source text) by field, from the last submit. */
  fieldErrors: FieldErrors
}

/** The submission machine of a form whose values follow `schema`. */
export const createSubmissionMachine = (schema: v.GenericSchema) =>
  setup({
    types: {} as { context: SubmissionContext; events: SubmissionEvent },
    actors: {
      submit: promisePlaceholder<unknown, unknown>('submit'),
    },
    actions: {
      succeeded: (_, _params: { input: unknown }) => {},
      failed: (_, _params: { failure: CallFailure }) => {},
    },
    guards: {
      hasValidValues: ({ event }) => event.type === 'form.submit' && isValidForm(schema, event.values),
    },
  }).createMachine({
    id: 'submission',
    context: { failure: null, input: null, fieldErrors: {} },
    initial: 'editing',
    states: {
      editing: {
        on: {
          'form.submit': checkedSubmit({
            guard: 'hasValidValues',
            target: 'submitting',
            accept: assign({ input: parsedValues(schema), fieldErrors: {}, failure: null }),
            refuse: assign({ fieldErrors: refusedValues(schema) }),
          }),
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

export type SubmissionMachine = ReturnType<typeof createSubmissionMachine>

/**
 * The server's document lifecycle, walked from its graph: every state and transition replayed on
 * a live actor. Each state also checks what the document service persists for it: restored from
 * that status, the document accepts at least what the live state accepts (a PROCESSING row may be
 * waiting for its job or in an attempt), so nothing the machine allows is refused after a restart.
 */
import { expect, it } from 'vitest'
import type { AnyMachineSnapshot } from 'xstate'
import {
  documentLifecycleMachine,
  LIFECYCLE_STATES,
  type LifecycleContext,
  type LifecycleEvent,
} from '../../server/services/documents/lifecycle/document-lifecycle.machine'
import {
  accepts,
  IllegalTransitionError,
  nextState,
  STATUS_OF_STATE,
} from '../../server/services/documents/lifecycle/document-service'
import { describeModel } from '../support/model'

const ERRORS = ['missing_invoice_number']
const EVENTS: LifecycleEvent[] = [
  { type: 'processing.start' },
  { type: 'processing.finish', errors: [] },
  { type: 'processing.finish', errors: ERRORS },
  { type: 'processing.fail' },
  { type: 'document.correct', errors: [] },
  { type: 'document.correct', errors: ERRORS },
  { type: 'document.confirm' },
  { type: 'document.reprocess' },
  { type: 'document.delete' },
]
const kindOf = (s: AnyMachineSnapshot) => (s.context as LifecycleContext).kind
const accepted = (s: AnyMachineSnapshot) => EVENTS.filter((e) => s.can(e)).map((e) => JSON.stringify(e))

/** Restored from the status it persists as, the document takes whatever the live state takes. */
function expectPersistedFaithfully(s: AnyMachineSnapshot, state: keyof typeof STATUS_OF_STATE) {
  const current = { kind: kindOf(s)!, status: STATUS_OF_STATE[state] }
  for (const event of EVENTS)
    if (s.can(event)) expect(accepts(current, event), JSON.stringify(event)).toBe(true)
}

/** Reading, correcting, reviewing and reprocessing are for invoices and expenses only. */
function expectReviewable(s: AnyMachineSnapshot, outcome: 'completed' | 'failed') {
  const financial = kindOf(s) !== 'document'
  expect(s.can({ type: 'document.correct', errors: [] })).toBe(financial)
  expect(s.can({ type: 'document.confirm' })).toBe(financial)
  expect(s.can({ type: 'document.reprocess' })).toBe(financial)
  expect(s.can({ type: 'document.delete' })).toBe(true)
  expect(s.can({ type: 'processing.finish', errors: [] })).toBe(false)
  expectPersistedFaithfully(s, outcome)
}

describeModel('document lifecycle machine', {
  machine: documentLifecycleMachine,
  actors: [],
  events: {
    'document.store': [
      { type: 'document.store', kind: 'invoice' },
      { type: 'document.store', kind: 'document' },
    ],
    'processing.finish': [
      { type: 'processing.finish', errors: [] },
      { type: 'processing.finish', errors: ERRORS },
    ],
    'document.correct': [
      { type: 'document.correct', errors: [] },
      { type: 'document.correct', errors: ERRORS },
    ],
  },
  contextKey: (c) => (c as LifecycleContext).kind,
  limit: 200,
  states: {
    received: (s) => {
      expect(kindOf(s)).toBeNull()
      // Nothing is stored yet: the only way on is storing it.
      expect(accepted(s)).toEqual([])
    },
    queued: (s) => {
      expect(kindOf(s)).not.toBe('document')
      expect(accepted(s)).toEqual(
        [{ type: 'processing.start' }, { type: 'processing.fail' }, { type: 'document.delete' }].map((e) =>
          JSON.stringify(e),
        ),
      )
      expectPersistedFaithfully(s, 'queued')
    },
    processing: (s) => {
      expect(kindOf(s)).not.toBe('document')
      // While it is read, nobody corrects, confirms or reprocesses it.
      expect(s.can({ type: 'document.correct', errors: [] })).toBe(false)
      expect(s.can({ type: 'document.confirm' })).toBe(false)
      expect(s.can({ type: 'document.reprocess' })).toBe(false)
      expectPersistedFaithfully(s, 'processing')
    },
    completed: (s) => expectReviewable(s, 'completed'),
    failed: (s) => {
      expect(kindOf(s)).not.toBe('document')
      expectReviewable(s, 'failed')
    },
    deleted: (s) => {
      expect(s.status).toBe('done')
      expect(accepted(s)).toEqual([])
    },
  },
})

it('names every state of the machine in LIFECYCLE_STATES', () => {
  expect(Object.keys(documentLifecycleMachine.states)).toEqual([...LIFECYCLE_STATES])
})

it('persists the three statuses the API answers, and refuses what a state does not take with a typed error', () => {
  expect(nextState(null, { type: 'document.store', kind: 'invoice' })).toMatchObject({
    state: 'queued',
    status: 'PROCESSING',
  })
  expect(nextState(null, { type: 'document.store', kind: 'document' })).toMatchObject({
    state: 'completed',
    status: 'COMPLETED',
  })
  const processing = { kind: 'invoice', status: 'PROCESSING' } as const
  expect(nextState(processing, { type: 'processing.finish', errors: ERRORS }).status).toBe('FAILED')
  expect(nextState(processing, { type: 'processing.finish', errors: [] }).status).toBe('COMPLETED')
  expect(nextState({ kind: 'expense', status: 'FAILED' }, { type: 'document.reprocess' }).status).toBe(
    'PROCESSING',
  )
  expect(nextState({ kind: 'expense', status: 'FAILED' }, { type: 'document.delete' })).toMatchObject({
    state: 'deleted',
    status: null,
  })
  const refused = () => nextState(processing, { type: 'document.correct', errors: [] })
  expect(refused).toThrow(IllegalTransitionError)
  expect(refused).toThrow('The document is still being processed')
  expect(() =>
    nextState({ kind: 'invoice', status: 'COMPLETED' }, { type: 'processing.finish', errors: [] }),
  ).toThrow(expect.objectContaining({ status: 409, from: 'completed', event: 'processing.finish' }))
  expect(() => nextState({ kind: 'document', status: 'COMPLETED' }, { type: 'document.reprocess' })).toThrow(
    IllegalTransitionError,
  )
})

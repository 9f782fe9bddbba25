/**
 * A document's life: `received` (file stored, no row yet) → `queued` → `processing` → `completed`
 * or `failed` (invoices and expenses), or straight to `completed` (general documents); a
 * correction or a reprocess starts again from there, and every stored state ends in `deleted`.
 * Pure: no I/O. `document-service.ts` restores a document's state from its row, asks this machine
 * for the next one and persists it; nothing else on the server decides a status.
 */
import { and, assign, setup } from 'xstate'
import type { DocumentKind } from '../../../../contract/index.ts'

/** What the document is: known from the moment it is stored. */
export type LifecycleContext = { kind: DocumentKind | null }

export type LifecycleEvent =
  | { type: 'document.store'; kind: DocumentKind }
  | { type: 'processing.start' }
  | { type: 'processing.finish'; errors: readonly string[] }
  | { type: 'processing.fail' }
  | { type: 'document.correct'; errors: readonly string[] }
  | { type: 'document.confirm' }
  | { type: 'document.reprocess' }
  | { type: 'document.delete' }

/**
 * What a finished invoice or expense accepts: a correction decides its status again, a
 * confirmation keeps it, a reprocess queues it again; any document can be deleted.
 */
const finished = (self: 'completed' | 'failed') =>
  ({
    on: {
      'document.correct': [
        { guard: and(['isFinancial', 'hasErrors']), target: 'failed' },
        { guard: 'isFinancial', target: 'completed' },
      ],
      'document.confirm': {
        guard: 'isFinancial',
        target: self,
        description: 'A reviewer accepts the document as it is: the status stays.',
      },
      'document.reprocess': { guard: 'isFinancial', target: 'queued' },
      'document.delete': 'deleted',
    },
  }) as const

export const documentLifecycleMachine = setup({
  types: {
    context: {} as LifecycleContext,
    events: {} as LifecycleEvent,
  },
  actions: {
    recordKind: assign({ kind: ({ event }) => (event.type === 'document.store' ? event.kind : null) }),
  },
  guards: {
    isGeneralDocumentStored: ({ event }) => event.type === 'document.store' && event.kind === 'document',
    /** Invoices and expenses: the documents that are read, corrected and reviewed. */
    isFinancial: ({ context }) => context.kind === 'invoice' || context.kind === 'expense',
    hasErrors: ({ event }) => 'errors' in event && event.errors.length > 0,
  },
}).createMachine({
  id: 'documentLifecycle',
  context: { kind: null },
  initial: 'received',
  states: {
    received: {
      on: {
        'document.store': [
          {
            guard: 'isGeneralDocumentStored',
            target: 'completed',
            actions: 'recordKind',
            description: 'A general document is complete once stored: nothing is extracted from it.',
          },
          { target: 'queued', actions: 'recordKind' },
        ],
      },
    },
    queued: {
      on: {
        'processing.start': 'processing',
        'processing.fail': {
          target: 'failed',
          description: 'Its job died or was lost before an attempt ran (dead letter, stale sweep).',
        },
        'document.delete': 'deleted',
      },
    },
    processing: {
      on: {
        'processing.start': {
          target: 'processing',
          reenter: true,
          description: 'Another attempt after one that failed in a way a retry may get past.',
        },
        'processing.finish': [{ guard: 'hasErrors', target: 'failed' }, { target: 'completed' }],
        'processing.fail': {
          target: 'failed',
          description: 'Unreadable file, a refused value, or the last attempt gave up.',
        },
        'document.delete': 'deleted',
      },
    },
    completed: finished('completed'),
    failed: finished('failed'),
    deleted: { type: 'final' },
  },
})

/** The machine's states (its value is always one of them: it has no nested states). */
export const LIFECYCLE_STATES = [
  'received',
  'queued',
  'processing',
  'completed',
  'failed',
  'deleted',
] as const
export type LifecycleState = (typeof LIFECYCLE_STATES)[number]

/**
 * The actions on one row of the dashboard's table, an actor of its own that the dashboard invokes
 * (so the dashboard's list and filters do not multiply with the row dialogs). `idle`: an
 * Invoice/Expense row opens its details (numeric document ids only; otherwise a notice says why), as
 * does a document named elsewhere (a duplicate warning's earlier document, a finished upload), and a finished row can be deleted after a confirmation (platform administrators; the server
 * enforces it). Closing the details and a completed deletion ask the dashboard to reload its list.
 * Moving on from the details (J / K, "Save and next") goes through `stepping`: the dashboard names
 * the neighbour of the open row in its list, which opens in its place (none past the end).
 */
import { type ActorRef, assign, fromPromise, type Snapshot, sendTo, setup } from 'xstate'
import { isActiveLogStatus, type LogEntry } from '../../../contract'

export type DashboardNotice =
  | 'invalidDocumentId'
  | 'invalidDocumentIdFormat'
  | 'documentDeleted'
  | 'deleteFailed'
  | 'reviewEnd'

export type DetailTarget = { kind: 'invoice' | 'expense'; id: number }

/** Details open only for an existing numeric document id of an Invoice or Expense row. */
function detailTarget(log: LogEntry): DetailTarget | null {
  if (log.type !== 'Invoice' && log.type !== 'Expense') return null
  const id = log.document_id
  if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) return null
  return { kind: log.type === 'Invoice' ? 'invoice' : 'expense', id }
}

/** Rows still pending or processing cannot be deleted. */
export const canDeleteRow = (log: LogEntry) => !isActiveLogStatus(log.status)

/**
 * The next (1) or previous (-1) row with details after `from` in `rows`, in the list's order; null at
 * either end, or when `from` is no longer in the list.
 */
export function neighbourTarget(rows: readonly LogEntry[], from: DetailTarget, direction: 1 | -1) {
  const targets = rows.map(detailTarget)
  const at = targets.findIndex((t) => t?.kind === from.kind && t.id === from.id)
  if (at < 0) return null
  for (let i = at + direction; i >= 0 && i < targets.length; i += direction)
    if (targets[i]) return targets[i]!
  return null
}

/** Whether the document is one of the rows listed. */
export const isListed = (rows: readonly LogEntry[], target: DetailTarget) =>
  rows.some((row) => {
    const t = detailTarget(row)
    return t?.kind === target.kind && t.id === target.id
  })

/** What the details ask the dashboard for: the neighbour of the open row in its list. */
export type NeighbourRequest = { type: 'details.neighbour'; from: DetailTarget; direction: 1 | -1 }

/** The dashboard: its list reloads when a row's details close or a row is deleted, and it knows the rows' order. */
type RefreshTarget = ActorRef<Snapshot<unknown>, { type: 'dashboard.refresh' } | NeighbourRequest>

type RowActionsInput = { companyId: number; dashboard: RefreshTarget }

export type RowActionsContext = RowActionsInput & {
  /** The row whose details are open. */
  detail: DetailTarget | null
  /** The row waiting for the delete confirmation. */
  toDelete: LogEntry | null
}

type RowActionsEvent =
  | { type: 'row.open'; log: LogEntry }
  | ({ type: 'document.open' } & DetailTarget)
  | { type: 'details.close' }
  /** A correction was saved in the open details: the row's status may have changed. */
  | { type: 'details.saved' }
  /** J / K or "Save and next" in the details: the neighbour in the list opens in their place. */
  | { type: 'details.step'; direction: 1 | -1 }
  /** The dashboard's answer: the neighbour to open, or null past either end of the list. */
  | { type: 'details.move'; target: DetailTarget | null }
  | { type: 'row.delete'; log: LogEntry }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }

export const rowActionsMachine = setup({
  types: {
    context: {} as RowActionsContext,
    events: {} as RowActionsEvent,
    input: {} as RowActionsInput,
  },
  actors: {
    deleteRow: fromPromise<void, { log: LogEntry; companyId: number }>(async () => {
      throw new Error('deleteRow not provided')
    }),
  },
  actions: {
    notify: (_, _params: { notice: DashboardNotice; value?: string }) => {},
    refreshDashboard: sendTo(({ context }) => context.dashboard, { type: 'dashboard.refresh' }),
  },
  guards: {
    hasDetails: (_, log: LogEntry) => detailTarget(log) !== null,
    hasNoDocumentId: (_, log: LogEntry) => log.document_id === null || log.document_id === undefined,
    canDelete: (_, log: LogEntry) => canDeleteRow(log),
  },
}).createMachine({
  id: 'dashboardRow',
  initial: 'idle',
  context: ({ input }) => ({ ...input, detail: null, toDelete: null }),
  states: {
    idle: {
      on: {
        'row.open': [
          {
            guard: { type: 'hasDetails', params: ({ event }) => event.log },
            target: 'viewing',
            actions: assign({ detail: ({ event }) => detailTarget(event.log) }),
          },
          {
            guard: { type: 'hasNoDocumentId', params: ({ event }) => event.log },
            actions: { type: 'notify', params: { notice: 'invalidDocumentId' } },
          },
          {
            actions: {
              type: 'notify',
              params: ({ event }) => ({
                notice: 'invalidDocumentIdFormat',
                value: String(event.log.document_id),
              }),
            },
          },
        ],
        'document.open': {
          target: 'viewing',
          description:
            'A document named elsewhere: the earlier one of a duplicate warning, a finished upload.',
          actions: assign({ detail: ({ event }) => ({ kind: event.kind, id: event.id }) }),
        },
        'row.delete': {
          guard: { type: 'canDelete', params: ({ event }) => event.log },
          target: 'confirmingDelete',
          actions: assign({ toDelete: ({ event }) => event.log }),
        },
      },
    },
    viewing: {
      on: {
        'details.close': {
          target: 'idle',
          actions: [assign({ detail: null }), 'refreshDashboard'],
        },
        'details.saved': {
          actions: 'refreshDashboard',
          description:
            'A saved correction re-checks the document: its row follows while the details stay open.',
        },
        'details.step': {
          target: 'stepping',
          actions: sendTo(
            ({ context }) => context.dashboard,
            ({ context, event }) => ({
              type: 'details.neighbour' as const,
              from: context.detail!,
              direction: event.direction,
            }),
          ),
        },
      },
    },
    stepping: {
      description: 'The details closed to move on: the dashboard names the neighbour in its list.',
      on: {
        'details.move': [
          {
            guard: ({ event }) => event.target !== null,
            target: 'viewing',
            actions: [assign({ detail: ({ event }) => event.target }), 'refreshDashboard'],
          },
          {
            target: 'idle',
            description: 'Past the end of the list: the details stay closed.',
            actions: [
              assign({ detail: null }),
              { type: 'notify', params: { notice: 'reviewEnd' } },
              'refreshDashboard',
            ],
          },
        ],
      },
    },
    confirmingDelete: {
      description: 'The confirmation cannot be dismissed by clicking outside it.',
      on: {
        'delete.cancel': { target: 'idle', actions: assign({ toDelete: null }) },
        'delete.confirm': 'deleting',
      },
    },
    deleting: {
      tags: ['deleting'],
      invoke: {
        id: 'deleteRow',
        src: 'deleteRow',
        input: ({ context }) => ({ log: context.toDelete!, companyId: context.companyId }),
        onDone: {
          target: 'idle',
          actions: [
            assign({ toDelete: null }),
            { type: 'notify', params: { notice: 'documentDeleted' } },
            'refreshDashboard',
          ],
        },
        onError: {
          target: 'idle',
          actions: [assign({ toDelete: null }), { type: 'notify', params: { notice: 'deleteFailed' } }],
        },
      },
    },
  },
})

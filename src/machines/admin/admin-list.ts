/**
 * What the administration's two lists (companies, users) share, as state configs each list
 * machine spreads into its own `states`: the list load (`loading` → `ready`, or `failed` until
 * `list.retry`) and the enable/disable confirmation (`confirmingStatus` → `updatingStatus` → the
 * list reloads, or back to `ready` with the server's message). Each machine names its own actors
 * and notices, and declares the actions used here: `storeList` (the loaded rows), `storeFailure`,
 * `clearSelection` and `notify`.
 */
import { type CallFailure, failedCallNotice } from '../shared/failure'

/** Who looks at the list: the signed-in administrator (their own company and account are guarded). */
export type AdminListInput = { currentUserEmail: string }

/** The events these states handle (`status.toggle` names its row with the list's own id key). */
export type AdminListEvent =
  | { type: 'list.retry' }
  | { type: 'list.refresh' }
  | { type: 'status.confirm' }
  | { type: 'status.cancel' }

/** The context these states read and write, besides the list's rows. */
export type AdminListContext = AdminListInput & {
  failure: CallFailure | null
  /** The row whose status is being changed, or that is edited. */
  selectedId: number | null
}

type ListNames<TNotice extends string, TLoad extends string> = {
  /** The promise actor that loads the rows. */
  load: TLoad
  loadFailed: TNotice
}

type StatusNames<TNotice extends string, TSetStatus extends string, TContext, TInput> = {
  /** The promise actor that enables or disables the selected row. */
  setStatus: TSetStatus
  statusInput: (args: { context: TContext }) => TInput
  enabled: TNotice
  disabled: TNotice
  statusFailed: TNotice
}

/** The row the list selected (to change its status or edit it), if it is loaded. */
export const selectedRow = <T extends { id: number }>(rows: T[], selectedId: number | null): T | null =>
  rows.find((row) => row.id === selectedId) ?? null

/** The rows in a `storeList` action: the load's output (named actions are typed with the machine's events). */
export const loadedRows = <T>(event: unknown): T[] => (event as { output: T[] }).output

/** The failure's message is shown unless the server failed (a 5xx says only that it failed). */
const clientMessage = (failure: CallFailure) => (failure.status < 500 ? failure.message : undefined)

/** `loading` (tags `busy`, `loading`) and `failed`; `ready` is the machine's own. */
export function listLoadStates<TNotice extends string, TLoad extends string>(
  names: ListNames<TNotice, TLoad>,
) {
  return {
    loading: {
      tags: ['busy', 'loading'],
      invoke: {
        id: names.load,
        src: names.load,
        onDone: { target: 'ready', actions: 'storeList' },
        onError: {
          target: 'failed',
          actions: ['storeFailure', { type: 'notify', params: { notice: names.loadFailed } }],
        },
      },
    },
    failed: { on: { 'list.retry': 'loading' } },
  } as const
}

/**
 * `status.toggle` in `ready`: a row of the administrator's own (`isOwn`) is refused with the `own`
 * notice and no dialog; another known row is selected (`select`) and the confirmation opens.
 */
export const statusToggle = <TOwnGuard, TKnownGuard, TNotice extends string, TSelect>(toggle: {
  isOwn: TOwnGuard
  own: TNotice
  description: string
  isKnown: TKnownGuard
  select: TSelect
}) =>
  [
    {
      guard: toggle.isOwn,
      description: toggle.description,
      actions: { type: 'notify', params: { notice: toggle.own } },
    },
    { guard: toggle.isKnown, target: 'confirmingStatus', actions: toggle.select },
  ] as const

/** `confirmingStatus` (the dialog) and `updatingStatus` (tags `busy`, `updatingStatus`). */
export function statusStates<TNotice extends string, TSetStatus extends string, TContext, TInput>(
  names: StatusNames<TNotice, TSetStatus, TContext, TInput>,
) {
  return {
    confirmingStatus: {
      description: 'The enable/disable confirmation dialog.',
      on: {
        'status.cancel': { target: 'ready', actions: 'clearSelection' },
        'status.confirm': 'updatingStatus',
      },
    },
    updatingStatus: {
      tags: ['busy', 'updatingStatus'],
      invoke: {
        id: names.setStatus,
        src: names.setStatus,
        input: names.statusInput,
        onDone: [
          {
            guard: 'wasEnabling',
            target: 'loading',
            actions: ['clearSelection', { type: 'notify', params: { notice: names.enabled } }],
          },
          {
            target: 'loading',
            actions: ['clearSelection', { type: 'notify', params: { notice: names.disabled } }],
          },
        ],
        onError: {
          target: 'ready',
          actions: [
            'clearSelection',
            { type: 'notify', params: failedCallNotice(names.statusFailed, clientMessage) },
          ],
        },
      },
    },
  } as const
}

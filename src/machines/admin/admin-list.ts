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

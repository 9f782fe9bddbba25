/**
 * The administration's user list: `loading` → `ready` (or `failed`, retry), with the
 * enable/disable confirmation (never yourself), the edit dialog (`editing`: name, surname,
 * global role) and the invite dialog (`inviting` runs the invite machine as a child); a change
 * that the server accepted reloads the list.
 */
import * as v from 'valibot'
import { assign, setup } from 'xstate'
import { type AdminUser, GlobalRoleInput } from '../../../contract'
import { type CallFailure, failureOf } from '../shared/failure'
import type { FieldErrors, FormValues } from '../shared/form'
import { checkedSubmit, isValidForm, parsedValues, refusedValues } from '../shared/form'
import { promisePlaceholder } from '../shared/placeholder'
import type { AdminListContext, AdminListEvent, AdminListInput } from './admin-list'
import { listLoadStates, loadedRows, selectedRow, statusStates, statusToggle } from './admin-list'
import { inviteUserMachine } from './invite-user.machine'

export type AdminUsersNotice =
  | 'usersFetchFailed'
  | 'userEnabled'
  | 'userDisabled'
  | 'userStatusFailed'
  | 'ownAccountStatus'
  | 'userUpdated'
  | 'userUpdateFailed'

const Name = (message: string) =>
  v.pipe(v.string(), v.trim(), v.minLength(2, message), v.maxLength(100, message))

/** The edit dialog's fields: the shared payload rules with the messages the dialog shows. */
const EditUserForm = v.object({
  name: Name('Name must be at least 2 characters'),
  surname: Name('Surname must be at least 2 characters'),
  role: GlobalRoleInput,
})
export type UserUpdate = v.InferOutput<typeof EditUserForm>

export type AdminUsersEvent =
  | AdminListEvent
  | { type: 'status.toggle'; userId: number }
  | { type: 'user.edit'; userId: number }
  | { type: 'user.save'; values: FormValues }
  | { type: 'user.close' }
  | { type: 'invite.open' }

/** `selectedId`: the user whose status is being changed, or who is edited. */
export type AdminUsersContext = AdminListContext & {
  users: AdminUser[]
  update: UserUpdate | null
  /** Why the last edit was refused by the server. */
  editFailure: CallFailure | null
  /** Validation messages (English source text) of the edit dialog, from the last save. */
  editErrors: FieldErrors<keyof UserUpdate>
}

export const selectedUser = (context: AdminUsersContext) => selectedRow(context.users, context.selectedId)

export const adminUsersMachine = setup({
  types: {} as { context: AdminUsersContext; events: AdminUsersEvent; input: AdminListInput },
  actors: {
    loadUsers: promisePlaceholder<AdminUser[]>('loadUsers'),
    setUserStatus: promisePlaceholder<void, { email: string; enabled: boolean }>('setUserStatus'),
    updateUser: promisePlaceholder<void, { userId: number; update: UserUpdate }>('updateUser'),
    inviteUser: inviteUserMachine,
  },
  actions: {
    notify: (_, _params: { notice: AdminUsersNotice; message?: string }) => {},
    storeList: assign({ users: ({ event }) => loadedRows<AdminUser>(event), failure: null }),
    storeFailure: assign({ failure: ({ event }) => failureOf(event) }),
    storeEditFailure: assign({ editFailure: ({ event }) => failureOf(event) }),
    clearSelection: assign({ selectedId: null }),
  },
  guards: {
    hasValidUpdate: ({ event }) => event.type === 'user.save' && isValidForm(EditUserForm, event.values),
    isKnownUser: ({ context, event }) =>
      'userId' in event && context.users.some((u) => u.id === event.userId),
    /** Users cannot disable (or re-enable) themselves. */
    isCurrentUser: ({ context, event }) =>
      event.type === 'status.toggle' &&
      context.users.find((u) => u.id === event.userId)?.email.toLowerCase() ===
        context.currentUserEmail.toLowerCase(),
    wasEnabling: ({ context }) => selectedUser(context)?.enabled === false,
    wasSent: ({ event }) => (event as { output?: { sent?: boolean } }).output?.sent === true,
  },
}).createMachine({
  id: 'adminUsers',
  context: ({ input }) => ({
    currentUserEmail: input.currentUserEmail,
    users: [],
    failure: null,
    selectedId: null,
    update: null,
    editFailure: null,
    editErrors: {},
  }),
  initial: 'loading',
  states: {
    ...listLoadStates({ load: 'loadUsers', loadFailed: 'usersFetchFailed' }),
    ready: {
      on: {
        'list.refresh': 'loading',
        'status.toggle': statusToggle({
          isOwn: 'isCurrentUser',
          own: 'ownAccountStatus',
          description: "'You cannot disable your own account': refused with a message, no dialog.",
          isKnown: 'isKnownUser',
          select: assign({ selectedId: ({ event }) => event.userId }),
        }),
        'user.edit': {
          guard: 'isKnownUser',
          target: 'editing',
          actions: assign({ selectedId: ({ event }) => event.userId, editFailure: null, editErrors: {} }),
        },
        'invite.open': 'inviting',
      },
    },
    ...statusStates({
      setStatus: 'setUserStatus',
      statusInput: ({ context }: { context: AdminUsersContext }) => {
        const user = selectedUser(context)!
        return { email: user.email, enabled: !user.enabled }
      },
      enabled: 'userEnabled',
      disabled: 'userDisabled',
      statusFailed: 'userStatusFailed',
    }),
    editing: {
      description: 'The edit-user dialog (name, surname ≥ 2 characters, one of the global roles).',
      initial: 'idle',
      states: {
        idle: {
          on: {
            'user.close': { target: '#adminUsers.ready', actions: 'clearSelection' },
            'user.save': checkedSubmit({
              guard: 'hasValidUpdate',
              target: 'saving',
              accept: assign({ update: parsedValues(EditUserForm), editErrors: {}, editFailure: null }),
              refuse: assign({ editErrors: refusedValues(EditUserForm) }),
            }),
          },
        },
        saving: {
          tags: ['busy', 'savingUser'],
          invoke: {
            id: 'updateUser',
            src: 'updateUser',
            input: ({ context }) => ({ userId: context.selectedId!, update: context.update! }),
            onDone: {
              target: '#adminUsers.loading',
              actions: ['clearSelection', { type: 'notify', params: { notice: 'userUpdated' } }],
            },
            onError: {
              target: 'idle',
              actions: ['storeEditFailure', { type: 'notify', params: { notice: 'userUpdateFailed' } }],
            },
          },
        },
      },
    },
    inviting: {
      description: 'The invite dialog: its own machine runs as the child `inviteUser`.',
      invoke: {
        id: 'inviteUser',
        src: 'inviteUser',
        onDone: [
          { guard: 'wasSent', target: 'loading', description: 'Invited: the new user appears in the list.' },
          { target: 'ready' },
        ],
      },
    },
  },
})

export type AdminUsersMachine = typeof adminUsersMachine

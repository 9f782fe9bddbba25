/**
 * The invite-user dialog: `editing` (identity, global role, a list of companies with their
 * company role; a company cannot be added twice) → `sending` → `sent` (the activation mail is
 * out); `closed` when dismissed. Field rules are the shared schema's, checked by the view.
 */
import { assign, fromPromise, not, setup } from 'xstate'
import { COMPANY_ROLES, type CompanyRole, contractMessages, type GlobalRole } from '../../contract'
import { type CallFailure, toFailure } from '../shared/failure'

const COMPANY_ALREADY_ADDED = contractMessages.companyAlreadyAdded
const SELECT_COMPANY_MESSAGE = contractMessages.selectCompany
const ROLE_REQUIRED = contractMessages.roleRequired

export type InviteUserNotice = 'userInvited' | 'inviteFailed'

export type InviteMembership = { companyId: number; role: CompanyRole }
export type InviteIdentity = { email: string; name: string; surname: string; role: GlobalRole }

export type InviteUserEvent =
  | { type: 'company.add'; companyId: number | null; role: string }
  | { type: 'company.remove'; companyId: number }
  | { type: 'invite.submit'; identity: InviteIdentity }
  | { type: 'invite.close' }

export type InviteUserContext = {
  memberships: InviteMembership[]
  /** Why the last company could not be added (a source message). */
  companyError: string | null
  identity: InviteIdentity | null
  failure: CallFailure | null
}

export const inviteUserMachine = setup({
  types: {
    context: {} as InviteUserContext,
    events: {} as InviteUserEvent,
    output: {} as { sent: boolean },
  },
  actors: {
    invite: fromPromise<void, InviteIdentity & { memberships: InviteMembership[] }>(async () => {
      throw new Error('invite not provided')
    }),
  },
  actions: {
    notify: (_, _params: { notice: InviteUserNotice; message?: string }) => {},
  },
  guards: {
    hasCompany: ({ event }) => event.type === 'company.add' && event.companyId !== null,
    hasCompanyRole: ({ event }) =>
      event.type === 'company.add' && (COMPANY_ROLES as readonly string[]).includes(event.role),
    isCompanyAlreadyAdded: ({ context, event }) =>
      event.type === 'company.add' && context.memberships.some((m) => m.companyId === event.companyId),
  },
}).createMachine({
  id: 'inviteUser',
  context: { memberships: [], companyError: null, identity: null, failure: null },
  output: ({ context }) => ({ sent: context.identity !== null && context.failure === null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'invite.close': 'closed',
        'company.add': [
          { guard: not('hasCompany'), actions: assign({ companyError: SELECT_COMPANY_MESSAGE }) },
          { guard: not('hasCompanyRole'), actions: assign({ companyError: ROLE_REQUIRED }) },
          {
            guard: 'isCompanyAlreadyAdded',
            description: "'company already added': one membership per company.",
            actions: assign({ companyError: COMPANY_ALREADY_ADDED }),
          },
          {
            actions: assign({
              memberships: ({ context, event }) => [
                ...context.memberships,
                { companyId: event.companyId!, role: event.role as CompanyRole },
              ],
              companyError: null,
            }),
          },
        ],
        'company.remove': {
          actions: assign({
            memberships: ({ context, event }) =>
              context.memberships.filter((m) => m.companyId !== event.companyId),
            companyError: null,
          }),
        },
        'invite.submit': {
          target: 'sending',
          actions: assign({ identity: ({ event }) => event.identity, failure: null }),
        },
      },
    },
    sending: {
      tags: ['busy'],
      invoke: {
        id: 'invite',
        src: 'invite',
        input: ({ context }) => ({ ...context.identity!, memberships: context.memberships }),
        onDone: { target: 'sent', actions: { type: 'notify', params: { notice: 'userInvited' } } },
        onError: {
          target: 'editing',
          actions: [
            assign({ failure: ({ event }) => toFailure(event.error) }),
            {
              type: 'notify',
              params: ({ event }) => {
                const failure = toFailure(event.error)
                return {
                  notice: 'inviteFailed',
                  ...(failure.status < 500 ? { message: failure.detail ?? failure.message } : {}),
                }
              },
            },
          ],
        },
      },
    },
    sent: { type: 'final' },
    closed: { type: 'final', entry: assign({ identity: null }) },
  },
})

export type InviteUserMachine = typeof inviteUserMachine

/**
 * The invite-user dialog: `editing` (identity, global role, a list of companies with their
 * company role; a company cannot be added twice) → `sending` → `sent` (the activation mail is
 * out); `closed` when dismissed. The identity fields are checked here against the shared rules:
 * a submit that breaks one stays in `editing` with the field errors.
 */
import * as v from 'valibot'
import { assign, not, setup } from 'xstate'
import {
  AdminEmail,
  COMPANY_ROLES,
  type CompanyRole,
  contractMessages,
  GlobalRoleInput,
} from '../../../contract'
import { type CallFailure, toFailure } from '../shared/failure'
import type { FieldErrors, FormValues } from '../shared/form'
import { checkedSubmit, isValidForm, parsedValues, refusedValues } from '../shared/form'
import { promisePlaceholder } from '../shared/placeholder'

const COMPANY_ALREADY_ADDED = contractMessages.companyAlreadyAdded
const SELECT_COMPANY_MESSAGE = contractMessages.selectCompany
const ROLE_REQUIRED = contractMessages.roleRequired

export type InviteUserNotice = 'userInvited' | 'inviteFailed'

export type InviteMembership = { companyId: number; role: CompanyRole }

const Name = (message: string) =>
  v.pipe(v.string(), v.trim(), v.minLength(2, message), v.maxLength(100, message))

/** The dialog's identity fields: the shared payload rules with the messages the dialog shows. */
const InviteIdentityForm = v.object({
  email: AdminEmail,
  name: Name('Name must be at least 2 characters'),
  surname: Name('Surname must be at least 2 characters'),
  role: GlobalRoleInput,
})
export type InviteIdentity = v.InferOutput<typeof InviteIdentityForm>

export type InviteUserEvent =
  | { type: 'company.add'; companyId: number | null; role: string }
  | { type: 'company.remove'; companyId: number }
  | { type: 'invite.submit'; values: FormValues }
  | { type: 'invite.close' }

export type InviteUserContext = {
  memberships: InviteMembership[]
  /** Why the last company could not be added (a source message). */
  companyError: string | null
  identity: InviteIdentity | null
  /** Validation messages (English source text) by field, from the last submit. */
  fieldErrors: FieldErrors<keyof InviteIdentity>
  failure: CallFailure | null
}

export const inviteUserMachine = setup({
  types: {} as { context: InviteUserContext; events: InviteUserEvent; output: { sent: boolean } },
  actors: {
    invite: promisePlaceholder<void, InviteIdentity & { memberships: InviteMembership[] }>('invite'),
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
    hasValidIdentity: ({ event }) =>
      event.type === 'invite.submit' && isValidForm(InviteIdentityForm, event.values),
  },
}).createMachine({
  id: 'inviteUser',
  context: { memberships: [], companyError: null, identity: null, fieldErrors: {}, failure: null },
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
        'invite.submit': checkedSubmit({
          guard: 'hasValidIdentity',
          target: 'sending',
          accept: assign({ identity: parsedValues(InviteIdentityForm), fieldErrors: {}, failure: null }),
          refuse: assign({ fieldErrors: refusedValues(InviteIdentityForm) }),
          description: 'A field breaks its rule (e-mail, names ≥ 2 characters, a global role): not sent.',
        }),
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

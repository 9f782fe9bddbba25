/**
 * The company edit side sheet: `loading` the company and every user (for the add picker) →
 * `editing` (fields, logo upload, add a member, mark/undo removals) → `saving` (update the fields,
 * then apply the pending removals one by one) → `saved`, which ends 1 s later so the list
 * refreshes; `cancelled` drops the pending removals. Every rule of the sheet is a guard here.
 */
import * as v from 'valibot'
import { assign, not, setup } from 'xstate'
import {
  type AdminUser,
  AllowedSendersText,
  COMPANY_ROLES,
  type Company,
  CompanyName,
  type CompanyRole,
  type CompanyUser,
  contractMessages,
  FieldIssue,
  LOGO_TYPES,
  UpdateCompanyInput,
} from '../../../contract'
import { type CallFailure, failedCallNotice, failureOf, toFailure } from '../shared/failure'
import { type FieldErrors, fieldErrorsOf } from '../shared/form'
import { promisePlaceholder } from '../shared/placeholder'

/** The company list refreshes 1 s after a company edit. */
const LIST_REFRESH_DELAY_MS = 1000

const SELECT_USER_MESSAGE = contractMessages.selectUser
const ROLE_REQUIRED_MESSAGE = contractMessages.roleRequired
const ALREADY_MEMBER_MESSAGE = contractMessages.alreadyMember
export const LOGO_TYPE_MESSAGE = contractMessages.logoTypeInvalid

export type CompanyEditNotice =
  | 'companyFetchFailed'
  | 'companyUpdated'
  | 'companyUpdateFailed'
  | 'logoUploaded'
  | 'logoUploadFailed'
  | 'memberAdded'
  | 'memberAddFailed'
  | 'memberRemoveFailed'

/** The editable fields as the form holds them (strings; '' clears an optional one). */
export type CompanyFields = {
  name: string
  invoice_scanner: string
  expense_scanner: string
  monday_link: string
  powerbi_link: string
  /** Addresses or @domains that may mail the scanner addresses, as typed (absent: unchanged). */
  allowed_senders?: string
}

const CompanyFieldsSchema = v.object({
  ...UpdateCompanyInput.entries,
  name: CompanyName,
  allowed_senders: v.optional(AllowedSendersText),
})
export type CompanyUpdate = v.InferOutput<typeof CompanyFieldsSchema>

/** A file as the sheet needs it (a `File` satisfies it). */
export type LogoFile = Blob & { name: string }

export type CompanyEditLoaded = { company: Company; users: AdminUser[]; logoUrl: string | null }

export type CompanyEditEvent =
  | { type: 'company.save'; fields: CompanyFields }
  | { type: 'company.cancel' }
  | { type: 'company.retry' }
  | { type: 'logo.select'; file: LogoFile }
  | { type: 'member.add'; email: string; role: string }
  | { type: 'removal.mark'; email: string }
  | { type: 'removal.undo'; email: string }

export type CompanyEditContext = {
  companyId: number
  currentUserEmail: string
  company: Company | null
  /** Every user, for the add picker. */
  users: AdminUser[]
  logoUrl: string | null
  /** E-mails of members to remove on save, in the order they were marked. */
  pendingRemovals: string[]
  /** Validation messages (English source text) by field, from the last save attempt. */
  fieldErrors: FieldErrors<keyof CompanyFields>
  /** Why the add form was refused: a source message. */
  addError: string | null
  logoError: string | null
  failure: CallFailure | null
  /** What is being sent: the parsed fields, the member being added, the logo. */
  update: CompanyUpdate | null
  adding: { email: string; role: CompanyRole } | null
  logo: LogoFile | null
  saved: boolean
}

const isCompanyRole = (role: string): role is CompanyRole =>
  (COMPANY_ROLES as readonly string[]).includes(role)

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()

const fieldErrorsOfFields = (fields: CompanyFields): CompanyEditContext['fieldErrors'] =>
  fieldErrorsOf(CompanyFieldsSchema, fields)

/**
 * The fields a refused save names in the error body's `detail` (a scanner address another company
 * or the other kind already has, a field the server refused), shown by those fields.
 */
function serverFieldErrors(error: unknown): CompanyEditContext['fieldErrors'] {
  const issues = v.safeParse(v.array(FieldIssue), (error as { detail?: unknown } | null)?.detail)
  const errors: CompanyEditContext['fieldErrors'] = {}
  for (const { field, message } of issues.success ? issues.output : []) {
    if (Object.hasOwn(CompanyFieldsSchema.entries, field)) errors[field as keyof CompanyFields] ??= message
  }
  return errors
}

export const companyEditMachine = setup({
  types: {
    context: {} as CompanyEditContext,
    events: {} as CompanyEditEvent,
    input: {} as { companyId: number; currentUserEmail: string },
    output: {} as { saved: boolean },
  },
  actors: {
    load: promisePlaceholder<CompanyEditLoaded, { companyId: number }>('load'),
    uploadLogo: promisePlaceholder<{ logoUrl: string }, { companyId: number; file: LogoFile }>('uploadLogo'),
    addMember: promisePlaceholder<void, { companyId: number; email: string; role: CompanyRole }>('addMember'),
    updateCompany: promisePlaceholder<void, { companyId: number; update: CompanyUpdate }>('updateCompany'),
    removeMember: promisePlaceholder<void, { companyId: number; email: string }>('removeMember'),
  },
  actions: {
    notify: (_, _params: { notice: CompanyEditNotice; message?: string }) => {},
    storeFailure: assign({ failure: ({ event }) => failureOf(event) }),
  },
  guards: {
    hasSelectedUser: ({ event }) => event.type === 'member.add' && event.email.trim() !== '',
    hasCompanyRole: ({ event }) => event.type === 'member.add' && isCompanyRole(event.role),
    isAlreadyMember: ({ context, event }) =>
      event.type === 'member.add' &&
      (context.company?.users ?? []).some((u) => sameEmail(u.email, event.email)),
    /** A member not yet marked, and never the signed-in user (nobody removes themselves). */
    canMarkRemoval: ({ context, event }) =>
      event.type === 'removal.mark' &&
      !sameEmail(event.email, context.currentUserEmail) &&
      (context.company?.users ?? []).some((u) => sameEmail(u.email, event.email)) &&
      !context.pendingRemovals.some((e) => sameEmail(e, event.email)),
    isPendingRemoval: ({ context, event }) =>
      event.type === 'removal.undo' && context.pendingRemovals.some((e) => sameEmail(e, event.email)),
    isAllowedLogoType: ({ event }) =>
      event.type === 'logo.select' && LOGO_TYPES.some((type) => type === event.file.type),
    hasValidFields: ({ event }) =>
      event.type === 'company.save' && Object.keys(fieldErrorsOfFields(event.fields)).length === 0,
    hasPendingRemovals: ({ context }) => context.pendingRemovals.length > 0,
    hasMoreRemovals: ({ context }) => context.pendingRemovals.length > 1,
  },
}).createMachine({
  id: 'companyEdit',
  context: ({ input }) => ({
    companyId: input.companyId,
    currentUserEmail: input.currentUserEmail,
    company: null,
    users: [],
    logoUrl: null,
    pendingRemovals: [],
    fieldErrors: {},
    addError: null,
    logoError: null,
    failure: null,
    update: null,
    adding: null,
    logo: null,
    saved: false,
  }),
  output: ({ context }) => ({ saved: context.saved }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy', 'loading'],
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ companyId: context.companyId }),
        onDone: {
          target: 'editing',
          actions: assign({
            company: ({ event }) => event.output.company,
            users: ({ event }) => event.output.users,
            logoUrl: ({ event }) => event.output.logoUrl,
            failure: null,
          }),
        },
        onError: {
          target: 'failed',
          actions: ['storeFailure', { type: 'notify', params: { notice: 'companyFetchFailed' } }],
        },
      },
      on: { 'company.cancel': 'cancelled' },
    },
    failed: {
      on: {
        'company.retry': 'loading',
        'company.cancel': 'cancelled',
      },
    },
    editing: {
      on: {
        'company.cancel': {
          target: 'cancelled',
          description: 'Nothing was removed: pending removals are only applied on save.',
        },
        'company.save': [
          {
            guard: 'hasValidFields',
            target: 'saving',
            actions: assign({
              update: ({ event }) => v.parse(CompanyFieldsSchema, event.fields),
              fieldErrors: {},
              failure: null,
            }),
          },
          {
            description: 'A field breaks its rule (name ≥ 2 characters, e-mails, http(s) links).',
            actions: assign({ fieldErrors: ({ event }) => fieldErrorsOfFields(event.fields) }),
          },
        ],
        'logo.select': [
          {
            guard: 'isAllowedLogoType',
            target: 'uploadingLogo',
            actions: assign({ logo: ({ event }) => event.file, logoError: null }),
          },
          {
            description: 'Only JPEG, PNG and GIF: refused before uploading.',
            actions: assign({ logoError: LOGO_TYPE_MESSAGE }),
          },
        ],
        'member.add': [
          { guard: not('hasSelectedUser'), actions: assign({ addError: SELECT_USER_MESSAGE }) },
          { guard: not('hasCompanyRole'), actions: assign({ addError: ROLE_REQUIRED_MESSAGE }) },
          { guard: 'isAlreadyMember', actions: assign({ addError: ALREADY_MEMBER_MESSAGE }) },
          {
            target: 'addingMember',
            actions: assign({
              adding: ({ event }) => ({
                email: event.email.trim().toLowerCase(),
                role: event.role as CompanyRole,
              }),
              addError: null,
            }),
          },
        ],
        'removal.mark': {
          guard: 'canMarkRemoval',
          description: 'Greyed with an undo; the signed-in user cannot be marked.',
          actions: assign({
            pendingRemovals: ({ context, event }) => [...context.pendingRemovals, event.email.toLowerCase()],
          }),
        },
        'removal.undo': {
          guard: 'isPendingRemoval',
          actions: assign({
            pendingRemovals: ({ context, event }) =>
              context.pendingRemovals.filter((e) => !sameEmail(e, event.email)),
          }),
        },
      },
    },
    uploadingLogo: {
      tags: ['busy', 'uploading'],
      description: 'The logo is stored at once (the answer carries logo_path), independently of save.',
      invoke: {
        id: 'uploadLogo',
        src: 'uploadLogo',
        input: ({ context }) => ({ companyId: context.companyId, file: context.logo! }),
        onDone: {
          target: 'editing',
          actions: [
            assign({ logoUrl: ({ event }) => event.output.logoUrl, logo: null }),
            { type: 'notify', params: { notice: 'logoUploaded' } },
          ],
        },
        onError: {
          target: 'editing',
          actions: [
            assign({ logo: null, logoError: ({ event }) => toFailure(event.error).message }),
            {
              type: 'notify',
              params: failedCallNotice('logoUploadFailed', serverMessage),
            },
          ],
        },
      },
    },
    addingMember: {
      tags: ['busy', 'adding'],
      invoke: {
        id: 'addMember',
        src: 'addMember',
        input: ({ context }) => ({
          companyId: context.companyId,
          email: context.adding!.email,
          role: context.adding!.role,
        }),
        onDone: {
          target: 'editing',
          actions: [
            assign({
              company: ({ context }) => withMember(context),
              adding: null,
            }),
            { type: 'notify', params: { notice: 'memberAdded' } },
          ],
        },
        onError: {
          target: 'editing',
          actions: [
            assign({ adding: null }),
            {
              type: 'notify',
              params: failedCallNotice('memberAddFailed', serverMessage),
            },
          ],
        },
      },
    },
    saving: {
      tags: ['busy', 'saving'],
      initial: 'updating',
      states: {
        updating: {
          invoke: {
            id: 'updateCompany',
            src: 'updateCompany',
            input: ({ context }) => ({ companyId: context.companyId, update: context.update! }),
            onDone: [{ guard: 'hasPendingRemovals', target: 'removing' }, { target: '#companyEdit.saved' }],
            onError: {
              target: '#companyEdit.editing',
              description: 'Refused fields (e.g. a scanner address in use) are shown by those fields.',
              actions: [
                'storeFailure',
                assign({ fieldErrors: ({ event }) => serverFieldErrors(event.error) }),
                { type: 'notify', params: failedCallNotice('companyUpdateFailed', serverMessage) },
              ],
            },
          },
        },
        removing: {
          description: 'One DELETE per pending removal; a removal applied is no longer pending.',
          invoke: {
            id: 'removeMember',
            src: 'removeMember',
            input: ({ context }) => ({ companyId: context.companyId, email: context.pendingRemovals[0]! }),
            onDone: [
              {
                guard: 'hasMoreRemovals',
                target: 'removing',
                reenter: true,
                actions: assign(applyFirstRemoval),
              },
              { target: '#companyEdit.saved', actions: assign(applyFirstRemoval) },
            ],
            onError: {
              target: '#companyEdit.editing',
              actions: [
                'storeFailure',
                { type: 'notify', params: failedCallNotice('memberRemoveFailed', serverMessage) },
              ],
            },
          },
        },
      },
    },
    saved: {
      tags: ['closed'],
      entry: [assign({ saved: true }), { type: 'notify', params: { notice: 'companyUpdated' } }],
      after: {
        [LIST_REFRESH_DELAY_MS]: {
          target: 'done',
          description: 'The sheet is closed; the company list refreshes 1 s after the edit.',
        },
      },
    },
    done: { type: 'final', tags: ['closed'] },
    cancelled: { type: 'final', tags: ['closed'] },
  },
})

/** A removal the server applied: no longer pending, no longer listed. */
function applyFirstRemoval({ context }: { context: CompanyEditContext }) {
  const [removed = '', ...rest] = context.pendingRemovals
  return {
    pendingRemovals: rest,
    company: context.company
      ? { ...context.company, users: context.company.users.filter((u) => !sameEmail(u.email, removed)) }
      : null,
  }
}

/** The server's message for a toast, unless it is a generic 5xx one (then the notice's text). */
function serverMessage(failure: CallFailure): string | undefined {
  if (failure.status >= 500) return undefined
  return failure.detail ?? failure.message
}

function withMember(context: CompanyEditContext): Company | null {
  const { company, adding, users } = context
  if (!company || !adding) return company
  const user = users.find((u) => sameEmail(u.email, adding.email))
  if (!user) return company
  const member: CompanyUser = {
    id: user.id,
    email: user.email,
    name: user.name,
    surname: user.surname,
    role: user.role,
    enabled: user.enabled,
    validated: user.validated,
    is_2fa_enabled: user.is_2fa_enabled,
    company_role: adding.role,
  }
  return { ...company, users: [...company.users, member] }
}

export type CompanyEditMachine = typeof companyEditMachine

/**
 * The administration's company list: `loading` → `ready` (or `failed`, retry), with the
 * enable/disable confirmation (`confirmingStatus` → `updatingStatus`) and the edit sheet
 * (`editing` runs the company edit machine as a child; a saved edit reloads the list).
 */
import { assign, setup } from 'xstate'
import type { Company } from '../../contract'
import { type CallFailure, failureOf } from '../shared/failure'
import { promisePlaceholder } from '../shared/placeholder'
import { type AdminListInput, listLoadStates, loadedRows, statusStates } from './admin-list'
import { companyEditMachine } from './company-edit.machine'

export type AdminCompaniesNotice =
  | 'companiesFetchFailed'
  | 'companyEnabled'
  | 'companyDisabled'
  | 'companyStatusFailed'
  | 'ownCompanyStatus'

export type AdminCompaniesEvent =
  | { type: 'list.retry' }
  | { type: 'list.refresh' }
  | { type: 'status.toggle'; companyId: number }
  | { type: 'status.confirm' }
  | { type: 'status.cancel' }
  | { type: 'company.edit'; companyId: number }

export type AdminCompaniesContext = {
  currentUserEmail: string
  companies: Company[]
  failure: CallFailure | null
  /** The company whose status is being changed, or edited in the sheet. */
  selectedId: number | null
}

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

export const selectedCompany = (context: AdminCompaniesContext): Company | null =>
  context.companies.find((c) => c.id === context.selectedId) ?? null

export const adminCompaniesMachine = setup({
  types: {} as { context: AdminCompaniesContext; events: AdminCompaniesEvent; input: AdminListInput },
  actors: {
    loadCompanies: promisePlaceholder<Company[]>('loadCompanies'),
    setCompanyStatus: promisePlaceholder<void, { companyId: number; enabled: boolean }>('setCompanyStatus'),
    companyEdit: companyEditMachine,
  },
  actions: {
    notify: (_, _params: { notice: AdminCompaniesNotice; message?: string }) => {},
    storeList: assign({ companies: ({ event }) => loadedRows<Company>(event), failure: null }),
    storeFailure: assign({ failure: ({ event }) => failureOf(event) }),
    clearSelection: assign({ selectedId: null }),
  },
  guards: {
    isKnownCompany: ({ context, event }) =>
      'companyId' in event && context.companies.some((c) => c.id === event.companyId),
    /** A company you belong to cannot be disabled (nor enabled) by you. */
    isOwnCompany: ({ context, event }) =>
      event.type === 'status.toggle' &&
      context.companies
        .find((c) => c.id === event.companyId)
        ?.users.some((u) => sameEmail(u.email, context.currentUserEmail)) === true,
    wasSaved: ({ event }) => (event as { output?: { saved?: boolean } }).output?.saved === true,
    wasEnabling: ({ context }) => selectedCompany(context)?.enabled === false,
  },
}).createMachine({
  id: 'adminCompanies',
  context: ({ input }) => ({
    currentUserEmail: input.currentUserEmail,
    companies: [],
    failure: null,
    selectedId: null,
  }),
  initial: 'loading',
  states: {
    ...listLoadStates({ load: 'loadCompanies', loadFailed: 'companiesFetchFailed' }),
    ready: {
      on: {
        'list.refresh': 'loading',
        'status.toggle': [
          {
            guard: 'isOwnCompany',
            description: "'You cannot deactivate your own company': refused with a message, no dialog.",
            actions: { type: 'notify', params: { notice: 'ownCompanyStatus' } },
          },
          {
            guard: 'isKnownCompany',
            target: 'confirmingStatus',
            actions: assign({ selectedId: ({ event }) => event.companyId }),
          },
        ],
        'company.edit': {
          guard: 'isKnownCompany',
          target: 'editing',
          actions: assign({ selectedId: ({ event }) => event.companyId }),
        },
      },
    },
    ...statusStates({
      setStatus: 'setCompanyStatus',
      statusInput: ({ context }: { context: AdminCompaniesContext }) => ({
        companyId: context.selectedId!,
        enabled: !selectedCompany(context)?.enabled,
      }),
      enabled: 'companyEnabled',
      disabled: 'companyDisabled',
      statusFailed: 'companyStatusFailed',
    }),
    editing: {
      description: 'The edit sheet is open: its own machine runs as the child `companyEdit`.',
      invoke: {
        id: 'companyEdit',
        src: 'companyEdit',
        input: ({ context }) => ({
          companyId: context.selectedId!,
          currentUserEmail: context.currentUserEmail,
        }),
        onDone: [
          {
            guard: 'wasSaved',
            target: 'loading',
            description: 'Saved: the child waited 1 s, the list refreshes now.',
            actions: 'clearSelection',
          },
          { target: 'ready', actions: 'clearSelection' },
        ],
      },
    },
  },
})

export type AdminCompaniesMachine = typeof adminCompaniesMachine

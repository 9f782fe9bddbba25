/**
 * The administration's company list: `loading` → `ready` (or `failed`, retry), with the
 * enable/disable confirmation (`confirmingStatus` → `updatingStatus`) and the edit sheet
 * (`editing` runs the company edit machine as a child; a saved edit reloads the list).
 */
import { assign, setup } from 'xstate'
import type { Company } from '../../../contract'
import { failureOf } from '../shared/failure'
import { promisePlaceholder } from '../shared/placeholder'
import type { AdminListContext, AdminListEvent, AdminListInput } from './admin-list'
import { listLoadStates, loadedRows, selectedRow, statusStates, statusToggle } from './admin-list'
import { companyEditMachine } from './company-edit.machine'

export type AdminCompaniesNotice =
  | 'companiesFetchFailed'
  | 'companyEnabled'
  | 'companyDisabled'
  | 'companyStatusFailed'
  | 'ownCompanyStatus'

export type AdminCompaniesEvent =
  | AdminListEvent
  | { type: 'status.toggle'; companyId: number }
  | { type: 'company.edit'; companyId: number }

/** `selectedId`: the company whose status is being changed, or edited in the sheet. */
export type AdminCompaniesContext = AdminListContext & { companies: Company[] }

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

export const selectedCompany = (context: AdminCompaniesContext) =>
  selectedRow(context.companies, context.selectedId)

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
        'status.toggle': statusToggle({
          isOwn: 'isOwnCompany',
          own: 'ownCompanyStatus',
          description: "'You cannot deactivate your own company': refused with a message, no dialog.",
          isKnown: 'isKnownCompany',
          select: assign({ selectedId: ({ event }) => event.companyId }),
        }),
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

/**
 * The selected company: after sign-in `loading` the user's companies, then `ready` (one selected:
 * the remembered one if still in the list, else the first), `empty`, or `failed` (retry).
 * Switching stores the id; an unknown id is refused with 'Company not found'.
 */
import { assign, setup } from 'xstate'
import type { MyCompany } from '../../../contract'
import { promisePlaceholder } from '../shared/placeholder'

export type CompanySelectionNotice = 'companyChanged' | 'companyNotFound' | 'companiesFailed'

export type CompanySelectionEvent =
  | { type: 'companies.load' }
  | { type: 'companies.clear' }
  | { type: 'companies.retry' }
  | { type: 'company.select'; id: number }

/** A company the user can pick, with the address of its logo (null: none uploaded). */
export type CompanyChoice = MyCompany & { logoUrl: string | null }

export type CompanySelectionContext = { companies: CompanyChoice[]; selectedId: number | null }

type Loaded = { companies: CompanyChoice[]; storedId: number | null }

export const companySelectionMachine = setup({
  types: {} as { context: CompanySelectionContext; events: CompanySelectionEvent },
  actors: {
    loadCompanies: promisePlaceholder<Loaded>('loadCompanies'),
  },
  actions: {
    persist: (_, _params: { id: number }) => {},
    notify: (_, _params: { notice: CompanySelectionNotice; name?: string }) => {},
  },
  guards: {
    hasCompanies: (_, loaded: Loaded) => loaded.companies.length > 0,
    isKnownCompany: ({ context }, id: number) => context.companies.some((c) => c.id === id),
  },
}).createMachine({
  id: 'companySelection',
  context: { companies: [], selectedId: null },
  initial: 'idle',
  on: { 'companies.clear': { target: '.idle', actions: assign({ companies: [], selectedId: null }) } },
  states: {
    idle: {
      description: 'Nobody is signed in.',
      on: { 'companies.load': 'loading' },
    },
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadCompanies',
        src: 'loadCompanies',
        onDone: [
          {
            guard: { type: 'hasCompanies', params: ({ event }) => event.output },
            target: 'ready',
            actions: [
              assign({
                companies: ({ event }) => event.output.companies,
                selectedId: ({ event }) => {
                  const { companies, storedId } = event.output
                  return companies.some((c) => c.id === storedId) ? storedId : (companies[0]?.id ?? null)
                },
              }),
              { type: 'persist', params: ({ context }) => ({ id: context.selectedId! }) },
            ],
            description: 'The remembered company if it is still in the list, else the first.',
          },
          { target: 'empty', actions: assign({ companies: [], selectedId: null }) },
        ],
        onError: { target: 'failed', actions: { type: 'notify', params: { notice: 'companiesFailed' } } },
      },
    },
    ready: {
      on: {
        'company.select': [
          {
            guard: { type: 'isKnownCompany', params: ({ event }) => event.id },
            actions: [
              assign({ selectedId: ({ event }) => event.id }),
              { type: 'persist', params: ({ event }) => ({ id: event.id }) },
              {
                type: 'notify',
                params: ({ context, event }) => ({
                  notice: 'companyChanged',
                  name: context.companies.find((c) => c.id === event.id)?.name ?? '',
                }),
              },
            ],
          },
          { actions: { type: 'notify', params: { notice: 'companyNotFound' } } },
        ],
        'companies.load': 'loading',
      },
    },
    empty: { on: { 'companies.load': 'loading' } },
    failed: { on: { 'companies.retry': 'loading', 'companies.load': 'loading' } },
  },
})

/** The members of the selected company (read-only, for company administrators): loading → ready | failed → retry. */
import { assign, setup } from 'xstate'
import type { CompanyUser } from '../../../contract'
import { promisePlaceholder } from '../shared/placeholder'

export const companyUsersMachine = setup({
  types: {
    context: {} as { companyId: number; users: CompanyUser[] },
    events: {} as { type: 'users.retry' },
    input: {} as { companyId: number },
  },
  actors: {
    loadUsers: promisePlaceholder<CompanyUser[], { companyId: number }>('loadUsers'),
  },
  actions: { notifyFailed: () => {} },
}).createMachine({
  id: 'companyUsers',
  context: ({ input }) => ({ companyId: input.companyId, users: [] }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadUsers',
        src: 'loadUsers',
        input: ({ context }) => ({ companyId: context.companyId }),
        onDone: { target: 'ready', actions: assign({ users: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: 'notifyFailed' },
      },
    },
    ready: {},
    failed: { on: { 'users.retry': 'loading' } },
  },
})

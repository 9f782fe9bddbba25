import { expect } from 'vitest'
import type { CompanyUser } from '../../contract'
import { companyUsersMachine } from '../../src/machines/shell/company-users.machine'
import { describeModel } from '../support/model'

const member = {
  id: 3,
  email: 'bob@acme.test',
  name: 'Bob',
  surname: 'Smith',
  company_role: 'COMPANY_USER',
} as CompanyUser

describeModel('company users machine', {
  machine: companyUsersMachine,
  input: { companyId: 7 },
  actors: ['loadUsers'],
  provide: (machine, _c, record) =>
    machine.provide({ actions: { notifyFailed: () => record('notify:failed') } }),
  events: {
    'xstate.done.actor.loadUsers': [{ type: 'xstate.done.actor.loadUsers', output: [member] }],
    'xstate.error.actor.loadUsers': [{ type: 'xstate.error.actor.loadUsers', error: new Error('offline') }],
  },
  states: {
    loading: (s) => expect(s.context.companyId).toBe(7),
    ready: (s) => expect(s.context.users).toEqual([member]),
    failed: (_s, log) => expect(log.at(-1)).toBe('notify:failed'),
  },
})

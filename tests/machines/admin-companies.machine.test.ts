import { expect, it } from 'vitest'
import { createActor, fromPromise, waitFor } from 'xstate'
import { adminCompaniesMachine } from '../../src/machines/admin/admin-companies.machine'
import { describeModel } from '../support/model'
import { companies, done, error, failure, ME } from './admin-fixtures'

describeModel('admin companies machine', {
  machine: adminCompaniesMachine,
  input: { currentUserEmail: ME },
  actors: ['loadCompanies', 'setCompanyStatus', 'companyEdit'],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: { notify: (_, p) => record(`notify:${p.notice}${p.message ? `:${p.message}` : ''}`) },
    }),
  events: {
    // 1: Acme, the admin's own company; 2: Globex (enabled); 3: Initech (disabled); 9: unknown.
    'status.toggle': [1, 2, 3, 9].map((companyId) => ({ type: 'status.toggle', companyId })),
    'company.edit': [2, 9].map((companyId) => ({ type: 'company.edit', companyId })),
    'xstate.done.actor.loadCompanies': [done('loadCompanies', companies)],
    'xstate.error.actor.loadCompanies': [error('loadCompanies', failure(500, 'Internal server error'))],
    'xstate.done.actor.setCompanyStatus': [done('setCompanyStatus', undefined)],
    'xstate.error.actor.setCompanyStatus': [
      error('setCompanyStatus', failure(403, 'You cannot change the status of your own company')),
    ],
    'xstate.done.actor.companyEdit': [
      done('companyEdit', { saved: true }),
      done('companyEdit', { saved: false }),
    ],
  },
  contextKey: (c) => {
    const ctx = c as { companies: unknown[]; selectedId: number | null }
    return { loaded: ctx.companies.length, selected: ctx.selectedId }
  },
  states: {
    loading: (s) => expect(s.hasTag('loading')).toBe(true),
    failed: (s, log) => {
      expect(log.at(-1)).toBe('notify:companiesFetchFailed')
      expect(s.can({ type: 'list.retry' })).toBe(true)
    },
    ready: (s, log) => {
      expect(s.context.companies).toHaveLength(3)
      expect(s.context.selectedId).toBeNull()
      if (log.at(-1)?.startsWith('notify:companyStatusFailed'))
        expect(log.at(-1)).toBe('notify:companyStatusFailed:You cannot change the status of your own company')
      // The own company never reaches the dialog; an unknown one is ignored.
      expect(s.can({ type: 'company.edit', companyId: 9 })).toBe(false)
    },
    confirmingStatus: (s, log) => {
      expect([2, 3]).toContain(s.context.selectedId)
      expect(log).not.toContain('notify:ownCompanyStatus')
    },
    updatingStatus: (s) => expect(s.hasTag('busy')).toBe(true),
    editing: (s) => expect(s.context.selectedId).toBe(2),
  },
})

it('refuses to change the status of a company the admin belongs to, with the message', async () => {
  const notices: string[] = []
  const actor = createActor(
    adminCompaniesMachine.provide({
      actors: { loadCompanies: fromPromise(async () => companies) },
      actions: { notify: (_, p) => notices.push(p.notice) },
    }),
    { input: { currentUserEmail: ME } },
  ).start()
  await waitFor(actor, (s) => s.matches('ready'))
  actor.send({ type: 'status.toggle', companyId: 1 })
  expect(actor.getSnapshot().value).toBe('ready')
  expect(notices).toEqual(['ownCompanyStatus'])
  actor.send({ type: 'status.toggle', companyId: 3 })
  expect(actor.getSnapshot().value).toBe('confirmingStatus')
})

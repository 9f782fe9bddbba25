import { expect } from 'vitest'
import {
  type CompanyChoice,
  companySelectionMachine,
} from '../../src/machines/shell/company-selection.machine'
import { describeModel } from '../support/model'

const company = (id: number, name: string): CompanyChoice =>
  ({
    id,
    name,
    enabled: true,
    logo_path: null,
    logoUrl: null,
    powerbi_link: null,
    monday_link: null,
    role: 'COMPANY_USER',
  }) as CompanyChoice
const acme = company(1, 'Acme')
const globex = company(2, 'Globex')
const loaded = (companies: CompanyChoice[], storedId: number | null) => ({
  type: 'xstate.done.actor.loadCompanies',
  output: { companies, storedId },
})

describeModel('company selection machine', {
  machine: companySelectionMachine,
  actors: ['loadCompanies'],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: {
        persist: (_, p) => record(`persist:${p.id}`),
        notify: (_, p) => record(`notify:${p.notice}${p.name ? `:${p.name}` : ''}`),
      },
    }),
  events: {
    'xstate.done.actor.loadCompanies': [
      loaded([acme, globex], 2),
      loaded([acme, globex], 99),
      loaded([], null),
    ],
    'xstate.error.actor.loadCompanies': [
      {
        type: 'xstate.error.actor.loadCompanies',
        error: Object.assign(new Error('offline'), { status: 500 }),
      },
    ],
    'company.select': [
      { type: 'company.select', id: 1 },
      { type: 'company.select', id: 42 },
    ],
  },
  contextKey: (c) => c,
  states: {
    idle: (s) => {
      expect(s.context.companies).toEqual([])
      expect(s.context.selectedId).toBeNull()
    },
    loading: (s) => expect(s.hasTag('loading')).toBe(true),
    ready: (s, log) => {
      expect(s.context.companies.map((c: CompanyChoice) => c.id)).toContain(s.context.selectedId)
      expect(log.filter((l) => l.startsWith('persist:')).at(-1)).toBe(`persist:${s.context.selectedId}`)
      if (log.at(-1)?.startsWith('notify:companyChanged'))
        expect(log.at(-1)).toBe('notify:companyChanged:Acme')
    },
    empty: (s) => expect(s.context.selectedId).toBeNull(),
    failed: (_s, log) => expect(log.at(-1)).toBe('notify:companiesFailed'),
  },
})

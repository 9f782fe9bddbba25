import { expect } from 'vitest'
import { companyEditMachine, LOGO_TYPE_MESSAGE } from '../../src/machines/admin/company-edit.machine'
import { describeModel } from '../support/model'
import { acme, done, error, failure, ME, scannerTaken, users } from './admin-fixtures'

const validFields = {
  name: 'Acme Corp',
  invoice_scanner: 'scan@acme.test',
  expense_scanner: '',
  monday_link: 'https://monday.com/acme',
  powerbi_link: '',
}
const png = Object.assign(new Blob(['png'], { type: 'image/png' }), { name: 'logo.png' })
const pdf = Object.assign(new Blob(['pdf'], { type: 'application/pdf' }), { name: 'logo.pdf' })

type Ctx = {
  company: { users: { email: string }[] } | null
  pendingRemovals: string[]
}

describeModel('company edit machine', {
  machine: companyEditMachine,
  input: { companyId: 1, currentUserEmail: ME },
  actors: ['load', 'uploadLogo', 'addMember', 'updateCompany', 'removeMember'],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: { notify: (_, p) => record(`notify:${p.notice}${p.message ? `:${p.message}` : ''}`) },
    }),
  events: {
    'company.save': [
      { type: 'company.save', fields: validFields },
      { type: 'company.save', fields: { ...validFields, name: 'A', invoice_scanner: 'not-an-email' } },
    ],
    'logo.select': [
      { type: 'logo.select', file: png },
      { type: 'logo.select', file: pdf },
    ],
    'member.add': [
      { type: 'member.add', email: 'bob@example.com', role: 'COMPANY_USER' },
      { type: 'member.add', email: '', role: 'COMPANY_USER' },
      { type: 'member.add', email: 'bob@example.com', role: '' },
      { type: 'member.add', email: 'alice@example.com', role: 'COMPANY_ADMIN' },
    ],
    'removal.mark': [
      { type: 'removal.mark', email: 'alice@example.com' },
      { type: 'removal.mark', email: 'bob@example.com' },
      { type: 'removal.mark', email: ME },
    ],
    'removal.undo': [{ type: 'removal.undo', email: 'alice@example.com' }],
    'xstate.done.actor.load': [done('load', { company: acme, users, logoUrl: null })],
    'xstate.error.actor.load': [error('load', failure(404, 'Company not found'))],
    'xstate.done.actor.uploadLogo': [done('uploadLogo', { logoUrl: '/api/companies/company/logo/1?t=1' })],
    'xstate.error.actor.uploadLogo': [error('uploadLogo', failure(415, 'Invalid file type'))],
    'xstate.done.actor.addMember': [done('addMember', undefined)],
    'xstate.error.actor.addMember': [error('addMember', failure(409, 'Already a member'))],
    'xstate.done.actor.updateCompany': [done('updateCompany', undefined)],
    'xstate.error.actor.updateCompany': [
      error('updateCompany', failure(500, 'Internal server error')),
      error('updateCompany', scannerTaken),
    ],
    'xstate.done.actor.removeMember': [done('removeMember', undefined)],
    'xstate.error.actor.removeMember': [error('removeMember', failure(403, 'You cannot remove yourself'))],
  },
  contextKey: (c) => {
    const ctx = c as Ctx
    return {
      members: ctx.company?.users.map((u) => u.email).sort() ?? null,
      pending: [...ctx.pendingRemovals].sort(),
    }
  },
  states: {
    loading: (s) => {
      expect(s.hasTag('busy')).toBe(true)
      expect(s.can({ type: 'company.save', fields: validFields })).toBe(false)
    },
    failed: (s, log) => {
      expect(s.context.failure?.status).toBe(404)
      expect(log).toContain('notify:companyFetchFailed')
    },
    editing: (s, log) => {
      expect(s.hasTag('busy')).toBe(false)
      // The signed-in user can never be marked for removal.
      expect(s.can({ type: 'removal.mark', email: ME })).toBe(false)
      for (const email of s.context.pendingRemovals) {
        expect(s.context.company?.users.some((u: { email: string }) => u.email === email)).toBe(true)
        expect(s.can({ type: 'removal.undo', email })).toBe(true)
      }
      const last = log.at(-1)
      if (s.context.logoError === LOGO_TYPE_MESSAGE) expect(s.context.logoUrl).toBeNull()
      if (s.context.addError !== null)
        expect([
          'Please select a user',
          'Role is required',
          'This user is already a member of the company',
        ]).toContain(s.context.addError)
      if (last === 'notify:memberAdded')
        expect(
          s.context.company?.users.find((u: { email: string }) => u.email === 'bob@example.com')
            ?.company_role,
        ).toBe('COMPANY_USER')
      if (last === 'notify:logoUploaded') expect(s.context.logoUrl).toContain('?t=')
      if (last === 'notify:companyUpdateFailed') expect(s.context.failure?.status).toBe(500)
      // A scanner address in use: the toast says so, and the refused field shows why.
      if (last === 'notify:companyUpdateFailed:A scanner address is already in use')
        expect(s.context.fieldErrors).toEqual({
          expense_scanner: 'This address is already the invoice or expense scanner of a company',
        })
      if (last === 'notify:memberRemoveFailed:You cannot remove yourself')
        expect(s.context.pendingRemovals.length).toBeGreaterThan(0)
      if (Object.keys(s.context.fieldErrors).length > 0 && !s.context.fieldErrors.expense_scanner)
        expect(s.context.fieldErrors).toEqual({
          name: 'Name must be at least 2 characters',
          invoice_scanner: 'Invalid email address',
        })
    },
    uploadingLogo: (s) => {
      expect(s.hasTag('uploading')).toBe(true)
      expect(s.context.logo?.type).toBe('image/png')
    },
    addingMember: (s) => {
      // Alice is only added again once a save has really removed her.
      const adding = s.context.adding!
      expect(s.context.company?.users.some((u: { email: string }) => u.email === adding.email)).toBe(false)
      expect(adding.role).toBe(adding.email === 'bob@example.com' ? 'COMPANY_USER' : 'COMPANY_ADMIN')
    },
    'saving.updating': (s) => {
      expect(s.hasTag('saving')).toBe(true)
      expect(s.context.update).toEqual({
        name: 'Acme Corp',
        invoice_scanner: 'scan@acme.test',
        expense_scanner: null,
        monday_link: 'https://monday.com/acme',
        powerbi_link: null,
      })
    },
    'saving.removing': (s) => {
      expect(s.context.pendingRemovals.length).toBeGreaterThan(0)
      expect(s.context.pendingRemovals).not.toContain(ME)
    },
    saved: (s, log) => {
      expect(s.hasTag('closed')).toBe(true)
      expect(s.context.pendingRemovals).toEqual([])
      expect(log.at(-1)).toBe('notify:companyUpdated')
    },
    done: (s) => {
      expect(s.status).toBe('done')
      expect(s.output).toEqual({ saved: true })
    },
    cancelled: (s, log) => {
      expect(s.output).toEqual({ saved: false })
      expect(log).not.toContain('notify:companyUpdated')
    },
  },
})

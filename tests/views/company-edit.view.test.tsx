/** The company edit statechart's paths, replayed through the rendered side sheet. */
import { fireEvent, render, screen, within } from '@testing-library/react'
import { expect } from 'vitest'
import { type AnyActorRef, createActor } from 'xstate'
import { companyEditMachine } from '../../src/machines/admin/company-edit.machine'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { CompanyEditSheet } from '../../src/ui/views/admin/company-edit-sheet'
import { acme, done, error, failure, ME, scannerTaken, users } from '../machines/admin-fixtures'
import { inApp, testActors } from '../support/render'
import { describeViewModel, type User } from '../support/view-model'

const validFields = {
  name: 'Acme Corp',
  invoice_scanner: 'scan@acme.test',
  expense_scanner: '',
  monday_link: 'https://monday.com/acme',
  powerbi_link: '',
}
const invalidFields = { ...validFields, name: 'A', invoice_scanner: 'not-an-email' }
const png = new File(['png'], 'logo.png', { type: 'image/png' })
const pdf = new File(['pdf'], 'logo.pdf', { type: 'application/pdf' })
const names: Record<string, string> = {
  'alice@example.com': 'Alice Test',
  'bob@example.com': 'Bob Test',
  [ME]: 'Ada Test',
}
const button = (name: string | RegExp) => screen.getByRole('button', { name })
const isDisabled = (element: HTMLElement) => (element as HTMLButtonElement).disabled
const dialog = () => screen.queryByRole('dialog')

/** The error a field shows (the alert its input is described by, marked invalid), or null. */
function fieldError(label: string): string | null {
  const input = screen.getByLabelText(label)
  const id = input
    .getAttribute('aria-describedby')
    ?.split(' ')
    .find((ref) => ref.endsWith('-error'))
  if (!id) return null
  expect(input.getAttribute('aria-invalid')).toBe('true')
  return document.getElementById(id)?.textContent ?? null
}

async function clickIfShown(user: User, name: string) {
  const target = screen.queryByRole('button', { name })
  if (target) await user.click(target)
}

async function fill(user: User, label: string, value: string) {
  const input = screen.getByLabelText(label)
  await user.clear(input)
  if (value) await user.type(input, value)
}

describeViewModel('company edit sheet', {
  machine: companyEditMachine,
  input: { companyId: 1, currentUserEmail: ME },
  actors: ['load', 'uploadLogo', 'addMember', 'updateCompany', 'removeMember'],
  mount: (machine, inspect, clock) => {
    const actor = createActor(machine, { input: { companyId: 1, currentUserEmail: ME }, inspect, clock })
    actor.start()
    return {
      element: inApp(
        <CompanyEditSheet actor={actor} />,
        testActors({ session: createActor(sessionMachine) }),
      ),
      actor: actor as AnyActorRef,
    }
  },
  render: (element) => render(element),
  ui: {
    'company.save': async (user, event) => {
      const fields = event.fields as typeof validFields
      await fill(user, 'Company name', fields.name)
      await fill(user, 'Invoice scanner e-mail', fields.invoice_scanner)
      await fill(user, 'Expense scanner e-mail', fields.expense_scanner)
      await fill(user, 'Monday link', fields.monday_link)
      await fill(user, 'Power BI link', fields.powerbi_link)
      await user.click(button('Save changes'))
    },
    'company.cancel': (user) => user.click(button('Cancel')),
    'company.retry': (user) => user.click(button('Retry')),
    // A file picker can still hand over any file ("All files"): the machine decides.
    'logo.select': async (_user, event) => {
      fireEvent.change(screen.getByLabelText('Logo file'), { target: { files: [event.file] } })
    },
    'member.add': async (user, event) => {
      const form = screen.getByRole('form', { name: 'Add a user' })
      await user.selectOptions(within(form).getByLabelText('User'), String(event.email))
      await user.selectOptions(within(form).getByLabelText('Role'), String(event.role))
      await user.click(within(form).getByRole('button', { name: 'Add' }))
    },
    // No button for someone who is not a member (or not pending): the event cannot be sent.
    'removal.mark': (user, event) => clickIfShown(user, `Remove ${names[String(event.email)]}`),
    'removal.undo': (user, event) => clickIfShown(user, `Undo removal of ${names[String(event.email)]}`),
  },
  events: {
    'company.save': [
      { type: 'company.save', fields: validFields },
      { type: 'company.save', fields: invalidFields },
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
    'xstate.error.actor.uploadLogo': [error('uploadLogo', failure(415, 'Upload failed'))],
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
    const ctx = c as { company: { users: { email: string }[] } | null; pendingRemovals: string[] }
    return {
      members: ctx.company?.users.map((u) => u.email).sort() ?? null,
      pending: [...ctx.pendingRemovals].sort(),
    }
  },
  limit: 200,
  views: {
    loading: () => expect(screen.getByRole('status', { name: 'Loading company' })).toBeDefined(),
    failed: () => {
      expect(screen.getByRole('alert').textContent).toBe('Failed to fetch company')
      expect(button('Retry')).toBeDefined()
    },
    editing: (s) => {
      expect(isDisabled(button('Save changes'))).toBe(false)
      const members = screen.getByRole('list', { name: 'Company users' })
      const rows = within(members).getAllByRole('listitem')
      expect(rows).toHaveLength(s.context.company!.users.length)
      // The signed-in user's own row never offers a working remove.
      expect(isDisabled(button('Remove Ada Test'))).toBe(true)
      for (const email of s.context.pendingRemovals) {
        const row = within(members).getByRole('listitem', { name: names[email] })
        expect(row.textContent).toContain('Pending removal')
        expect(button(`Undo removal of ${names[email]}`)).toBeDefined()
      }
      if (s.context.addError) expect(screen.getByText(s.context.addError)).toBeDefined()
      if (s.context.logoError === 'Only JPG, PNG and GIF files are allowed')
        expect(screen.getByText('Only JPG, PNG and GIF files are allowed').getAttribute('role')).toBe('alert')
      if (s.context.logoUrl)
        expect(screen.getByRole('img', { name: /Logo of/ }).getAttribute('src')).toContain('?t=')
      if (s.context.fieldErrors.name)
        expect(screen.getByText('Name must be at least 2 characters')).toBeDefined()
      // A scanner address in use is shown by the expense scanner field itself.
      if (s.context.fieldErrors.expense_scanner)
        expect(fieldError('Expense scanner e-mail')).toBe(
          'This address is already the invoice or expense scanner of a company',
        )
      if (s.context.failure)
        expect(
          screen.getByText(
            s.context.failure.status >= 500 ? 'Failed to update company' : s.context.failure.message,
          ),
        ).toBeDefined()
    },
    uploadingLogo: () => expect(button('Uploading…').getAttribute('aria-busy')).toBe('true'),
    addingMember: () => expect(isDisabled(button('Add'))).toBe(true),
    'saving.updating': () => expect(button('Save changes').getAttribute('aria-busy')).toBe('true'),
    'saving.removing': () => expect(isDisabled(button('Save changes'))).toBe(true),
    saved: () => expect(dialog()).toBeNull(),
    done: () => expect(dialog()).toBeNull(),
    cancelled: () => expect(dialog()).toBeNull(),
  },
})

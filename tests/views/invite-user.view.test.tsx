/** The invite-user statechart's paths, replayed through the rendered invite dialog. */
import { render, screen, within } from '@testing-library/react'
import { expect } from 'vitest'
import { type AnyActorRef, type AnyMachineSnapshot, createActor } from 'xstate'
import { type InviteUserContext, inviteUserMachine } from '../../src/machines/admin/invite-user.machine'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { InviteUserDialog } from '../../src/ui/views/admin/invite-user-dialog'
import { inviteEvents, type inviteIdentity } from '../machines/admin-fixtures'
import { inApp, testActors } from '../support/render'
import { describeViewModel, type User } from '../support/view-model'

const companies = [
  { id: 1, name: 'Acme' },
  { id: 2, name: 'Globex' },
]
const ROLE_LABELS: Record<string, string> = { COMPANY_USER: 'User', COMPANY_ADMIN: 'Admin' }
const ctx = (s: AnyMachineSnapshot) => s.context as InviteUserContext
const nameOf = (id: number) => companies.find((c) => c.id === id)!.name
const dialog = () => screen.queryByRole('dialog', { name: 'Invite user' })
const button = (name: string) => screen.getByRole('button', { name })

async function fill(user: User, label: string, value: string) {
  const input = screen.getByLabelText(label)
  await user.clear(input)
  if (value) await user.type(input, value)
}

describeViewModel('invite user dialog', {
  machine: inviteUserMachine,
  actors: ['invite'],
  mount: (machine, inspect, clock) => {
    const actor = createActor(machine, { inspect, clock })
    actor.start()
    return {
      element: inApp(
        <InviteUserDialog actor={actor} companies={companies} />,
        testActors({ session: createActor(sessionMachine) }),
      ),
      actor: actor as AnyActorRef,
    }
  },
  render: (element) => render(element),
  ui: {
    // The company and its role are picked, then added; "Select a company…" / "Select a role…" are ''.
    'company.add': async (user, event) => {
      await user.selectOptions(screen.getByLabelText('Company'), String(event.companyId ?? ''))
      await user.selectOptions(screen.getByLabelText('Company role'), String(event.role))
      await user.click(button('Add company'))
    },
    'company.remove': async (user, event) => {
      const remove = screen.queryByRole('button', { name: `Remove ${nameOf(Number(event.companyId))}` })
      if (remove) await user.click(remove)
    },
    'invite.submit': async (user, event) => {
      const values = event.values as typeof inviteIdentity
      await fill(user, 'Email', values.email)
      await fill(user, 'Name', values.name)
      await fill(user, 'Surname', values.surname)
      await user.selectOptions(screen.getByLabelText('Role'), values.role)
      await user.click(button('Send invitation'))
    },
    'invite.close': (user) => user.click(button('Cancel')),
  },
  // What the dialog offers: Remove only next to a company already on the invitation.
  allowed: (s, event) =>
    event.type !== 'company.remove' ||
    ctx(s).memberships.some((m) => m.companyId === (event as { companyId?: number }).companyId),
  events: inviteEvents,
  // Which companies are on the invitation and whether a submit was refused: each guard's sides are
  // edges from these states, and every error the dialog shows is checked against the live context.
  contextKey: (c) => {
    const context = c as InviteUserContext
    return {
      companies: context.memberships.map((m) => m.companyId),
      refused: Object.keys(context.fieldErrors).length > 0,
    }
  },
  limit: 200,
  views: {
    editing: (s) => {
      const { memberships, companyError, fieldErrors, failure } = ctx(s)
      expect(dialog()).not.toBeNull()
      expect((button('Send invitation') as HTMLButtonElement).disabled).toBe(false)
      // The invitation's companies, each with its role and a Remove button, or the empty note.
      const listed = screen
        .queryAllByRole('listitem')
        .map((item) => within(item).getAllByText(/.+/)[0]?.textContent ?? '')
      expect(listed).toEqual(memberships.map((m) => nameOf(m.companyId)))
      for (const m of memberships) {
        const item = screen.getByRole('button', { name: `Remove ${nameOf(m.companyId)}` }).closest('li')!
        expect(item.textContent).toContain(ROLE_LABELS[m.role])
      }
      if (memberships.length === 0)
        expect(screen.getByText('No company yet: the user can be added to companies later.')).toBeDefined()
      const alerts = screen.queryAllByRole('alert').map((a) => a.textContent)
      if (companyError) expect(alerts).toContain(companyError)
      // A refused submit shows the broken fields' messages next to them.
      if (fieldErrors.name) expect(alerts).toContain('Name must be at least 2 characters')
      if (fieldErrors.email) expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true')
      if (fieldErrors.role) expect(screen.getByLabelText('Role').getAttribute('aria-invalid')).toBe('true')
      if (!fieldErrors.name) expect(alerts).not.toContain('Name must be at least 2 characters')
      // The server's refusal (409: the e-mail is in use) is said in the dialog, which stays open.
      if (failure) expect(alerts).toContain('A user with this e-mail already exists')
      else expect(alerts).not.toContain('A user with this e-mail already exists')
    },
    sending: () => {
      expect(button('Send invitation').getAttribute('aria-busy')).toBe('true')
      expect((button('Cancel') as HTMLButtonElement).disabled).toBe(true)
    },
    sent: () => expect(dialog()).toBeNull(),
    closed: () => expect(dialog()).toBeNull(),
  },
})

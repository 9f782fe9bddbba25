import { expect } from 'vitest'
import { inviteUserMachine } from '../../src/machines/admin/invite-user.machine'
import { describeModel } from '../support/model'
import { inviteEvents, inviteIdentity } from './admin-fixtures'

describeModel('invite user machine', {
  machine: inviteUserMachine,
  actors: ['invite'],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: { notify: (_, p) => record(`notify:${p.notice}${p.message ? `:${p.message}` : ''}`) },
    }),
  events: inviteEvents,
  contextKey: (c) => {
    const ctx = c as {
      memberships: { companyId: number }[]
      companyError: string | null
      fieldErrors: Record<string, string>
    }
    return {
      companies: ctx.memberships.map((m: { companyId: number }) => m.companyId),
      error: ctx.companyError,
      fieldErrors: Object.keys(ctx.fieldErrors).sort(),
    }
  },
  states: {
    editing: (s, log) => {
      const ids = s.context.memberships.map((m: { companyId: number }) => m.companyId)
      expect(new Set(ids).size).toBe(ids.length)
      if (s.context.companyError)
        expect(['company already added', 'Please select a company', 'Role is required']).toContain(
          s.context.companyError,
        )
      if (s.context.companyError === 'company already added') expect(ids).toEqual([1])
      if (s.context.failure)
        expect(log.at(-1)).toBe('notify:inviteFailed:A user with this e-mail already exists')
      // A refused submit names every broken field (and stays here: nothing is sent).
      if (Object.keys(s.context.fieldErrors).length > 0) {
        expect(s.context.fieldErrors).toEqual({
          email: expect.any(String),
          name: 'Name must be at least 2 characters',
          role: expect.any(String),
        })
      }
    },
    sending: (s) => {
      expect(s.hasTag('busy')).toBe(true)
      expect(s.context.identity).toEqual(inviteIdentity)
    },
    sent: (s, log) => {
      expect(s.output).toEqual({ sent: true })
      expect(log.at(-1)).toBe('notify:userInvited')
    },
    closed: (s) => expect(s.output).toEqual({ sent: false }),
  },
})

import { expect, it } from 'vitest'
import { createActor, fromPromise, waitFor } from 'xstate'
import { adminUsersMachine } from '../../src/machines/admin/admin-users.machine'
import { describeModel } from '../support/model'
import { done, error, failure, ME, users } from './admin-fixtures'

const update = { name: 'Alicia', surname: 'Test', role: 'INTERNAL_USER' as const }

describeModel('admin users machine', {
  machine: adminUsersMachine,
  input: { currentUserEmail: ME },
  actors: ['loadUsers', 'setUserStatus', 'updateUser', 'inviteUser'],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: { notify: (_, p) => record(`notify:${p.notice}${p.message ? `:${p.message}` : ''}`) },
    }),
  events: {
    // 1: the signed-in admin; 2: Alice (enabled); 3: Bob (disabled); 9: unknown.
    'status.toggle': [1, 2, 3, 9].map((userId) => ({ type: 'status.toggle', userId })),
    'user.edit': [2, 9].map((userId) => ({ type: 'user.edit', userId })),
    'user.save': [
      { type: 'user.save', values: { ...update, name: ' Alicia ' } },
      { type: 'user.save', values: { name: 'A', surname: 'Test', role: 'NOBODY' } },
    ],
    'xstate.done.actor.loadUsers': [done('loadUsers', users)],
    'xstate.error.actor.loadUsers': [error('loadUsers', failure(500, 'Internal server error'))],
    'xstate.done.actor.setUserStatus': [done('setUserStatus', undefined)],
    'xstate.error.actor.setUserStatus': [error('setUserStatus', failure(404, 'User not found'))],
    'xstate.done.actor.updateUser': [done('updateUser', undefined)],
    'xstate.error.actor.updateUser': [error('updateUser', failure(400, 'Invalid input'))],
    'xstate.done.actor.inviteUser': [done('inviteUser', { sent: true }), done('inviteUser', { sent: false })],
  },
  contextKey: (c) => {
    const ctx = c as {
      users: unknown[]
      selectedId: number | null
      editFailure: unknown
      editErrors: object
    }
    return {
      loaded: ctx.users.length,
      selected: ctx.selectedId,
      editFailed: ctx.editFailure !== null,
      refused: Object.keys(ctx.editErrors).length > 0,
    }
  },
  states: {
    loading: (s) => expect(s.hasTag('loading')).toBe(true),
    failed: (s, log) => {
      expect(log.at(-1)).toBe('notify:usersFetchFailed')
      expect(s.can({ type: 'list.retry' })).toBe(true)
    },
    ready: (s, log) => {
      expect(s.context.users).toHaveLength(3)
      expect(s.context.selectedId).toBeNull()
      if (log.at(-1)?.startsWith('notify:userStatusFailed'))
        expect(log.at(-1)).toBe('notify:userStatusFailed:User not found')
      expect(s.can({ type: 'user.edit', userId: 9 })).toBe(false)
    },
    confirmingStatus: (s) => expect([2, 3]).toContain(s.context.selectedId),
    updatingStatus: (s) => expect(s.hasTag('busy')).toBe(true),
    'editing.idle': (s, log) => {
      expect(s.context.selectedId).toBe(2)
      if (s.context.editFailure) expect(log.at(-1)).toBe('notify:userUpdateFailed')
      // A refused save names every broken field and sends nothing.
      if (Object.keys(s.context.editErrors).length > 0)
        expect(s.context.editErrors).toEqual({
          name: 'Name must be at least 2 characters',
          role: expect.any(String),
        })
    },
    'editing.saving': (s) => expect(s.context.update).toEqual(update),
    inviting: (s) => expect(s.context.selectedId).toBeNull(),
  },
})

it('never asks to disable the signed-in user; enabling a disabled user says so', async () => {
  const notices: string[] = []
  const calls: unknown[] = []
  const actor = createActor(
    adminUsersMachine.provide({
      actors: {
        loadUsers: fromPromise(async () => users),
        setUserStatus: fromPromise(async ({ input }) => {
          calls.push(input)
        }),
      },
      actions: { notify: (_, p) => notices.push(p.notice) },
    }),
    { input: { currentUserEmail: ME.toUpperCase() } },
  ).start()
  await waitFor(actor, (s) => s.matches('ready'))
  actor.send({ type: 'status.toggle', userId: 1 })
  expect(actor.getSnapshot().value).toBe('ready')
  expect(notices).toEqual(['ownAccountStatus'])
  actor.send({ type: 'status.toggle', userId: 3 })
  actor.send({ type: 'status.confirm' })
  await waitFor(actor, (s) => s.matches('ready'))
  expect(calls).toEqual([{ email: 'bob@example.com', enabled: true }])
  expect(notices).toEqual(['ownAccountStatus', 'userEnabled'])
})

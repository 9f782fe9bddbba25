/** The API tokens statechart's paths, replayed through the rendered Settings section. */
import { render, screen, within } from '@testing-library/react'
import { expect } from 'vitest'
import { type AnyActorRef, type AnyMachineSnapshot, createActor } from 'xstate'
import { type ApiTokensContext, apiTokensMachine } from '../../src/machines/api-tokens/api-tokens.machine'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { ApiTokensPanel } from '../../src/ui/views/api-tokens/api-tokens-section'
import { created, invokeOutcomes } from '../machines/api-tokens-fixtures'
import { inApp, testActors } from '../support/render'
import { describeViewModel, type User } from '../support/view-model'

const ctx = (s: AnyMachineSnapshot) => s.context as ApiTokensContext
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement
const dialog = () => screen.queryByRole('alertdialog', { name: 'Revoke API token?' })
const alerts = () => screen.queryAllByRole('alert').map((a) => a.textContent)

async function fill(user: User, label: string, value: string) {
  const input = screen.getByLabelText(label)
  await user.clear(input)
  if (value) await user.type(input, value)
}

describeViewModel('API tokens section', {
  machine: apiTokensMachine,
  actors: ['loadTokens', 'createToken', 'copyToken', 'revokeToken'],
  mount: (machine, inspect, clock) => {
    const actor = createActor(machine, { inspect, clock })
    actor.start()
    return {
      element: inApp(<ApiTokensPanel actor={actor} />, testActors({ session: createActor(sessionMachine) })),
      actor: actor as AnyActorRef,
    }
  },
  render: (element) => render(element),
  ui: {
    'list.retry': (user) => user.click(button('Retry')),
    'token.create': async (user, event) => {
      const values = event.values as { name: string; lifetime: string }
      await fill(user, 'Token name', values.name)
      await user.selectOptions(screen.getByLabelText('Expires in'), values.lifetime)
      await user.click(button('Create token'))
    },
    'token.copy': (user) => user.click(button('Copy token')),
    'token.dismiss': (user) => user.click(button('Done')),
    'token.revoke': (user) => user.click(button('Revoke Nightly export')),
    'revoke.confirm': (user) => user.click(within(dialog()!).getByRole('button', { name: 'Revoke' })),
    'revoke.cancel': (user) => user.click(within(dialog()!).getByRole('button', { name: 'Cancel' })),
  },
  // What the section offers: a Revoke button per listed token, the lives of its select.
  allowed: (_s, event) => event.type !== 'token.revoke' || (event as { id?: number }).id === 4,
  events: {
    'token.create': [
      { type: 'token.create', values: { name: 'Uploader', lifetime: '30' } },
      { type: 'token.create', values: { name: '', lifetime: '365' } },
    ],
    'token.revoke': [{ type: 'token.revoke', id: 4 }],
    ...invokeOutcomes,
  },
  contextKey: (c) => {
    const context = c as ApiTokensContext
    return {
      loaded: context.tokens.length,
      refused: Object.keys(context.formErrors).length > 0,
      failed: context.failure !== null,
    }
  },
  limit: 200,
  views: {
    loading: () => {
      expect(
        screen.getByRole('region', { name: 'Your API tokens' }).querySelector('[aria-busy=true]'),
      ).not.toBeNull()
      expect(button('Create token').disabled).toBe(true)
    },
    failed: () => {
      expect(screen.getByText('Failed to load API tokens')).toBeDefined()
      expect(button('Retry').disabled).toBe(false)
    },
    list: (s) => {
      const { formErrors, failure } = ctx(s)
      expect(screen.getByRole('row', { name: /Nightly export/ })).toBeDefined()
      expect(button('Create token').disabled).toBe(false)
      expect(screen.queryByLabelText('New token')).toBeNull()
      expect(dialog()).toBeNull()
      // A refused form names the field; a refused creation says why, in the form.
      if (formErrors.name) expect(alerts()).toContain('Token name is required')
      else expect(alerts()).not.toContain('Token name is required')
      if (failure) expect(alerts()).toContain('Too many API tokens: revoke one first')
      else expect(alerts()).not.toContain('Too many API tokens: revoke one first')
    },
    creating: () => expect(button('Create token').getAttribute('aria-busy')).toBe('true'),
    'shown.idle': () => {
      // Shown once: the token in a read-only field, with its copy button; no new-token form meanwhile.
      const field = screen.getByLabelText('New token') as HTMLInputElement
      expect(field.value).toBe(created.token)
      expect(field.readOnly).toBe(true)
      expect(button('Copy token').disabled).toBe(false)
      expect(screen.queryByLabelText('Token name')).toBeNull()
    },
    'shown.copying': () => expect(button('Copy token').disabled).toBe(true),
    confirmingRevoke: () => {
      expect(dialog()).not.toBeNull()
      expect(dialog()!.textContent).toContain('“Nightly export”')
    },
    revoking: () => expect(dialog()).not.toBeNull(),
  },
})

import { expect, it } from 'vitest'
import { createActor, fromPromise, waitFor } from 'xstate'
import { createApiTokensImplementations } from '../../src/machines/api-tokens/api-tokens.implementations'
import { apiTokensMachine } from '../../src/machines/api-tokens/api-tokens.machine'
import type { Notice } from '../../src/machines/shared/notice'
import { failure } from '../support/fixtures'
import { describeModel } from '../support/model'
import { created, invokeOutcomes, tokens } from './api-tokens-fixtures'

describeModel('API tokens machine', {
  machine: apiTokensMachine,
  actors: ['loadTokens', 'createToken', 'copyToken', 'revokeToken'],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: {
        notify: (_, p) => record(`notify:${p.notice}${p.failure ? `:${p.failure.status}` : ''}`),
      },
    }),
  events: {
    'token.create': [
      { type: 'token.create', values: { name: ' Uploader ', lifetime: '30' } },
      { type: 'token.create', values: { name: '   ', lifetime: '1000' } },
    ],
    // 4: a listed token; 9: none.
    'token.revoke': [4, 9].map((id) => ({ type: 'token.revoke', id })),
    ...invokeOutcomes,
  },
  contextKey: (c) => {
    const ctx = c as {
      tokens: unknown[]
      created: unknown
      selectedId: number | null
      formErrors: object
      failure: unknown
    }
    return {
      loaded: ctx.tokens.length,
      created: ctx.created !== null,
      selected: ctx.selectedId,
      refused: Object.keys(ctx.formErrors).length > 0,
      failed: ctx.failure !== null,
    }
  },
  states: {
    loading: (s) => {
      expect(s.hasTag('busy')).toBe(true)
      // The token shown once never outlives its display.
      expect(s.context.created).toBeNull()
    },
    failed: (s) => {
      // No toast: the section says it failed, with a retry.
      expect(s.can({ type: 'list.retry' })).toBe(true)
    },
    list: (s, log) => {
      expect(s.context.tokens).toEqual(tokens)
      expect(s.context.selectedId).toBeNull()
      expect(s.context.created).toBeNull()
      // A refused form names each broken field and sends nothing.
      if (Object.keys(s.context.formErrors).length > 0)
        expect(s.context.formErrors).toEqual({
          name: 'Token name is required',
          lifetime: 'Expiry must be an ISO date',
        })
      // A refused creation is shown by the form, with its reason (no toast).
      if (s.context.failure) expect(s.context.failure.message).toBe('Too many API tokens: revoke one first')
      if (log.at(-1)?.startsWith('notify:revokeFailed')) expect(log.at(-1)).toBe('notify:revokeFailed:404')
      expect(s.can({ type: 'token.revoke', id: 9 })).toBe(false)
    },
    creating: (s) => {
      expect(s.hasTag('creating')).toBe(true)
      expect(s.context.draft).toEqual({ name: 'Uploader', lifetime: 30 })
    },
    'shown.idle': (s, log) => {
      // Copied or not, the token stays on screen until it is put away.
      expect(s.context.created).toEqual(created)
      expect(s.context.failure).toBeNull()
      expect(log.filter((entry) => !/^notify:(copied|copyFailed)$/.test(entry))).toEqual([])
    },
    'shown.copying': (s) => expect(s.context.created?.token).toBe(created.token),
    confirmingRevoke: (s) => expect(s.context.selectedId).toBe(4),
    revoking: (s) => {
      expect(s.hasTag('revoking')).toBe(true)
      expect(s.context.selectedId).toBe(4)
    },
  },
})

it('creates with the chosen life (a year: the server’s default, no expiry sent) and copies the token', async () => {
  const calls: unknown[] = []
  const copied: string[] = []
  const notices: Notice[] = []
  const { apiTokens } = createApiTokensImplementations({
    apiTokens: {
      list: async () => tokens,
      create: async (input) => {
        calls.push(input)
        return created
      },
      revoke: async () => {},
    },
    notify: (n) => notices.push(n),
    clipboard: {
      writeText: async (text) => {
        copied.push(text)
      },
    },
    now: () => Date.parse('2026-03-10T09:00:00Z'),
  })
  const actor = createActor(apiTokens).start()
  await waitFor(actor, (s) => s.matches('list'))
  actor.send({ type: 'token.create', values: { name: 'Weekly', lifetime: '7' } })
  await waitFor(actor, (s) => s.matches('shown'))
  actor.send({ type: 'token.copy' })
  await waitFor(actor, (s) => s.matches({ shown: 'idle' }) && notices.length === 1)
  actor.send({ type: 'token.dismiss' })
  await waitFor(actor, (s) => s.matches('list'))
  actor.send({ type: 'token.create', values: { name: 'Yearly', lifetime: '365' } })
  await waitFor(actor, (s) => s.matches('shown'))
  expect(calls).toEqual([{ name: 'Weekly', expires_at: '2026-03-17T09:00:00.000Z' }, { name: 'Yearly' }])
  expect(copied).toEqual([created.token])
  expect(notices.map((n) => n.code)).toEqual(['apiTokens.copied'])
})

it('says why a revocation was refused, but not a server failure’s text', async () => {
  const notices: Notice[] = []
  let status = 404
  const { apiTokens } = createApiTokensImplementations({
    apiTokens: {
      list: async () => tokens,
      create: async () => created,
      revoke: async () => {
        throw failure(status, status === 404 ? 'API token not found' : 'Internal server error')
      },
    },
    notify: (n) => notices.push(n),
    clipboard: { writeText: async () => {} },
  })
  const actor = createActor(
    apiTokens.provide({ actors: { loadTokens: fromPromise(async () => tokens) } }),
  ).start()
  for (const [i, next] of [404, 500].entries()) {
    status = next
    await waitFor(actor, (s) => s.matches('list'))
    actor.send({ type: 'token.revoke', id: 4 })
    actor.send({ type: 'revoke.confirm' })
    await waitFor(actor, (s) => s.matches('list') && notices.length === i + 1)
  }
  expect(notices.map((n) => [n.code, n.failure?.message])).toEqual([
    ['apiTokens.revokeFailed', 'API token not found'],
    ['apiTokens.revokeFailed', undefined],
  ])
})

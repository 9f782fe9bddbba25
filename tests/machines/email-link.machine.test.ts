import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { emailLinkMachine } from '../../src/machines/account/email-link.machine'
import { describeModel } from '../support/model'

describeModel('e-mailed link machine', {
  machine: emailLinkMachine,
  actors: [],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: {
        notifyIncomplete: () => record('notify:incomplete'),
        navigateToLogin: () => record('navigate:/login'),
      },
    }),
  events: {
    'link.open': [
      { type: 'link.open', token: 't0k', email: 'ada@example.com' },
      { type: 'link.open', token: 't0k', email: '' },
      { type: 'link.open', token: '', email: 'ada@example.com' },
      { type: 'link.open', token: '', email: '' },
    ],
  },
  states: {
    waiting: (s, log) => {
      expect(s.can({ type: 'link.open', token: 't0k', email: 'ada@example.com' })).toBe(true)
      expect(log).toEqual([])
    },
    // The form is shown: nothing is said and nobody is sent away.
    complete: (s, log) => {
      expect(s.status).toBe('done')
      expect(log).toEqual([])
    },
    incomplete: (s, log) => {
      expect(s.status).toBe('done')
      expect(log).toEqual(['notify:incomplete', 'navigate:/login'])
    },
  },
})

describe('an e-mailed link opened', () => {
  const opened = (link: { token: string; email: string }) => {
    const log: string[] = []
    const actor = createActor(
      emailLinkMachine.provide({
        actions: {
          notifyIncomplete: () => void log.push('notify:incomplete'),
          navigateToLogin: () => void log.push('navigate:/login'),
        },
      }),
    ).start()
    actor.send({ type: 'link.open', ...link })
    return { state: actor.getSnapshot().value, log }
  }

  it('with its token and e-mail shows the form, silently', () => {
    expect(opened({ token: 't0k', email: 'ada@example.com' })).toEqual({ state: 'complete', log: [] })
  })

  it.each([
    ['its e-mail', { token: 't0k', email: '' }],
    ['its token', { token: '', email: 'ada@example.com' }],
    ['both', { token: '', email: '' }],
  ])('without %s says so and goes to the login', (_missing, link) => {
    expect(opened(link)).toEqual({ state: 'incomplete', log: ['notify:incomplete', 'navigate:/login'] })
  })
})

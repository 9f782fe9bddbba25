import { expect } from 'vitest'
import { languageMachine } from '../../src/machines/shell/language.machine'
import { describeModel } from '../support/model'

const catalog = { abc: ['Bonjour'] }
const done = (id: string) => ({ type: `xstate.done.actor.${id}`, output: catalog })
const error = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error('offline') })

describeModel('language machine', {
  machine: languageMachine,
  input: { language: 'fr' },
  actors: ['loadCatalog'],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: {
        activate: (_, p) => record(`activate:${p.language}`),
        persist: (_, p) => record(`persist:${p.language}`),
        saveRemote: (_, p) => record(`save:${p.language}`),
        notifyChangeFailed: () => record('notify:changeFailed'),
      },
    }),
  events: {
    'language.change': [
      { type: 'language.change', language: 'en' },
      { type: 'language.change', language: 'fr' },
    ],
    'language.restore': [
      { type: 'language.restore', language: 'en' },
      { type: 'language.restore', language: 'fr' },
    ],
    'xstate.done.actor.loadInitialCatalog': [done('loadInitialCatalog')],
    'xstate.error.actor.loadInitialCatalog': [error('loadInitialCatalog')],
    'xstate.done.actor.loadCatalog': [done('loadCatalog')],
    'xstate.error.actor.loadCatalog': [error('loadCatalog')],
  },
  contextKey: (c) => c,
  states: {
    loading: (s) => expect(s.hasTag('loaded')).toBe(false),
    failed: (s) => {
      expect(s.context.language).toBe('en')
      expect(s.can({ type: 'language.retry' })).toBe(true)
    },
    ready: (s, log) => {
      expect(s.hasTag('loaded')).toBe(true)
      expect(log).toContain(`activate:${s.context.language}`)
      expect(s.context.requested).toBe(s.context.language)
      const last = log.filter((l) => l.startsWith('persist:')).at(-1)
      if (last) expect(last).toBe(`persist:${s.context.language}`)
      // Only a language the user chose is saved to the server; a restored one is not saved back.
      const sinceActivation = log.slice(log.lastIndexOf(`activate:${s.context.language}`))
      if (s.context.saveRequested) expect(log.at(-1)).toBe(`save:${s.context.language}`)
      else expect(sinceActivation.some((l) => l.startsWith('save:'))).toBe(false)
    },
    switching: (s) => {
      expect(s.hasTag('loaded')).toBe(true)
      expect(s.context.requested).not.toBe(s.context.language)
    },
  },
})

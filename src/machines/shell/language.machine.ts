/**
 * The interface language: `loading` the first catalog (falling back to English), then `ready`;
 * a change loads the new catalog in `switching` and only then activates, stores and saves it.
 */
import { assign, setup } from 'xstate'
import type { Language } from '../../../contract'
import type { Catalog } from '../../api/locales'
import { promisePlaceholder } from '../shared/placeholder'

/** `requested` is the language being loaded while `switching`; `saveRequested`: the user chose it
 * (saved to the server), rather than it being restored from the server's settings. */
export type LanguageContext = { language: Language; requested: Language; saveRequested: boolean }
export type LanguageEvent =
  | { type: 'language.change'; language: Language }
  | { type: 'language.restore'; language: Language }
  | { type: 'language.retry' }

type Loaded = { context: LanguageContext; event: { output: Catalog } }
const activateParams = ({ context, event }: Loaded) => ({
  language: context.requested,
  catalog: event.output,
})

export const languageMachine = setup({
  types: {} as { context: LanguageContext; events: LanguageEvent; input: { language: Language } },
  actors: {
    loadCatalog: promisePlaceholder<Catalog, { language: Language }>('loadCatalog'),
  },
  actions: {
    activate: (_, _params: { language: Language; catalog: Catalog }) => {},
    persist: (_, _params: { language: Language }) => {},
    saveRemote: (_, _params: { language: Language }) => {},
    notifyChangeFailed: () => {},
  },
  guards: {
    isOtherLanguage: ({ context, event }) =>
      (event.type === 'language.change' || event.type === 'language.restore') &&
      event.language !== context.language,
    isChosenByUser: ({ context }) => context.saveRequested,
    isNotEnglish: ({ context }) => context.language !== 'en',
  },
}).createMachine({
  id: 'language',
  context: ({ input }) => ({ language: input.language, requested: input.language, saveRequested: false }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadInitialCatalog',
        src: 'loadCatalog',
        input: ({ context }) => ({ language: context.language }),
        onDone: {
          target: 'ready',
          actions: {
            type: 'activate',
            params: ({ context, event }) => ({ language: context.language, catalog: event.output }),
          },
        },
        onError: [
          {
            guard: 'isNotEnglish',
            target: 'loading',
            reenter: true,
            actions: assign({ language: 'en', requested: 'en' }),
            description: 'The stored language could not be loaded: fall back to English.',
          },
          { target: 'failed' },
        ],
      },
    },
    failed: {
      description: 'Not even the English catalog could be loaded: the root shows a retry screen.',
      on: { 'language.retry': 'loading' },
    },
    ready: {
      tags: ['loaded'],
      on: {
        'language.change': {
          guard: 'isOtherLanguage',
          target: 'switching',
          actions: assign({ requested: ({ event }) => event.language, saveRequested: true }),
        },
        'language.restore': {
          guard: 'isOtherLanguage',
          target: 'switching',
          actions: assign({ requested: ({ event }) => event.language, saveRequested: false }),
          description: "The signed-in user's saved language (GET /settings/me): applied, not saved back.",
        },
      },
    },
    switching: {
      tags: ['loaded', 'busy'],
      invoke: {
        id: 'loadCatalog',
        src: 'loadCatalog',
        input: ({ context }) => ({ language: context.requested }),
        onDone: [
          {
            guard: 'isChosenByUser',
            target: 'ready',
            actions: [
              assign({ language: ({ context }) => context.requested }),
              { type: 'activate', params: activateParams },
              { type: 'persist', params: ({ context }) => ({ language: context.language }) },
              { type: 'saveRemote', params: ({ context }) => ({ language: context.language }) },
            ],
          },
          {
            target: 'ready',
            actions: [
              assign({ language: ({ context }) => context.requested }),
              { type: 'activate', params: activateParams },
              { type: 'persist', params: ({ context }) => ({ language: context.language }) },
            ],
          },
        ],
        onError: {
          target: 'ready',
          actions: [
            assign({ requested: ({ context }) => context.language, saveRequested: false }),
            'notifyChangeFailed',
          ],
        },
      },
    },
  },
})

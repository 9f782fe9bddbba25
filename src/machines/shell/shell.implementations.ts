/**
 * The app frame's machines (language, company selection, the selected company's users) filled
 * from the API, the notices and the browser's storage. `followSession` makes them answer the
 * session's events: signing in loads the companies and the saved language, signing out forgets
 * the companies.
 */
import { type ActorRefFrom, fromPromise } from 'xstate'
import type { Language } from '../../../contract'
import type { Api } from '../../api'
import type { Catalog } from '../../api/locales'
import type { SessionActor } from '../session/session.implementations'
import type { KeyValueStorage } from '../shared/deps'
import { type Notify, notice } from '../shared/notice'
import { companySelectionMachine } from './company-selection.machine'
import { companyUsersMachine } from './company-users.machine'
import { languageMachine } from './language.machine'

const SELECTED_COMPANY_KEY = 'selectedCompanyId'

export type LanguageActor = ActorRefFrom<typeof languageMachine>
export type CompanySelectionActor = ActorRefFrom<typeof companySelectionMachine>

export type ShellDeps = {
  api: Pick<Api, 'companies' | 'locales' | 'settings'>
  notify: Notify
  storage: KeyValueStorage
  /** Makes a loaded catalog current; `storageKey`: where the chosen language is kept. */
  locale: { activate(language: Language, catalog: Catalog): void; storageKey: string }
  session: Pick<SessionActor, 'getSnapshot' | 'on'>
}

export function createShellImplementations({ api, notify, storage, locale, session }: ShellDeps) {
  return {
    language: languageMachine.provide({
      actors: {
        loadCatalog: fromPromise(({ input }: { input: { language: Language } }) =>
          api.locales.load(input.language),
        ),
      },
      actions: {
        activate: (_, { language, catalog }: { language: Language; catalog: Catalog }) =>
          locale.activate(language, catalog),
        persist: (_, { language }) => storage.setItem(locale.storageKey, language),
        saveRemote: (_, { language }) => {
          if (!session.getSnapshot().matches('signedIn')) return
          // A failed save is only logged: the language stays changed on this device.
          api.settings.saveMine(language).catch((error: unknown) => console.warn('Language not saved', error))
        },
        notifyChangeFailed: () => notify(notice('language.changeFailed')),
      },
    }),
    companySelection: companySelectionMachine.provide({
      actors: {
        loadCompanies: fromPromise(async () => {
          const stored = Number(storage.getItem(SELECTED_COMPANY_KEY))
          const companies = (await api.companies.mine()).map((c) => ({
            ...c,
            logoUrl: c.logo_path ? api.companies.logoUrl(c.id, c.logo_path) : null,
          }))
          return { companies, storedId: Number.isInteger(stored) && stored > 0 ? stored : null }
        }),
      },
      actions: {
        persist: (_, { id }) => storage.setItem(SELECTED_COMPANY_KEY, String(id)),
        notify: (_, { notice: code, name }) =>
          notify(notice(`company.${code}`, { values: { name: name ?? '' } })),
      },
    }),
    companyUsers: companyUsersMachine.provide({
      actors: { loadUsers: fromPromise(({ input }) => api.companies.users(input.companyId)) },
      actions: { notifyFailed: () => notify(notice('companyUsers.fetchFailed')) },
    }),
    /** Signing in loads the user's companies and saved language; signing out forgets the companies.
     * Returns the unsubscribe. */
    followSession(actors: { language: LanguageActor; companySelection: CompanySelectionActor }) {
      const subscriptions = [
        session.on('session.signedIn', () => {
          actors.companySelection.send({ type: 'companies.load' })
          // A failed settings fetch silently keeps the local language.
          api.settings
            .getMine()
            .then(({ language }) => actors.language.send({ type: 'language.restore', language }))
            .catch(() => undefined)
        }),
        session.on('session.signedOut', () => actors.companySelection.send({ type: 'companies.clear' })),
      ]
      return () => {
        for (const subscription of subscriptions) subscription.unsubscribe()
      }
    },
  }
}

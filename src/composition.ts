/**
 * Wires the machines to the outside world: API calls become actors, notices become toasts,
 * navigation goes through the router. Only the composition root (`main.tsx`) calls this.
 */
import type { Messages } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import toast from 'react-hot-toast'
import { createActor, fromPromise, type InspectionEvent } from 'xstate'
import type { Api } from './api'
import type { Catalog } from './api/locales'
import type { Language, LoginInput } from './api/schemas'
import { firstAdminMachine } from './machines/first-admin.machine'
import { languageMachine } from './machines/language.machine'
import { sessionMachine } from './machines/session.machine'
import type { AppActors } from './ui/app-context'
import { activateLanguage, i18n, LANGUAGE_STORAGE_KEY } from './ui/i18n'
import { sessionNotices, translateMessage } from './ui/messages'

export type Navigator = {
  toPath(path: string): void
  toLogin(returnHere: boolean): void
}

export function createAppActors(deps: {
  api: Api
  navigate: Navigator
  storage: Storage
  initialLanguage: Language
  inspect?: ((event: InspectionEvent) => void) | undefined
}): AppActors {
  const { api, navigate, storage, inspect } = deps
  const options = inspect ? { inspect } : {}

  const session = createActor(
    sessionMachine.provide({
      actors: {
        fetchUser: fromPromise(() => api.auth.loggedIn()),
        login: fromPromise(({ input }: { input: LoginInput }) => api.auth.login(input)),
        logout: fromPromise(() => api.auth.logout()),
      },
      actions: {
        notify: (_, { notice }) => {
          const { kind, message } = sessionNotices[notice]
          const text = i18n._(message)
          if (kind === 'info') toast(text, { icon: 'ℹ️' })
          else toast[kind](text)
        },
        navigateAfterSignIn: (_, { to }) => navigate.toPath(to),
        navigateToLogin: (_, { returnHere }) => navigate.toLogin(returnHere),
      },
    }),
    options,
  )

  const language = createActor(
    languageMachine.provide({
      actors: {
        loadCatalog: fromPromise(({ input }: { input: { language: Language } }) =>
          api.locales.load(input.language),
        ),
      },
      actions: {
        activate: (_, { language: lng, catalog }: { language: Language; catalog: Catalog }) =>
          activateLanguage(lng, catalog as Messages),
        persist: (_, { language: lng }) => storage.setItem(LANGUAGE_STORAGE_KEY, lng),
        saveRemote: (_, { language: lng }) => {
          if (!session.getSnapshot().matches('signedIn')) return
          // Spec 02 §8: a failed save is only logged.
          api.settings.saveMine(lng).catch((error: unknown) => console.warn('Language not saved', error))
        },
        notifyChangeFailed: () =>
          toast.error(i18n._(msg`The language could not be changed. Please try again.`)),
      },
    }),
    { ...options, input: { language: deps.initialLanguage } },
  )

  const firstAdmin = firstAdminMachine.provide({
    actors: {
      setupStatus: fromPromise(() => api.auth.setupStatus()),
      createFirstAdmin: fromPromise(({ input }) => api.auth.createFirstAdmin(input)),
    },
  })

  return { session, language, machines: { firstAdmin } }
}

export { translateMessage }

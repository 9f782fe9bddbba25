/**
 * The app's wiring: builds the dependencies once, asks each flow's factory for its machines
 * (`src/machines/<flow>/<flow>.implementations.ts`), creates the long-lived actors and lets them
 * follow each other's events. Only the composition root (`main.tsx`) calls `composeApp`.
 */
import { createActor, type InspectionEvent } from 'xstate'
import type { Language } from '../contract'
import type { Api } from './api'
import { loadOnce } from './api/code-chunks'
import type { Catalog } from './api/locales'
import type { ScreenActors } from './composition-screens'
import type { createAccountImplementations } from './machines/account/account.implementations'
import type { AdminMachines } from './machines/admin/admin.implementations'
import type { ApiTokensMachines } from './machines/api-tokens/api-tokens.implementations'
import type { DetailMachines } from './machines/details/details.implementations'
import { createSessionImplementations, type SessionActor } from './machines/session/session.implementations'
import type { KeyValueStorage, Navigator } from './machines/shared/deps'
import type { Notify } from './machines/shared/notice'
import {
  type CompanySelectionActor,
  createShellImplementations,
  type LanguageActor,
} from './machines/shell/shell.implementations'
import type { UploadQueueActor } from './machines/uploads/upload-queue.machine'
import type { UploadDialogActor } from './machines/uploads/uploads.implementations'

/** The signed-in screens' machines, loaded with their chunk (composition-screens.ts) by `loadScreens`. */
type SignedInMachines = ScreenActors['machines']
/** The account screens' machines (e-mailed links, 2FA setup, password and 2FA settings), loaded by `loadAccount`. */
type AccountMachines = ReturnType<typeof createAccountImplementations>

type ScreenMachines = SignedInMachines &
  AccountMachines & {
    firstAdmin: ReturnType<typeof createSessionImplementations>['firstAdmin']
    companyUsers: ReturnType<typeof createShellImplementations>['companyUsers']
  }

/** The long-lived actors and the screen machines (already provided), read by views through context. */
export type AppActors = {
  session: SessionActor
  language: LanguageActor
  /** The selected company (header switcher; every company-scoped screen reads it). */
  companySelection: CompanySelectionActor
  /** The upload queue and the upload dialogs; set by `loadScreens`, absent in view tests that do not upload. */
  uploadQueue?: UploadQueueActor
  uploadDialog?: UploadDialogActor
  /** The screen machines; those of the screens' chunk are there once `loadScreens` has resolved. */
  machines: ScreenMachines
  /**
   * Loads the signed-in screens' chunk (upload queue and dialog, dashboard, export) and puts its
   * actors and machines here (the same promise every time): the signed-in routes wait for it; absent
   * in view tests, whose actors are all given.
   */
  loadScreens?: () => Promise<void>
  /** Loads the account screens' machines into `machines` (the same promise every time): their routes wait for it. */
  loadAccount?: () => Promise<void>
  /** The administration area's machines, loaded with their chunk (the same promise every time). */
  loadAdmin: () => Promise<AdminMachines>
  /** Settings → API tokens: its machine, loaded with its chunk (the same promise every time); absent
   * in view tests that do not show the section. */
  loadApiTokens?: () => Promise<ApiTokensMachines>
  /** The detail dialog's machine, loaded with its chunk (the same promise every time); absent in
   * view tests that open no detail dialog. */
  loadDetails?: () => Promise<DetailMachines>
  /** The Stately inspector (or a test's observer), also given to screen-scoped actors. */
  inspect?: ((event: InspectionEvent) => void) | undefined
}

export type AppDeps = {
  api: Api
  notify: Notify
  navigate: Navigator
  storage: KeyValueStorage
  locale: { activate(language: Language, catalog: Catalog): void; storageKey: string }
  clipboard: Pick<Clipboard, 'writeText'>
  initialLanguage: Language
  /** Starts the browser's download of an address (default: the page opens it; the answer is an attachment). */
  download?: (url: string) => void
  inspect?: ((event: InspectionEvent) => void) | undefined
}

/** The actors as the composition root builds them: with their loaders. */
type ComposedApp = AppActors & Required<Pick<AppActors, 'loadScreens' | 'loadAccount'>>

export function composeApp(deps: AppDeps): ComposedApp {
  const { api, notify, navigate, storage, inspect } = deps
  const options = inspect ? { inspect } : {}

  const sessionFlow = createSessionImplementations({ api, notify, navigate })
  const session = createActor(sessionFlow.session, options)

  const shell = createShellImplementations({ api, notify, storage, locale: deps.locale, session })
  const language = createActor(shell.language, { ...options, input: { language: deps.initialLanguage } })
  const companySelection = createActor(shell.companySelection, options)
  shell.followSession({ language, companySelection })

  // Filled in place by `loadScreens` (the views read them once a route waited for it).
  const machines = {
    firstAdmin: sessionFlow.firstAdmin,
    companyUsers: shell.companyUsers,
  } as ScreenMachines
  // Each chunk loads once, and again after the network came back if it could not be fetched.
  const loadScreens = loadOnce(() =>
    import('./composition-screens').then(({ composeScreens }) => {
      const loaded = composeScreens(deps, { session, companySelection })
      actors.uploadQueue = loaded.uploadQueue
      actors.uploadDialog = loaded.uploadDialog
      Object.assign(machines, loaded.machines)
    }),
  )
  const actors: ComposedApp = {
    session,
    language,
    companySelection,
    machines,
    loadScreens,
    loadAccount: loadOnce(() =>
      import('./machines/account/account.implementations').then((flow) => {
        Object.assign(
          machines,
          flow.createAccountImplementations({ api, notify, navigate, clipboard: deps.clipboard, session }),
        )
      }),
    ),
    loadAdmin: loadOnce(() =>
      Promise.all([api.loadAdmin(), import('./machines/admin/admin.implementations')]).then(
        ([adminApi, flow]) => flow.createAdminImplementations({ admin: adminApi, notify }),
      ),
    ),
    loadApiTokens: loadOnce(() =>
      Promise.all([api.loadApiTokens(), import('./machines/api-tokens/api-tokens.implementations')]).then(
        ([tokensApi, flow]) =>
          flow.createApiTokensImplementations({ apiTokens: tokensApi, notify, clipboard: deps.clipboard }),
      ),
    ),
    loadDetails: loadOnce(() =>
      Promise.all([
        api.loadDetails(),
        import('./machines/details/details.implementations'),
        loadScreens(),
      ]).then(([detailsApi, flow]) =>
        flow.createDetailsImplementations({
          details: detailsApi,
          notify,
          uploadQueue: { send: (event) => actors.uploadQueue?.send(event) },
        }),
      ),
    ),
    inspect,
  }
  // Signing in starts the screens' chunk while the app navigates (the login page did not need it).
  session.on('session.signedIn', () => void loadScreens())
  return actors
}

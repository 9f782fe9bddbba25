/**
 * The app's wiring: builds the dependencies once, asks each flow's factory for its machines
 * (`src/machines/<flow>/<flow>.implementations.ts`), creates the long-lived actors and lets them
 * follow each other's events. Only the composition root (`main.tsx`) calls `composeApp`.
 */
import { createActor, type InspectionEvent } from 'xstate'
import type { Language } from '../contract'
import type { Api } from './api'
import type { Catalog } from './api/locales'
import { createAccountImplementations } from './machines/account/account.implementations'
import type { AdminMachines } from './machines/admin/admin.implementations'
import type { ApiTokensMachines } from './machines/api-tokens/api-tokens.implementations'
import {
  createDashboardImplementations,
  createExportImplementations,
} from './machines/dashboard/dashboard.implementations'
import type { DetailTarget } from './machines/dashboard/row-actions.machine'
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
import {
  createUploadsImplementations,
  type UploadDialogActor,
} from './machines/uploads/uploads.implementations'

type ScreenMachines = ReturnType<typeof createAccountImplementations> & {
  firstAdmin: ReturnType<typeof createSessionImplementations>['firstAdmin']
  dashboard: ReturnType<typeof createDashboardImplementations>['dashboard']
  exportDocuments: ReturnType<typeof createExportImplementations>
  companyUsers: ReturnType<typeof createShellImplementations>['companyUsers']
}

/** The long-lived actors and the screen machines (already provided), read by views through context. */
export type AppActors = {
  session: SessionActor
  language: LanguageActor
  /** The selected company (header switcher; every company-scoped screen reads it). */
  companySelection: CompanySelectionActor
  /** The upload queue and the upload dialogs; absent in view tests that do not upload. */
  uploadQueue?: UploadQueueActor
  uploadDialog?: UploadDialogActor
  machines: ScreenMachines
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

/** How long a View from the upload panel waits for its company's dashboard to start. */
const VIEW_REQUEST_MS = 10_000

export function composeApp(deps: AppDeps): AppActors {
  const { api, notify, navigate, storage, inspect } = deps
  const options = inspect ? { inspect } : {}

  const sessionFlow = createSessionImplementations({ api, notify, navigate })
  const session = createActor(sessionFlow.session, options)

  const shell = createShellImplementations({ api, notify, storage, locale: deps.locale, session })
  const language = createActor(shell.language, { ...options, input: { language: deps.initialLanguage } })
  const companySelection = createActor(shell.companySelection, options)
  shell.followSession({ language, companySelection })

  const uploads = createUploadsImplementations({ api, notify, session, companySelection })
  const uploadQueue = createActor(uploads.uploadQueue, options)
  const uploadDialog = createActor(uploads.uploadDialog(uploadQueue), options)
  uploadQueue.start()
  uploadDialog.start()

  let admin: Promise<AdminMachines> | undefined
  let details: Promise<DetailMachines> | undefined
  let apiTokens: Promise<ApiTokensMachines> | undefined
  const loadAdmin = () => {
    admin ??= Promise.all([api.loadAdmin(), import('./machines/admin/admin.implementations')]).then(
      ([adminApi, flow]) => flow.createAdminImplementations({ admin: adminApi, notify }),
    )
    return admin
  }
  const loadApiTokens = () => {
    apiTokens ??= Promise.all([
      api.loadApiTokens(),
      import('./machines/api-tokens/api-tokens.implementations'),
    ]).then(([tokensApi, flow]) =>
      flow.createApiTokensImplementations({ apiTokens: tokensApi, notify, clipboard: deps.clipboard }),
    )
    return apiTokens
  }
  const loadDetails = () => {
    details ??= Promise.all([api.loadDetails(), import('./machines/details/details.implementations')]).then(
      ([detailsApi, flow]) => flow.createDetailsImplementations({ details: detailsApi, notify, uploadQueue }),
    )
    return details
  }

  // The upload panel's View: the upload's company dashboard opens the document. When that dashboard
  // is not on screen (another page, or another company selected since), the company is selected and
  // the dashboard shown, which takes the request as it starts. A request nobody took within
  // VIEW_REQUEST_MS (the user went elsewhere) lapses rather than open a dialog out of the blue later.
  let viewRequest: { companyId: number; target: DetailTarget; at: number } | null = null
  uploadQueue.on('uploads.view', ({ companyId, kind, id }) => {
    viewRequest = { companyId, target: { kind, id }, at: Date.now() }
    if (companySelection.getSnapshot().context.selectedId !== companyId)
      companySelection.send({ type: 'company.select', id: companyId })
    navigate.toPath('/')
  })
  const takeViewRequest = (companyId: number): DetailTarget | null => {
    const request = viewRequest
    if (!request || request.companyId !== companyId) return null
    viewRequest = null
    return Date.now() - request.at <= VIEW_REQUEST_MS ? request.target : null
  }

  const account = createAccountImplementations({ api, notify, navigate, clipboard: deps.clipboard, session })
  const machines: ScreenMachines = {
    ...account,
    firstAdmin: sessionFlow.firstAdmin,
    dashboard: createDashboardImplementations({
      api,
      notify,
      uploads: uploadQueue,
      takeViewRequest,
      events: api.loadEvents,
      inspect,
    }).dashboard,
    exportDocuments: createExportImplementations({
      api,
      notify,
      download: deps.download ?? ((url) => window.location.assign(url)),
    }),
    companyUsers: shell.companyUsers,
  }
  return {
    session,
    language,
    companySelection,
    uploadQueue,
    uploadDialog,
    machines,
    loadAdmin,
    loadApiTokens,
    loadDetails,
    inspect,
  }
}

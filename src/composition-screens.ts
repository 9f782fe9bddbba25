/**
 * The wiring of the signed-in screens: the upload queue and dialog, the dashboard and the export. A
 * chunk of its own, which `composeApp`'s `loadScreens` imports once the session is signed in: the
 * login page never loads it.
 */
import { createActor, type InspectionEvent } from 'xstate'
import type { Api } from './api'
import {
  createDashboardImplementations,
  createExportImplementations,
} from './machines/dashboard/dashboard.implementations'
import type { DetailTarget } from './machines/dashboard/row-actions.machine'
import type { SessionActor } from './machines/session/session.implementations'
import type { Navigator } from './machines/shared/deps'
import type { Notify } from './machines/shared/notice'
import type { CompanySelectionActor } from './machines/shell/shell.implementations'
import type { UploadQueueActor } from './machines/uploads/upload-queue.machine'
import {
  createUploadsImplementations,
  type UploadDialogActor,
} from './machines/uploads/uploads.implementations'

/** What the screens need of the app's dependencies (composition.ts's `AppDeps`). */
export type ScreensDeps = {
  api: Api
  notify: Notify
  navigate: Navigator
  /** Starts the browser's download of an address (default: the page opens it; the answer is an attachment). */
  download?: (url: string) => void
  inspect?: ((event: InspectionEvent) => void) | undefined
}

/** What the screens' chunk adds to the app's actors once it has loaded. */
export type ScreenActors = {
  uploadQueue: UploadQueueActor
  uploadDialog: UploadDialogActor
  machines: {
    dashboard: ReturnType<typeof createDashboardImplementations>['dashboard']
    exportDocuments: ReturnType<typeof createExportImplementations>
  }
}

/** How long a View from the upload panel waits for its company's dashboard to start. */
const VIEW_REQUEST_MS = 10_000

export function composeScreens(
  deps: ScreensDeps,
  root: { session: SessionActor; companySelection: CompanySelectionActor },
): ScreenActors {
  const { api, notify, navigate, inspect } = deps
  const { session, companySelection } = root
  const options = inspect ? { inspect } : {}

  const uploads = createUploadsImplementations({ api, notify, session, companySelection })
  const uploadQueue = createActor(uploads.uploadQueue, options)
  const uploadDialog = createActor(uploads.uploadDialog(uploadQueue), options)
  uploadQueue.start()
  uploadDialog.start()

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

  return {
    uploadQueue,
    uploadDialog,
    machines: {
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
    },
  }
}

/**
 * The upload queue and the upload dialogs (long-lived), provided with the documents API and the
 * toasts. Created by `createAppActors`; the queue outlives screens so uploads go on while the user
 * moves around the app.
 */
import toast from 'react-hot-toast'
import { createActor, fromPromise, type InspectionEvent } from 'xstate'
import type { Api } from './api'
import { uploadDialogMachine } from './machines/uploads/upload-dialog.machine'
import { uploadItemMachine } from './machines/uploads/upload-item.machine'
import { type StatusAnswer, uploadQueueMachine } from './machines/uploads/upload-queue.machine'
import type { CompanySelectionActor, SessionActor } from './ui/app-context'
import { type UploadNoticeParams, uploadNoticeText } from './ui/messages'

function showUploadToast(params: UploadNoticeParams) {
  const { kind, text } = uploadNoticeText(params)
  if (kind === 'info') toast(text, { icon: 'ℹ️' })
  else toast[kind](text)
}

export function createUploadActors(deps: {
  api: Api
  session: SessionActor
  companySelection: CompanySelectionActor
  /** Called after an upload completes or fails (the dashboard refreshes). */
  refreshDashboard: () => void
  inspect?: ((event: InspectionEvent) => void) | undefined
}) {
  const { api } = deps
  const options = deps.inspect ? { inspect: deps.inspect } : {}

  const uploadItem = uploadItemMachine.provide({
    actors: {
      upload: fromPromise(({ input, signal }) =>
        api.documents.upload(
          {
            file: input.file,
            documentType: input.documentType,
            category: input.category,
            companyId: input.companyId,
          },
          {
            signal,
            onProgress: (progress) => input.item.send({ type: 'upload.progress', progress }),
            onSent: () => input.item.send({ type: 'upload.sent' }),
          },
        ),
      ),
    },
    actions: { notify: (_, params) => showUploadToast(params) },
  })

  const uploadQueue = createActor(
    uploadQueueMachine.provide({
      actors: {
        uploadItem,
        // One request per kind (and company); a failed one is logged, the others still count.
        checkStatus: fromPromise(async ({ input }) => {
          const settled = await Promise.allSettled(
            input.requests.map(
              async (r): Promise<StatusAnswer> => ({
                kind: r.kind,
                companyId: r.companyId,
                statuses: await api.documents.bulkStatus(r.kind, r.companyId, r.documentIds),
              }),
            ),
          )
          const answers = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
          const failures = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []))
          if (failures.length && !answers.length) throw failures[0]
          for (const failure of failures) console.warn('Upload status check failed', failure)
          return answers
        }),
      },
      actions: {
        notify: (_, params) => showUploadToast(params),
        refreshDashboard: () => deps.refreshDashboard(),
        // Spec 02 §8: bulk status polling errors are only logged; the items stay processing.
        logPollError: (_, { error }) => console.warn('Upload status check failed', error),
      },
    }),
    options,
  )

  const uploadDialog = createActor(
    uploadDialogMachine.provide({
      actions: {
        submit: (_, { files }) =>
          uploadQueue.send({
            type: 'uploads.add',
            files,
            companyId: deps.companySelection.getSnapshot().context.selectedId,
            at: Date.now(),
          }),
      },
    }),
    options,
  )

  // Signing out forgets the list (and aborts what is still sending).
  deps.session.subscribe((snapshot) => {
    if (snapshot.matches('signedOut') && uploadQueue.getSnapshot().context.uploads.length)
      uploadQueue.send({ type: 'uploads.clearAll' })
  })

  uploadQueue.start()
  uploadDialog.start()
  return { uploadQueue, uploadDialog }
}

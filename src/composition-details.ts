/**
 * The invoice / expense detail dialog's machine, provided with the detail API, the upload queue
 * and the toasts: a chunk of its own, loaded when a dialog opens (see `loadDetails` in
 * composition.ts), so none of it weighs on the dashboard's first load.
 */
import toast from 'react-hot-toast'
import { assign, fromPromise } from 'xstate'
import type { DetailsApi } from './api/details'
import { documentDetailMachine } from './machines/details/document-detail.machine'
import type { UploadQueueActor } from './machines/uploads/upload-queue.machine'
import { detailNoticeText } from './ui/views/details/notices'

export function createDetailMachines(deps: {
  details: DetailsApi
  uploadQueue: UploadQueueActor
  objectUrls?: Pick<typeof URL, 'createObjectURL' | 'revokeObjectURL'>
}) {
  const { details } = deps
  const urls = deps.objectUrls ?? URL
  const releasePreview = (url: string | null) => {
    if (url) urls.revokeObjectURL(url)
  }
  return {
    /** Revokes a preview URL the machine could not (its actor stopped by an unmount, not closed). */
    releasePreview,
    documentDetail: documentDetailMachine.provide({
      actors: {
        loadDocument: fromPromise(({ input }) => details.get(input.kind, input.id, input.companyId)),
        loadOriginal: fromPromise(({ input }) => details.download(input.kind, input.id, input.companyId)),
        loadQuality: fromPromise(({ input }) => details.quality(input.kind, input.id, input.companyId)),
        deleteDocument: fromPromise(({ input }) => details.remove(input.kind, input.id, input.companyId)),
      },
      actions: {
        createPreviewUrl: assign((_, { blob }: { blob: Blob }) => ({
          previewUrl: urls.createObjectURL(blob),
        })),
        revokePreviewUrl: (_, { url }) => releasePreview(url),
        queueUpload: (_, { file, companyId }) =>
          deps.uploadQueue.send({ type: 'uploads.add', files: [file], companyId, at: Date.now() }),
        notify: (_, params) => {
          const shown = detailNoticeText(params)
          if (!shown) return
          if (shown.kind === 'warning') toast(shown.text, { icon: '⚠️' })
          else toast[shown.kind](shown.text)
        },
      },
    }),
  }
}

export type DetailMachines = ReturnType<typeof createDetailMachines>

/**
 * The invoice / expense detail dialog's machine filled from the detail API, its notices and the
 * upload queue (a resubmitted file is queued like any upload). Loaded with the dialog's chunk.
 */
import { assign, fromPromise } from 'xstate'
import type { DetailsApi } from '../../api/details'
import type { DetailNotifier } from '../shared/deps'
import type { UploadQueueActor } from '../uploads/upload-queue.machine'
import { documentDetailMachine } from './document-detail.machine'

export type DetailsDeps = {
  details: DetailsApi
  notify: DetailNotifier
  uploadQueue: Pick<UploadQueueActor, 'send'>
  objectUrls?: Pick<typeof URL, 'createObjectURL' | 'revokeObjectURL'>
}

export function createDetailsImplementations({ details, notify, uploadQueue, objectUrls }: DetailsDeps) {
  const urls = objectUrls ?? URL
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
          uploadQueue.send({ type: 'uploads.add', files: [file], companyId, at: Date.now() }),
        notify: (_, params) => notify.detail(params),
      },
    }),
  }
}

export type DetailMachines = ReturnType<typeof createDetailsImplementations>

/**
 * The invoice / expense detail dialog's machine filled from the detail API, its notices and the
 * upload queue (a resubmitted file is queued like any upload). Loaded with the dialog's chunk.
 */
import { assign, fromPromise } from 'xstate'
import type { DetailsApi } from '../../api/details'
import { type Notice, type Notify, notice } from '../shared/notice'
import type { UploadQueueActor } from '../uploads/upload-queue.machine'
import { type DetailNoticeParams, documentDetailMachine } from './document-detail.machine'
import { createDocumentEditMachine } from './document-edit.implementations'
import { createDocumentPreviewMachine, type PdfEngine } from './document-preview.implementations'

export type DetailsDeps = {
  details: DetailsApi
  notify: Notify
  uploadQueue: Pick<UploadQueueActor, 'send'>
  objectUrls?: Pick<typeof URL, 'createObjectURL' | 'revokeObjectURL'>
}

/** The detail dialog's toast of a notice, or null for those it shows by itself (the expense's load and preview errors). */
function detailNotice({ notice: code, kind, message, category, busy }: DetailNoticeParams): Notice | null {
  const invoice = kind === 'invoice'
  switch (code) {
    case 'loadFailed':
      return invoice
        ? notice('detail.invoiceLoadFailed', {
            values: { message: message ? { message } : { notice: 'detail.invoiceDetailsUnavailable' } },
          })
        : null
    case 'previewFailed':
      return invoice ? notice('detail.invoicePreviewFailed') : null
    case 'qualityFailed':
    case 'storeFailed':
    case 'missingReuploadData':
    case 'missingStoreData':
      return notice(`detail.${code}`)
    case 'stored':
      return notice(`detail.${kind}Stored`, { values: { category: category ?? '' } })
    case 'resubmitted':
      return notice(`detail.${kind}Resubmitted`)
    case 'resubmitFailed':
      return notice(`detail.${kind}ResubmitFailed`)
    case 'reuploaded':
      return notice(`detail.${kind}Reuploaded`)
    case 'reuploadFailed':
      return notice(`detail.${kind}ReuploadFailed`)
    case 'reprocessed':
      return notice('detail.reprocessed')
    case 'reprocessFailed':
      return busy
        ? notice('detail.correctionWhileProcessing')
        : notice('detail.reprocessFailed', { values: { message: { message: message ?? '' } } })
  }
}

export function createDetailsImplementations({ details, notify, uploadQueue, objectUrls }: DetailsDeps) {
  const urls = objectUrls ?? URL
  const releasePreview = (url: string | null) => {
    if (url) urls.revokeObjectURL(url)
  }
  return {
    /** Revokes a preview URL the machine could not (its actor stopped by an unmount, not closed). */
    releasePreview,
    /** Correcting the fields in place (the dialog starts it once the record is loaded). */
    documentEdit: createDocumentEditMachine({ corrections: details, notify }),
    /** The original drawn in the dialog, with the PDF engine the view loads (pdf.js, a chunk of its own). */
    documentPreview: (pdf: PdfEngine) => createDocumentPreviewMachine({ details, pdf }),
    documentDetail: documentDetailMachine.provide({
      actors: {
        loadDocument: fromPromise(({ input }) => details.get(input.kind, input.id, input.companyId)),
        loadOriginal: fromPromise(({ input }) => details.download(input.kind, input.id, input.companyId)),
        loadQuality: fromPromise(({ input }) => details.quality(input.kind, input.id, input.companyId)),
        deleteDocument: fromPromise(({ input }) => details.remove(input.kind, input.id, input.companyId)),
        reprocessDocument: fromPromise(({ input }) =>
          details.reprocess(input.kind, input.id, input.companyId),
        ),
      },
      actions: {
        createPreviewUrl: assign((_, { blob }: { blob: Blob }) => ({
          previewUrl: urls.createObjectURL(blob),
        })),
        revokePreviewUrl: (_, { url }) => releasePreview(url),
        queueUpload: (_, { file, companyId }) =>
          uploadQueue.send({ type: 'uploads.add', files: [file], companyId, at: Date.now() }),
        notify: (_, params) => {
          const shown = detailNotice(params)
          if (shown) notify(shown)
        },
      },
    }),
  }
}

export type DetailMachines = ReturnType<typeof createDetailsImplementations>

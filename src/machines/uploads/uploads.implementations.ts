/**
 * The upload flow's machines filled from the documents API and the notices: the queue (one child
 * per file, the status poll) and the upload dialog, which hands its files to the queue for the
 * selected company. The queue emits `uploads.accepted` and `uploads.settled`; its `session` actor
 * turns the session's `session.signedOut` into `uploads.clearAll` (signing out forgets the list).
 * The files queued are kept in the browser's storage (`src/api/unsent-uploads.ts`, loaded with the
 * first upload or the first look for unsent files) until the server has answered for them, and the
 * browser's `online` event sends the uploads waiting for the network.
 */
import { type ActorRefFrom, fromCallback, fromPromise } from 'xstate'
import { contractMessages } from '../../../contract'
import type { Api } from '../../api'
import { uploadNetworkError } from '../../api/code-chunks'
import { openUnsentUploads, type UnsentUploads } from '../../api/unsent-uploads'
import type { SessionActor } from '../session/session.implementations'
import { type Reason, reasonOf } from '../shared/failure'
import { type Notice, type Notify, notice } from '../shared/notice'
import type { CompanySelectionActor } from '../shell/shell.implementations'
import { type UploadDialogMachine, uploadDialogMachine } from './upload-dialog.machine'
import { type PhotoToPdfInput, type UploadItemNotice, uploadItemMachine } from './upload-item.machine'
import {
  type StatusAnswer,
  type UnsentUpload,
  type UploadQueueActor,
  type UploadQueueNotice,
  uploadQueueMachine,
} from './upload-queue.machine'

export type UploadDialogActor = ActorRefFrom<UploadDialogMachine>

export type UploadsDeps = {
  api: Pick<Api, 'documents'>
  notify: Notify
  session: Pick<SessionActor, 'on' | 'getSnapshot'>
  companySelection: Pick<CompanySelectionActor, 'getSnapshot'>
  /** The browser's storage of unsent files (IndexedDB unless a test gives another). */
  unsentUploads?: () => Promise<UnsentUploads>
  /** Where `online` events come from (the window unless a test gives another). */
  network?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>
}

const browserUnsentUploads = async () => openUnsentUploads()

/** The storage's failures are logged: the uploads go on without the safety net. */
const logStorageError = (error: unknown) => console.warn('Keeping unsent uploads failed', error)

/** The upload toasts: start (one file by name, or a count), sent, processed, failed with the reason. */
function uploadNotice(p: {
  notice: UploadQueueNotice | UploadItemNotice
  fileName?: string
  count?: number
  reason?: Reason
}): Notice {
  const fileName = p.fileName ?? ''
  if (p.notice === 'started' && p.count !== undefined)
    return notice('upload.startedMany', { values: { 0: p.count } })
  if (p.notice === 'failed') {
    return notice('upload.failed', {
      values: { fileName, reason: { reason: p.reason ?? reasonOf(contractMessages.uploadFailed) } },
    })
  }
  return notice(`upload.${p.notice}`, { values: { fileName } })
}

/**
 * pdf-lib comes with its module, loaded the first time a photo is sent as an expense. A module that
 * cannot be fetched (offline, a tunnel) is a network failure: the item waits and tries again.
 */
async function convertPhoto(input: PhotoToPdfInput): Promise<File> {
  const converter = await import('./photo-to-pdf').catch(() => {
    throw uploadNetworkError()
  })
  return converter.photoToPdf(input)
}

/**
 * Once the queue starts (the user is signed in): what a reload left unsent, if anything. A file
 * another tab is sending is not offered; it is if that tab closes before it is answered.
 */
function restoreUnsent(
  stored: () => Promise<UnsentUploads>,
  user: number | null,
  sendBack: (event: { type: 'uploads.restored'; uploads: UnsentUpload[] }) => void,
) {
  if (user === null) return
  const stop = new AbortController()
  stored()
    .then((s) =>
      s.list(user, (upload) => sendBack({ type: 'uploads.restored', uploads: [upload] }), stop.signal),
    )
    .then((uploads) => {
      if (uploads.length) sendBack({ type: 'uploads.restored', uploads })
    })
    .catch(logStorageError)
  return () => stop.abort()
}

export function createUploadsImplementations({
  api,
  notify,
  session,
  companySelection,
  unsentUploads = browserUnsentUploads,
  network = globalThis.window,
}: UploadsDeps) {
  let store: Promise<UnsentUploads> | undefined
  const stored = () => (store ??= unsentUploads())
  const userId = () => session.getSnapshot().context.user?.id ?? null
  const uploadItem = uploadItemMachine.provide({
    actors: {
      upload: fromPromise(({ input, signal }) =>
        api.documents.upload(
          {
            file: input.file,
            documentType: input.documentType,
            category: input.category,
            companyId: input.companyId,
            key: input.key,
          },
          {
            signal,
            onProgress: (progress) => input.item.send({ type: 'upload.progress', progress }),
            onSent: () => input.item.send({ type: 'upload.sent' }),
          },
        ),
      ),
      photoToPdf: fromPromise(({ input }) => convertPhoto(input)),
    },
  })

  return {
    uploadQueue: uploadQueueMachine.provide({
      actors: {
        uploadItem,
        sessionEvents: fromCallback(({ sendBack }) => {
          // Signing out forgets the list (and aborts what is still sending).
          const subscription = session.on('session.signedOut', () => sendBack({ type: 'uploads.clearAll' }))
          return () => subscription.unsubscribe()
        }),
        network: fromCallback(({ sendBack }) => {
          const online = () => sendBack({ type: 'network.online' })
          const offline = () => sendBack({ type: 'network.offline' })
          network?.addEventListener('online', online)
          network?.addEventListener('offline', offline)
          return () => {
            network?.removeEventListener('online', online)
            network?.removeEventListener('offline', offline)
          }
        }),
        unsent: fromCallback(({ sendBack }) => restoreUnsent(stored, userId(), sendBack)),
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
        notify: (_, params) => notify(uploadNotice(params)),
        // Status polling errors are only logged; the items stay processing.
        logPollError: (_, { error }) => console.warn('Upload status check failed', error),
        keepUnsent: (_, { uploads }) => {
          const user = userId()
          if (user === null) return
          stored()
            .then((s) => s.keep(uploads.map((u) => ({ ...u, userId: user }))))
            .catch(logStorageError)
        },
        forgetUnsent: (_, { keys }) => {
          stored()
            .then((s) => s.forget(keys))
            .catch(logStorageError)
        },
      },
    }),
    /** The upload dialog, handing its files to `queue` for the company selected at that moment. */
    uploadDialog: (queue: Pick<UploadQueueActor, 'send'>) =>
      uploadDialogMachine.provide({
        actions: {
          submit: (_, { files }) =>
            queue.send({
              type: 'uploads.add',
              files,
              companyId: companySelection.getSnapshot().context.selectedId,
              at: Date.now(),
            }),
        },
      }),
  }
}

/**
 * One file's upload: `pending` until the queue starts it (or `unsent`, a file a reload found in the
 * browser's storage, until the user sends it again or drops it), then for a photo of a receipt
 * `converting` (made into a one-page PDF in the browser; reported as uploading, cancellable; when
 * the converter's code cannot be loaded, offline, it waits for the network like a broken upload),
 * `sending.uploading` (progress; cancellable) → `sending.in_progress` (body sent, answer awaited) → `processing`
 * (the server answered PROCESSING; the queue polls) or `success`; `processing` ends in `success`
 * or `error`. A connection that breaks while sending (or the browser going offline, which stops
 * the request) leads to `waitingForNetwork`: the upload is
 * sent again, whole and under the same idempotency key (the server answers the document a first
 * attempt may have created), when the browser says it is back online or after a back-off of 1, 2,
 * 4 … 30 s. Every status change is reported to the queue (`upload.changed`).
 */
import { type ActorRef, assign, fromPromise, raise, type Snapshot, sendTo, setup } from 'xstate'
import type { DocumentKind, UploadAnswer } from '../../../contract'
import { contractMessages, isFileOfType, JPEG, PDF, PNG } from '../../../contract'
import { type Reason, reasonOf } from '../shared/failure'

export type UploadStatus =
  | 'pending'
  | 'unsent'
  | 'uploading'
  | 'waiting'
  | 'in_progress'
  | 'processing'
  | 'success'
  | 'error'
  | 'cancelled'

const COMPANY_REQUIRED = reasonOf(contractMessages.companyIdRequired)
const PROCESSING_FAILED_MESSAGE = contractMessages.processingFailed
const PHOTO_NOT_CONVERTED = reasonOf(contractMessages.photoNotConverted)

/** The photos an expense takes: the browser makes each a one-page PDF before sending it. */
export const RECEIPT_PHOTO_TYPES = [JPEG, PNG] as const

/** A photo of a receipt queued as an expense (the server takes expenses as PDFs only). */
export const isReceiptPhoto = (q: { file: Pick<File, 'name' | 'type'>; documentType: DocumentKind }) =>
  q.documentType === 'expense' && !isFileOfType([PDF], q.file) && isFileOfType(RECEIPT_PHOTO_TYPES, q.file)

/** The names phones give every camera shot (iOS: `image.jpg`): several receipts would share one. */
const GENERIC_PHOTO = /^(image|photo|picture|img)$/i

/** `YYYY-MM-DD-HHMMSS` of a time, in local time. */
const stamp = (ms: number) => {
  const d = new Date(ms)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}-${two(d.getHours())}${two(d.getMinutes())}${two(d.getSeconds())}`
}

/**
 * The name a file is uploaded under: a receipt photo's PDF is named after it (`IMG_1234.jpg` →
 * `IMG_1234.pdf`), or after the time it was taken when the phone gives every shot the same name
 * (`image.jpg` → `receipt-2026-12-02-093015.pdf`).
 */
export const uploadFileName = (q: {
  file: Pick<File, 'name' | 'type'> & Partial<Pick<File, 'lastModified'>>
  documentType: DocumentKind
}) => {
  if (!isReceiptPhoto(q)) return q.file.name
  const base = q.file.name.replace(/\.[^./\\]*$/, '')
  if (base && !GENERIC_PHOTO.test(base)) return `${base}.pdf`
  return q.file.lastModified ? `receipt-${stamp(q.file.lastModified)}.pdf` : 'receipt.pdf'
}

/** What the conversion is given: the photo and the PDF's name. */
export type PhotoToPdfInput = { photo: File; name: string }

/** What an item tells its queue each time its status changes. */
export type UploadReport = {
  type: 'upload.changed'
  id: string
  status: UploadStatus
  documentId: number | null
  error: Reason | null
  completedAt: number | null
  /** The size of what is sent (a receipt photo's PDF once it is made). */
  fileSize?: number
  /** The server has just answered the upload (the queue's "sent" toast). */
  answered: boolean
}

export type UploadItemNotice = 'processed' | 'failed'

/** A toast the item asks its queue for; the queue leaves it out while its panel shows the same. */
export type UploadNoticeRequest = {
  type: 'upload.notice'
  notice: UploadItemNotice
  fileName: string
  reason?: Reason
}

/** A status from the poll: `{status, errors}` of the document. */
export type StatusUpdate = { type: 'upload.status'; status: string; errors: string[]; messages?: string[] }

export type UploadItemEvent =
  /** The queue starts the upload for the company it was queued under. */
  | { type: 'upload.start'; companyId: number | null }
  | { type: 'upload.progress'; progress: number }
  | { type: 'upload.sent' }
  | { type: 'upload.cancel' }
  /** The browser is back online: a waiting upload is sent again at once. */
  | { type: 'network.online' }
  /** The browser went offline: a request still sending would only stall; it is stopped. */
  | { type: 'network.offline' }
  | StatusUpdate

export type UploadItemInput = {
  id: string
  /** The upload's idempotency key, kept with the file in the browser's storage until it is sent. */
  key: string
  /** Found in the browser's storage after a reload: waits for the user to send it again. */
  unsent?: boolean
  file: File
  documentType: DocumentKind
  category: string
  createdAt: number
  parent: ActorRef<Snapshot<unknown>, UploadReport | UploadNoticeRequest>
}

export type UploadItemContext = Omit<UploadItemInput, 'file'> & {
  /** What is sent: the file queued, or the PDF made of `photo`. */
  file: File
  /** A receipt photo queued as an expense (kept for its thumbnail), else null. */
  photo: File | null
  companyId: number | null
  fileName: string
  fileSize: number
  fileType: string
  documentId: number | null
  progress: number
  error: Reason | null
  completedAt: number | null
  /** Attempts whose connection broke (the back-off grows with them). */
  attempts: number
}

export type UploadCallInput = {
  file: File
  /** The same for every attempt of one queued file: the server creates its document once. */
  key: string
  documentType: DocumentKind
  category: string
  companyId: number
  /** The item itself: the call sends it `upload.progress` and `upload.sent`. */
  item: ActorRef<Snapshot<unknown>, UploadItemEvent>
}

const isProcessingStatus = (status: string) => status.toUpperCase() === 'PROCESSING'
const isCompletedStatus = (status: string) => ['COMPLETED', 'SUCCESS'].includes(status.toUpperCase())
const isFailedStatus = (status: string) => status.toUpperCase() === 'FAILED'

/** The failure's reason: the server's texts (or codes) joined, else 'Processing failed'. */
export function failureReason(update: Pick<StatusUpdate, 'errors' | 'messages'>): string {
  const texts = update.messages?.length ? update.messages : update.errors
  return texts.length ? texts.join(', ') : PROCESSING_FAILED_MESSAGE
}

/** The longest wait between two attempts of an upload whose connection broke. */
export const MAX_RETRY_DELAY_MS = 30_000

/** 1 s after the first broken attempt, then twice as long each time, at most MAX_RETRY_DELAY_MS. */
export const retryDelay = (attempts: number) =>
  Math.min(MAX_RETRY_DELAY_MS, 1000 * 2 ** Math.max(0, attempts - 1))

/**
 * A failure the network caused (the request never got an answer: offline, connection reset), or
 * a gateway's answer that the server is not reachable: worth sending again.
 */
export const isNetworkFailure = (error: unknown) => {
  if (!error || typeof error !== 'object') return false
  const { name, status } = error as { name?: unknown; status?: unknown }
  return name === 'NetworkError' || status === 502 || status === 503 || status === 504
}

const reasonOfError = (error: unknown) =>
  reasonOf(error instanceof Error && error.message ? error.message : contractMessages.uploadFailed)

/** A call that failed for want of a network waits for it (the back-off grows with each attempt). */
const waitForNetwork = (description: string) => ({
  guard: {
    type: 'isNetworkFailure' as const,
    params: ({ event }: { event: { error: unknown } }) => event.error,
  },
  target: 'waitingForNetwork',
  actions: 'countAttempt' as const,
  description,
})

export const uploadItemMachine = setup({
  types: {
    context: {} as UploadItemContext,
    events: {} as UploadItemEvent,
    input: {} as UploadItemInput,
  },
  actors: {
    upload: fromPromise<UploadAnswer, UploadCallInput>(async () => {
      throw new Error('upload not provided')
    }),
    /** Levels the photo to its EXIF orientation and wraps it in a one-page PDF. */
    photoToPdf: fromPromise<File, PhotoToPdfInput>(async () => {
      throw new Error('photoToPdf not provided')
    }),
  },
  actions: {
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    notify: sendTo(
      ({ context }) => context.parent,
      (_, params: { notice: UploadItemNotice; fileName: string; reason?: Reason }): UploadNoticeRequest => ({
        type: 'upload.notice',
        ...params,
      }),
    ),
    report: sendTo(
      ({ context }) => context.parent,
      ({ context }, params: { status: UploadStatus; answered?: boolean }): UploadReport => ({
        type: 'upload.changed',
        id: context.id,
        status: params.status,
        documentId: context.documentId,
        error: context.error,
        completedAt: context.completedAt,
        fileSize: context.fileSize,
        answered: params.answered ?? false,
      }),
    ),
  },
  guards: {
    hasCompanyId: (_, companyId: number | null) => companyId !== null,
    /** Started for a company, with a receipt photo to make into a PDF first. */
    hasPhotoToConvert: ({ context }, companyId: number | null) =>
      companyId !== null && context.photo !== null,
    isProcessingAnswer: (_, answer: UploadAnswer) => isProcessingStatus(answer.status),
    isCompleted: (_, update: StatusUpdate) => isCompletedStatus(update.status),
    isFailed: (_, update: StatusUpdate) => isFailedStatus(update.status),
    isNetworkFailure: (_, error: unknown) => isNetworkFailure(error),
    isUnsent: ({ context }) => context.unsent === true,
    /** A receipt photo whose PDF is not made yet (what is sent is still the photo). */
    needsConversion: ({ context }) => context.photo !== null && context.file === context.photo,
  },
  delays: {
    retryDelay: ({ context }) => retryDelay(context.attempts),
  },
}).createMachine({
  id: 'uploadItem',
  context: ({ input }) => ({
    ...input,
    photo: isReceiptPhoto(input) ? input.file : null,
    companyId: null,
    fileName: uploadFileName(input),
    fileSize: input.file.size,
    fileType: isReceiptPhoto(input) ? PDF.mime : input.file.type,
    documentId: null,
    progress: 0,
    error: null,
    completedAt: null,
    attempts: 0,
  }),
  initial: 'pending',
  states: {
    unsent: {
      description: 'Found in the browser’s storage after a reload; nothing is sent until asked.',
      entry: { type: 'report', params: { status: 'unsent' } },
      on: {
        'upload.start': {
          target: 'pending',
          actions: raise(({ event }) => event),
          description: 'Sent again: started as a file just queued (the queue chose when).',
        },
        'upload.cancel': { target: 'cancelled', description: 'Dropped: the file leaves the storage.' },
      },
    },
    pending: {
      always: {
        guard: 'isUnsent',
        target: 'unsent',
        actions: assign({ unsent: false }),
        description: 'A file a reload found unsent waits for the user.',
      },
      on: {
        'upload.start': [
          {
            guard: { type: 'hasPhotoToConvert', params: ({ event }) => event.companyId },
            target: 'converting',
            actions: assign({ companyId: ({ event }) => event.companyId }),
            description: 'A receipt photo is first made into a PDF.',
          },
          {
            guard: { type: 'hasCompanyId', params: ({ event }) => event.companyId },
            target: 'sending',
            actions: assign({ companyId: ({ event }) => event.companyId }),
          },
          {
            target: 'error',
            actions: assign({ error: COMPANY_REQUIRED, completedAt: () => Date.now() }),
            description: 'Refused before sending: an upload needs a company id.',
          },
        ],
      },
    },
    converting: {
      tags: ['busy'],
      entry: { type: 'report', params: { status: 'uploading' } },
      invoke: {
        id: 'photoToPdf',
        src: 'photoToPdf',
        input: ({ context }) => ({ photo: context.photo!, name: context.fileName }),
        onDone: {
          target: 'sending',
          actions: assign({ file: ({ event }) => event.output, fileSize: ({ event }) => event.output.size }),
        },
        onError: [
          waitForNetwork(
            'The converter’s code could not be loaded (offline): made again once the network is back.',
          ),
          {
            target: 'error',
            actions: assign({ error: PHOTO_NOT_CONVERTED, completedAt: () => Date.now() }),
            description:
              'The photo could not be read: it stays in the list with the reason; nothing is sent.',
          },
        ],
      },
      on: {
        'upload.cancel': { target: 'cancelled', description: 'Stopping the conversion; nothing is sent.' },
      },
    },
    sending: {
      tags: ['busy'],
      invoke: {
        id: 'upload',
        src: 'upload',
        input: ({ context, self }) => ({
          file: context.file,
          key: context.key,
          documentType: context.documentType,
          category: context.category,
          companyId: context.companyId!,
          item: self,
        }),
        onDone: [
          {
            guard: { type: 'isProcessingAnswer', params: ({ event }) => event.output },
            target: 'processing',
            actions: assign({ documentId: ({ event }) => event.output.id, progress: 100 }),
            description: 'The server processes it: tracked by the queue’s poll.',
          },
          {
            target: 'success',
            actions: assign({
              documentId: ({ event }) => event.output.id,
              progress: 100,
              completedAt: () => Date.now(),
            }),
          },
        ],
        onError: [
          waitForNetwork('The connection broke: sent again once the network is back.'),
          {
            target: 'error',
            actions: assign({
              error: ({ event }) => reasonOfError(event.error),
              completedAt: () => Date.now(),
            }),
          },
        ],
      },
      on: {
        'network.offline': {
          target: 'waitingForNetwork',
          actions: 'countAttempt',
          description:
            'The browser went offline: the request is stopped (it would stall) and sent again later.',
        },
      },
      initial: 'uploading',
      states: {
        uploading: {
          entry: [assign({ progress: 0 }), { type: 'report', params: { status: 'uploading' } }],
          on: {
            'upload.progress': {
              actions: assign({ progress: ({ event }) => Math.max(0, Math.min(100, event.progress)) }),
            },
            'upload.sent': 'in_progress',
            'upload.cancel': {
              target: '#uploadItem.cancelled',
              description: 'Stopping the call aborts the request.',
            },
          },
        },
        in_progress: {
          entry: [assign({ progress: 100 }), { type: 'report', params: { status: 'in_progress' } }],
        },
      },
    },
    waitingForNetwork: {
      tags: ['busy'],
      entry: { type: 'report', params: { status: 'waiting' } },
      after: {
        retryDelay: [
          { guard: 'needsConversion', target: 'converting', description: 'Made again after the back-off.' },
          { target: 'sending', description: 'Tried again after the back-off.' },
        ],
      },
      on: {
        'network.online': [
          { guard: 'needsConversion', target: 'converting', description: 'The browser is back online.' },
          { target: 'sending', description: 'The browser is back online.' },
        ],
        'upload.cancel': { target: 'cancelled', description: 'Nothing more is sent.' },
      },
    },
    processing: {
      entry: { type: 'report', params: { status: 'processing', answered: true } },
      on: {
        'upload.status': [
          {
            guard: { type: 'isCompleted', params: ({ event }) => event },
            target: 'success',
            actions: [
              assign({ completedAt: () => Date.now() }),
              {
                type: 'notify',
                params: ({ context }) => ({ notice: 'processed', fileName: context.fileName }),
              },
            ],
          },
          {
            guard: { type: 'isFailed', params: ({ event }) => event },
            target: 'error',
            actions: assign({
              error: ({ event }) => reasonOf(failureReason(event)),
              completedAt: () => Date.now(),
            }),
          },
        ],
      },
    },
    success: {
      type: 'final',
      entry: {
        type: 'report',
        params: ({ event }) => ({
          status: 'success',
          answered: (event as { type: string }).type === 'xstate.done.actor.upload',
        }),
      },
    },
    error: {
      type: 'final',
      entry: [
        { type: 'report', params: { status: 'error' } },
        {
          type: 'notify',
          params: ({ context }) => ({
            notice: 'failed',
            fileName: context.fileName,
            reason: context.error ?? reasonOf(PROCESSING_FAILED_MESSAGE),
          }),
        },
      ],
    },
    cancelled: { type: 'final', entry: { type: 'report', params: { status: 'cancelled' } } },
  },
})

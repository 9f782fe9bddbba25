/**
 * The upload queue (long-lived): one `uploadItem` child per file, at most
 * MAX_CONCURRENT_UPLOADS sending at once, the others `pending`. It mirrors each child's status
 * (from `upload.changed`) and owns the single bulk poll: `idle` while nothing processes, else every
 * 3 s one request per kind (`checking`), whose answers it forwards to the children. While the
 * dashboard's live updates of a company are up (`live.up` … `live.down`), that company's uploads
 * are not polled: a `document.changed` of one of them asks for the statuses at once instead, and
 * so does an upload of that company the server has just accepted (its document may have changed
 * before the answer arrived, the event then told about a document the queue did not know yet).
 *
 * Nothing queued is lost to a broken connection or a reload: each file is kept in the browser's
 * storage (`keepUnsent`) until the server has answered for it or it ended otherwise
 * (`forgetUnsent`); the `unsent` actor gives back, after a reload, the files of the signed-in user
 * that were never answered (`uploads.restored`), listed as unsent until the user sends them again
 * or drops them. The `network` actor's `network.offline` stops what is sending (it waits for the
 * network), and its `network.online` sends the uploads waiting for it at once.
 */
import {
  type ActorRefFrom,
  assign,
  type EventObject,
  emit,
  enqueueActions,
  fromCallback,
  fromPromise,
  not,
  setup,
} from 'xstate'
import type { DocumentKind, ProcessingStatus, QueuedFile } from '../../../contract'
import type { Reason } from '../shared/failure'
import {
  type UploadItemInput,
  type UploadItemNotice,
  type UploadNoticeRequest,
  type UploadReport,
  type UploadStatus,
  uploadFileName,
  uploadItemMachine,
} from './upload-item.machine'

export const MAX_CONCURRENT_UPLOADS = 3
export const POLL_INTERVAL_MS = 3000
/** The "sent" toast only shows while the list holds fewer uploads than this (a batch of five or more gets none per file). */
const SEND_TOAST_LIMIT = 5

export type UploadQueueNotice = 'started' | 'sent' | 'noFiles' | 'selectCompanyFirst'

type UploadItemActor = ActorRefFrom<typeof uploadItemMachine>

/** The queue's view of one upload; `ref` is the child (progress lives there). */
export type QueueEntry = {
  id: string
  /** The upload's idempotency key, and its key in the browser's storage. */
  key: string
  fileName: string
  fileSize: number
  documentType: DocumentKind
  category: string
  companyId: number
  createdAt: number
  status: UploadStatus
  documentId: number | null
  error: Reason | null
  completedAt: number | null
  ref: UploadItemActor
}

export type StatusRequest = { kind: DocumentKind; companyId: number; documentIds: number[] }
export type StatusAnswer = { kind: DocumentKind; companyId: number; statuses: ProcessingStatus[] }

/**
 * What the queue tells listeners: `uploads.accepted` when the server has taken an upload (its
 * document exists), `uploads.settled` after each upload that completes or fails, `uploads.view`
 * when the user asks to see a processed invoice or expense (the dashboard opens its details).
 */
export type UploadQueueEmitted =
  | { type: 'uploads.accepted'; companyId: number; documentId: number | null }
  | { type: 'uploads.settled' }
  | { type: 'uploads.view'; companyId: number; kind: 'invoice' | 'expense'; id: number }

/** A queued file as the browser's storage keeps it until the server has answered for it. */
export type UnsentUpload = QueuedFile & { key: string; companyId: number; createdAt: number }

export type UploadQueueEvent =
  | { type: 'uploads.add'; files: QueuedFile[]; companyId: number | null; at: number }
  /** Files a reload found in the browser's storage, never answered by the server. */
  | { type: 'uploads.restored'; uploads: UnsentUpload[] }
  | { type: 'upload.cancel'; id: string }
  /** An unsent file (after a reload) is sent again. */
  | { type: 'upload.resend'; id: string }
  /** Every unsent file is sent again. */
  | { type: 'uploads.resendAll' }
  /** The browser is back online. */
  | { type: 'network.online' }
  /** The browser went offline. */
  | { type: 'network.offline' }
  | { type: 'upload.view'; id: string }
  | { type: 'uploads.clearCompleted' }
  | { type: 'uploads.clearAll' }
  | { type: 'panel.toggle' }
  /** The dashboard's live updates of the company are up (a change of its documents will be told). */
  | { type: 'live.up'; companyId: number }
  | { type: 'live.down'; companyId: number }
  /** A document of a company whose live updates are up changed. */
  | { type: 'document.changed'; companyId: number; documentId: number }
  | UploadReport
  | UploadNoticeRequest

export type UploadQueueContext = {
  uploads: QueueEntry[]
  nextId: number
  /** The floating panel: open when uploads are queued; `unseen` is its pulse dot. */
  panelOpen: boolean
  unseen: boolean
  /** The company whose live updates are up (its uploads are not polled), if any. */
  liveCompanyId: number | null
}

/** A processed invoice or expense, whose details the dashboard can show. */
export const isViewableUpload = (u: Pick<QueueEntry, 'status' | 'documentType' | 'documentId'>) =>
  u.status === 'success' && u.documentType !== 'document' && u.documentId !== null

/** Statuses that hold one of the MAX_CONCURRENT_UPLOADS slots (a waiting upload keeps its own). */
const SENDING: UploadStatus[] = ['uploading', 'in_progress', 'waiting']
/** A request on its way: only its answer accepts an upload. */
const IN_FLIGHT: UploadStatus[] = ['uploading', 'in_progress']
const CLEARED_BY_CLEAR_COMPLETED: UploadStatus[] = ['success', 'error', 'cancelled', 'in_progress']
const ENDED: UploadStatus[] = ['success', 'error']
/** Once an upload has one of these, its file leaves the browser's storage. */
const SETTLED: UploadStatus[] = ['processing', 'success', 'error', 'cancelled']
const CANCELLABLE: UploadStatus[] = ['uploading', 'waiting', 'unsent']

/** A fresh idempotency key (`getRandomValues` works where `randomUUID` does not: plain http). */
function newUploadKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** The queue's entry (its child still to spawn) for a file queued or restored. */
const entryFor = (id: string, f: UnsentUpload, status: UploadStatus): Omit<QueueEntry, 'ref'> => ({
  id,
  key: f.key,
  fileName: uploadFileName(f),
  fileSize: f.file.size,
  documentType: f.documentType,
  category: f.category,
  companyId: f.companyId,
  createdAt: f.createdAt,
  status,
  documentId: null,
  error: null,
  completedAt: null,
})

/** An upload whose row can be stopped (sending or waiting) or dropped (unsent). */
export const isCancellableUpload = (u: Pick<QueueEntry, 'status'>) => CANCELLABLE.includes(u.status)

/**
 * Files listed after the others, numbered on from `nextId`, each with its spawned child; an unsent
 * one (found after a reload) waits in its child's `unsent` state.
 */
function listed(
  files: UnsentUpload[],
  status: 'pending' | 'unsent',
  context: UploadQueueContext,
  spawnItem: (id: string, input: Omit<UploadItemInput, 'parent'>) => UploadItemActor,
): Pick<UploadQueueContext, 'uploads' | 'nextId'> {
  const added = files.map((f, i): QueueEntry => {
    const id = `upload-${context.nextId + i}`
    const { companyId: _, ...input } = f
    return {
      ...entryFor(id, f, status),
      ref: spawnItem(id, { id, ...input, ...(status === 'unsent' ? { unsent: true } : {}) }),
    }
  })
  return { uploads: [...context.uploads, ...added], nextId: context.nextId + added.length }
}

/** An upload the queue polls: processing, of a company whose live updates are not up. */
const isPolled = (u: QueueEntry, liveCompanyId: number | null) =>
  u.status === 'processing' && u.companyId !== liveCompanyId

/** One request per kind and company for the items being processed. */
export function statusRequests(uploads: readonly QueueEntry[]): StatusRequest[] {
  const byKey = new Map<string, StatusRequest>()
  for (const u of uploads) {
    if (u.status !== 'processing' || u.documentId === null) continue
    const key = `${u.documentType}:${u.companyId}`
    const request = byKey.get(key) ?? { kind: u.documentType, companyId: u.companyId, documentIds: [] }
    request.documentIds.push(u.documentId)
    byKey.set(key, request)
  }
  return [...byKey.values()]
}

/** Marks pending uploads as started while fewer than MAX_CONCURRENT_UPLOADS are sending. */
function startPending(uploads: readonly QueueEntry[]): {
  uploads: QueueEntry[]
  started: QueueEntry[]
} {
  let free = MAX_CONCURRENT_UPLOADS - uploads.filter((u) => SENDING.includes(u.status)).length
  const started: QueueEntry[] = []
  const next = uploads.map((u) => {
    if (free <= 0 || u.status !== 'pending') return u
    free--
    started.push(u)
    return { ...u, status: 'uploading' as const }
  })
  return { uploads: next, started }
}

export const uploadQueueMachine = setup({
  types: {
    context: {} as UploadQueueContext,
    events: {} as UploadQueueEvent,
    emitted: {} as UploadQueueEmitted,
  },
  actors: {
    uploadItem: uploadItemMachine,
    checkStatus: fromPromise<StatusAnswer[], { requests: StatusRequest[] }>(async () => {
      throw new Error('checkStatus not provided')
    }),
    /** Sends the queue `uploads.clearAll` when the user signs out (none where no session runs). */
    sessionEvents: fromCallback<EventObject>(() => undefined),
    /** Sends `network.online` / `network.offline` as the browser's connection comes and goes. */
    network: fromCallback<EventObject>(() => undefined),
    /** Sends `uploads.restored` once, with the signed-in user's files a reload left unsent. */
    unsent: fromCallback<EventObject>(() => undefined),
  },
  actions: {
    notify: (
      _,
      _params: {
        notice: UploadQueueNotice | UploadItemNotice
        fileName?: string
        count?: number
        reason?: Reason
      },
    ) => {},
    /** Tells whoever listens (the dashboard on screen) that an upload completed or failed. */
    announceSettled: emit({ type: 'uploads.settled' }),
    /** Tells whoever listens that the server took an upload of `companyId`. */
    announceAccepted: emit((_, p: { companyId: number; documentId: number | null }) => ({
      type: 'uploads.accepted' as const,
      ...p,
    })),
    logPollError: (_, _params: { error: unknown }) => {},
    /** Keeps the files in the browser's storage until the server answers for them. */
    keepUnsent: (_, _params: { uploads: UnsentUpload[] }) => {},
    /** Lets the browser's storage drop the files of these keys. */
    forgetUnsent: (_, _params: { keys: string[] }) => {},
    /** Starts pending uploads while fewer than MAX_CONCURRENT_UPLOADS are sending (then `markStarted`). */
    startNext: ({ context }) => {
      for (const u of startPending(context.uploads).started)
        u.ref.send({ type: 'upload.start', companyId: u.companyId })
    },
    markStarted: assign(({ context }) => ({ uploads: startPending(context.uploads).uploads })),
  },
  guards: {
    canQueue: (_, p: { files: QueuedFile[]; companyId: number | null }) =>
      p.files.length > 0 && p.companyId !== null,
    hasFiles: (_, p: { files: QueuedFile[] }) => p.files.length > 0,
    isCancellable: ({ context }, id: string) =>
      context.uploads.some((u) => u.id === id && isCancellableUpload(u)),
    isUnsent: ({ context }, id: string) => context.uploads.some((u) => u.id === id && u.status === 'unsent'),
    hasUnsent: ({ context }) => context.uploads.some((u) => u.status === 'unsent'),
    hasNewRestored: ({ context }, uploads: UnsentUpload[]) =>
      uploads.some((r) => !context.uploads.some((u) => u.key === r.key)),
    isPanelClosed: ({ context }) => !context.panelOpen,
    isKnownUpload: ({ context }, id: string) => context.uploads.some((u) => u.id === id),
    isViewable: ({ context }, id: string) => context.uploads.some((u) => u.id === id && isViewableUpload(u)),
    isAnythingPolled: ({ context }) => context.uploads.some((u) => isPolled(u, context.liveCompanyId)),
    isAcceptedUnderLive: ({ context }, p: { id: string; status: UploadStatus }) =>
      p.status === 'processing' &&
      context.uploads.some(
        (u) => u.id === p.id && IN_FLIGHT.includes(u.status) && u.companyId === context.liveCompanyId,
      ),
    isTrackedDocument: ({ context }, p: { companyId: number; documentId: number }) =>
      context.uploads.some(
        (u) => u.status === 'processing' && u.companyId === p.companyId && u.documentId === p.documentId,
      ),
  },
}).createMachine({
  id: 'uploadQueue',
  context: { uploads: [], nextId: 1, panelOpen: false, unseen: false, liveCompanyId: null },
  type: 'parallel',
  invoke: [
    { id: 'session', src: 'sessionEvents' },
    { id: 'network', src: 'network' },
    { id: 'unsent', src: 'unsent' },
  ],
  states: {
    uploads: {
      description: 'The list: one child per file, mirrored from their reports.',
      on: {
        'uploads.add': [
          {
            guard: { type: 'canQueue', params: ({ event }) => event },
            actions: [
              enqueueActions(({ context, event, enqueue }) => {
                const files = event.files.map(
                  (f): UnsentUpload => ({
                    ...f,
                    key: newUploadKey(),
                    companyId: event.companyId!,
                    createdAt: event.at,
                  }),
                )
                enqueue({ type: 'keepUnsent', params: { uploads: files } })
                enqueue.assign(({ spawn, self }) => ({
                  ...listed(files, 'pending', context, (id, input) =>
                    spawn('uploadItem', { id, input: { ...input, parent: self } }),
                  ),
                  panelOpen: true,
                  unseen: false,
                }))
                // No "started" toast: the panel opens on the new files and says it.
              }),
              'startNext',
              'markStarted',
            ],
          },
          {
            guard: { type: 'hasFiles', params: ({ event }) => event },
            actions: { type: 'notify', params: { notice: 'selectCompanyFirst' } },
            description: 'No company selected: nothing is queued.',
          },
          {
            actions: { type: 'notify', params: { notice: 'noFiles' } },
            description: "'Please select at least one file to upload'",
          },
        ],
        'uploads.restored': {
          guard: { type: 'hasNewRestored', params: ({ event }) => event.uploads },
          actions: enqueueActions(({ context, event, enqueue }) => {
            const found = event.uploads.filter((r) => !context.uploads.some((u) => u.key === r.key))
            enqueue.assign(({ spawn, self }) => ({
              ...listed(found, 'unsent', context, (id, input) =>
                spawn('uploadItem', { id, input: { ...input, parent: self } }),
              ),
              panelOpen: true,
            }))
          }),
          description: 'The files a reload left unsent are listed; nothing is sent until asked.',
        },
        'upload.resend': {
          guard: { type: 'isUnsent', params: ({ event }) => event.id },
          actions: [
            enqueueActions(({ context, event, enqueue }) => {
              // Its child waits in `unsent` for the `upload.start` that `startNext` sends.
              const entry = context.uploads.find((u) => u.id === event.id)!
              enqueue.assign({
                uploads: context.uploads.map((u) => (u === entry ? { ...u, status: 'pending' as const } : u)),
              })
            }),
            'startNext',
            'markStarted',
          ],
          description: 'Listed as pending, and started when a slot is free.',
        },
        'uploads.resendAll': {
          guard: 'hasUnsent',
          actions: [
            assign({
              uploads: ({ context }) =>
                context.uploads.map((u) =>
                  u.status === 'unsent' ? { ...u, status: 'pending' as const } : u,
                ),
            }),
            'startNext',
            'markStarted',
          ],
          description: 'Every unsent file listed as pending, in order; each starts when a slot is free.',
        },
        'network.online': {
          actions: enqueueActions(({ context, enqueue }) => {
            for (const u of context.uploads)
              if (u.status === 'waiting') enqueue.sendTo(u.ref, { type: 'network.online' })
            enqueue.assign({
              uploads: context.uploads.map((u) =>
                u.status === 'waiting' ? { ...u, status: 'uploading' as const } : u,
              ),
            })
          }),
          description: 'The uploads waiting for the network are sent again at once, in the slots they kept.',
        },
        'network.offline': {
          actions: enqueueActions(({ context, enqueue }) => {
            for (const u of context.uploads)
              if (u.status === 'uploading' || u.status === 'in_progress')
                enqueue.sendTo(u.ref, { type: 'network.offline' })
            enqueue.assign({
              uploads: context.uploads.map((u) =>
                u.status === 'uploading' || u.status === 'in_progress'
                  ? { ...u, status: 'waiting' as const }
                  : u,
              ),
            })
          }),
          description: 'What is sending stops and waits for the network (a stalled request would hang).',
        },
        'upload.changed': {
          guard: { type: 'isKnownUpload', params: ({ event }) => event.id },
          actions: [
            enqueueActions(({ context, event, enqueue }) => {
              const { id, status, documentId, error, completedAt, answered, fileSize } = event
              enqueue.assign({
                uploads: context.uploads.map((u) =>
                  u.id === id
                    ? { ...u, status, documentId, error, completedAt, fileSize: fileSize ?? u.fileSize }
                    : u,
                ),
                unseen: context.unseen || (!context.panelOpen && ENDED.includes(status)),
              })
              const entry = context.uploads.find((u) => u.id === id)
              if (answered && entry)
                enqueue({ type: 'announceAccepted', params: { companyId: entry.companyId, documentId } })
              if (answered && !context.panelOpen && context.uploads.length < SEND_TOAST_LIMIT)
                enqueue({ type: 'notify', params: { notice: 'sent', fileName: entry?.fileName ?? '' } })
              if (ENDED.includes(status)) enqueue('announceSettled')
              if (entry && SETTLED.includes(status) && !SETTLED.includes(entry.status))
                enqueue({ type: 'forgetUnsent', params: { keys: [entry.key] } })
            }),
            'startNext',
            'markStarted',
          ],
          description: 'A child changed status: mirrored; a freed slot starts the next pending upload.',
        },
        'upload.cancel': {
          guard: { type: 'isCancellable', params: ({ event }) => event.id },
          actions: enqueueActions(({ context, event, enqueue }) => {
            const entry = context.uploads.find((u) => u.id === event.id)
            if (entry) enqueue.sendTo(entry.ref, { type: 'upload.cancel' })
          }),
        },
        'upload.notice': {
          guard: 'isPanelClosed',
          actions: {
            type: 'notify',
            params: ({ event }) => ({ notice: event.notice, fileName: event.fileName, reason: event.reason }),
          },
          description: 'An upload processed or failed: a toast, unless the open panel shows it already.',
        },
        'upload.view': {
          guard: { type: 'isViewable', params: ({ event }) => event.id },
          actions: emit(({ context, event }) => {
            const entry = context.uploads.find((u) => u.id === event.id)!
            return {
              type: 'uploads.view' as const,
              companyId: entry.companyId,
              kind: entry.documentType === 'expense' ? ('expense' as const) : ('invoice' as const),
              id: entry.documentId!,
            }
          }),
          description: 'A processed invoice or expense: the dashboard opens its details.',
        },
        'uploads.clearCompleted': {
          actions: [
            enqueueActions(({ context, enqueue }) => {
              for (const u of context.uploads)
                if (CLEARED_BY_CLEAR_COMPLETED.includes(u.status)) enqueue.stopChild(u.ref)
              enqueue.assign({
                uploads: context.uploads.filter((u) => !CLEARED_BY_CLEAR_COMPLETED.includes(u.status)),
                unseen: false,
              })
            }),
            'startNext',
            'markStarted',
          ],
          description: 'Success, error, cancelled and in_progress go; pending and uploading stay.',
        },
        'uploads.clearAll': {
          actions: enqueueActions(({ context, enqueue }) => {
            for (const u of context.uploads) enqueue.stopChild(u.ref)
            const unsettled = context.uploads.filter((u) => !SETTLED.includes(u.status))
            if (unsettled.length)
              enqueue({ type: 'forgetUnsent', params: { keys: unsettled.map((u) => u.key) } })
            enqueue.assign({ uploads: [], unseen: false })
          }),
          description:
            'Empties the list, aborting what still sends and dropping the kept files; the `session` actor sends it on sign-out.',
        },
        'panel.toggle': {
          actions: assign(({ context }) => ({
            panelOpen: !context.panelOpen,
            unseen: context.panelOpen ? context.unseen : false,
          })),
        },
      },
    },
    polling: {
      initial: 'idle',
      on: {
        // A change before the stream opened was not told: the statuses are asked once (if any).
        'live.up': {
          target: '.checking',
          actions: assign({ liveCompanyId: ({ event }) => event.companyId }),
        },
        // The company's uploads are polled again.
        'live.down': {
          actions: assign({
            liveCompanyId: ({ context, event }) =>
              context.liveCompanyId === event.companyId ? null : context.liveCompanyId,
          }),
        },
        // Accepted while its company is live: asked once at once, for a change told before the answer.
        'upload.changed': {
          guard: { type: 'isAcceptedUnderLive', params: ({ event }) => event },
          target: '.checking',
        },
        // A processing upload's document changed: the statuses are asked at once.
        'document.changed': {
          guard: { type: 'isTrackedDocument', params: ({ event }) => event },
          target: '.checking',
        },
      },
      states: {
        idle: {
          description: 'Nothing is processing: no status request.',
          always: { guard: 'isAnythingPolled', target: 'waiting' },
        },
        waiting: {
          always: { guard: not('isAnythingPolled'), target: 'idle' },
          after: { [POLL_INTERVAL_MS]: 'checking' },
        },
        checking: {
          tags: ['polling'],
          invoke: {
            id: 'checkStatus',
            src: 'checkStatus',
            input: ({ context }) => ({ requests: statusRequests(context.uploads) }),
            onDone: {
              target: 'waiting',
              actions: enqueueActions(({ context, event, enqueue }) => {
                for (const answer of event.output)
                  for (const s of answer.statuses) {
                    const entry = context.uploads.find(
                      (u) =>
                        u.status === 'processing' &&
                        u.documentType === answer.kind &&
                        u.companyId === answer.companyId &&
                        u.documentId === s.id,
                    )
                    if (entry)
                      enqueue.sendTo(entry.ref, {
                        type: 'upload.status',
                        status: s.status,
                        errors: s.errors,
                        ...(s.messages ? { messages: s.messages } : {}),
                      })
                  }
              }),
            },
            onError: {
              target: 'waiting',
              actions: { type: 'logPollError', params: ({ event }) => ({ error: event.error }) },
              description: 'Polling errors are only logged; the items stay processing.',
            },
          },
        },
      },
    },
  },
})

type UploadQueueMachine = typeof uploadQueueMachine
export type UploadQueueActor = ActorRefFrom<UploadQueueMachine>

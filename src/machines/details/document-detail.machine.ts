/**
 * The invoice / expense detail dialog: `loading` the record, then
 * `attachments` (the original file for the preview and the quality data, side by side; either may
 * fail while the fields still show), then `ready`. Failed documents offer resubmit with a new PDF
 * and upload to the document store under a category; any loaded one offers reupload as the other
 * kind. Each action queues the upload, deletes the original (`working`), then closes. Any loaded
 * one can be read again (`reprocessing`: its original queued for the engine, the user's corrections
 * kept; a document a user confirmed asks first, `confirmingReprocess`, since its confirmation goes),
 * which closes the dialog too: the list shows it being processed.
 */
import { and, assign, enqueueActions, not, setup } from 'xstate'
import {
  DOCUMENT_CATEGORIES,
  type DocumentCategory,
  FINANCIAL_KIND,
  type FileType,
  type FinancialDocument,
  type FinancialKind,
  isFailedLogStatus,
  isFileOfType,
  otherFinancialKind,
  PDF,
  type QualityData,
  type QueuedFile,
  queuedAs,
} from '../../../contract'
import { toFailure } from '../shared/failure'
import { promisePlaceholder } from '../shared/placeholder'
import { RECEIPT_PHOTO_TYPES } from '../uploads/upload-item.machine'

export const EXPENSE_PDF_ONLY = FINANCIAL_KIND.expense.pdfOnly
export const INVOICE_PDF_ONLY = FINANCIAL_KIND.invoice.pdfOnly

export type DetailInput = { kind: FinancialKind; id: number; companyId: number }

type DetailAction =
  | { type: 'resubmit'; file: QueuedFile }
  | { type: 'reupload'; file: QueuedFile }
  | { type: 'store'; file: QueuedFile }

type DocumentDetailNotice =
  | 'loadFailed'
  | 'previewFailed'
  | 'qualityFailed'
  | 'resubmitted'
  | 'resubmitFailed'
  | 'reuploaded'
  | 'reuploadFailed'
  | 'stored'
  | 'storeFailed'
  | 'missingReuploadData'
  | 'missingStoreData'
  | 'reprocessed'
  | 'reprocessFailed'

export type DetailNoticeParams = {
  notice: DocumentDetailNotice
  kind: FinancialKind
  message?: string
  category?: string
  /** The server refused because the document is being read already (409). */
  busy?: boolean
}

export type DocumentDetailContext = DetailInput & {
  document: FinancialDocument | null
  /** The server's message when the record could not be loaded ('' → the view's fallback). */
  loadError: string | null
  /** The original file (preview, reupload, document store). */
  original: Blob | null
  /**
   * Object URL of `original`, created and revoked by the injected actions: revoked when replaced and
   * when the dialog closes through the machine. An actor stopped without closing (the dialog
   * unmounted) leaves it to its host (`releasePreview` of the detail machines).
   */
  previewUrl: string | null
  previewError: string | null
  quality: QualityData | null
  category: DocumentCategory
  /** Why the chosen file was refused. */
  fileError: string | null
  action: DetailAction | null
  /** Set when the dialog closes to move on: the host opens the neighbour in that direction. */
  step: 1 | -1 | null
}

export type DocumentDetailEvent =
  | { type: 'resubmit.select'; file: File }
  | { type: 'category.select'; category: DocumentCategory }
  | { type: 'store.upload' }
  | { type: 'reupload.start' }
  | { type: 'reprocess.start' }
  /** A confirmed document is read again only once the user agrees that its confirmation goes. */
  | { type: 'reprocess.confirm' }
  | { type: 'reprocess.cancel' }
  | { type: 'dialog.close' }
  /**
   * A correction was saved in the dialog's fields (the re-checked record, the PATCH answer, and its
   * findings), or the record was confirmed as it is (the record only: the findings stay).
   */
  | { type: 'document.saved'; document: FinancialDocument; quality?: QualityData | undefined }
  /** The review moves on: the dialog closes and its host opens the next (1) or previous (-1) document. */
  | { type: 'document.step'; direction: 1 | -1 }

type SavedEvent = Extract<DocumentDetailEvent, { type: 'document.saved' }>

const otherKind = otherFinancialKind

/** Whether the document failed: it then offers resubmit and the document store. */
export const isFailedStatus = isFailedLogStatus

export const originalName = (c: Pick<DocumentDetailContext, 'document' | 'kind' | 'id'>) =>
  c.document?.original_file_name || c.document?.original_name || `${c.kind}-${c.id}.pdf`

const originalFile = (c: DocumentDetailContext) =>
  new File([c.original as Blob], originalName(c), { type: c.original?.type ?? '' })

/**
 * What a failed document is resubmitted with, and what an original must be to become this kind: a
 * PDF; for an expense, a photo of the receipt too (the upload queue makes it a one-page PDF).
 */
export const RESUBMIT_TYPES: Record<FinancialKind, readonly FileType[]> = {
  invoice: [PDF],
  expense: [PDF, ...RECEIPT_PHOTO_TYPES],
}

/** Whether the original is of these types: the server answers its type; the name decides when it did not. */
const originalIsOf = (c: DocumentDetailContext, types: readonly FileType[]) =>
  !!c.original && isFileOfType(types, { name: c.original.type ? '' : originalName(c), type: c.original.type })

type Scope = { kind: FinancialKind; id: number; companyId: number }

/** The input of every call about this document: its kind, id and company. */
const scopeOf = ({ context }: { context: Scope }): Scope => ({
  kind: context.kind,
  id: context.id,
  companyId: context.companyId,
})

/** The notices of a resubmit, a move to the document store and a reupload as the other kind. */
const actionNotices = {
  resubmit: { done: 'resubmitted', failed: 'resubmitFailed' },
  store: { done: 'stored', failed: 'storeFailed' },
  reupload: { done: 'reuploaded', failed: 'reuploadFailed' },
} as const

/** `notify` params of a notice that names only the document's kind. */
const kindNotice =
  <TNotice extends string>(notice: TNotice) =>
  ({ context }: { context: { kind: FinancialKind } }) => ({ notice, kind: context.kind })

/** A saved correction: its record and findings are taken, then the host is told its new status. */
const savedActions = [
  { type: 'applySaved', params: ({ event }: { event: SavedEvent }) => event },
  {
    type: 'announceSaved',
    params: ({ event }: { event: SavedEvent }) => ({ status: event.document.status }),
  },
] as const

export const documentDetailMachine = setup({
  types: {} as { context: DocumentDetailContext; events: DocumentDetailEvent; input: DetailInput },
  actors: {
    loadDocument: promisePlaceholder<FinancialDocument, Scope>('loadDocument'),
    loadOriginal: promisePlaceholder<Blob, Scope>('loadOriginal'),
    loadQuality: promisePlaceholder<QualityData, Scope>('loadQuality'),
    deleteDocument: promisePlaceholder<void, Scope>('deleteDocument'),
    reprocessDocument: promisePlaceholder<unknown, Scope>('reprocessDocument'),
  },
  actions: {
    notify: (_, _params: DetailNoticeParams) => {},
    /** Hands the file to the upload queue. */
    queueUpload: (_, _params: { file: QueuedFile; companyId: number }) => {},
    /** Sets `previewUrl` for `original` (the composition creates an object URL). */
    createPreviewUrl: assign((_, _params: { blob: Blob }) => ({ previewUrl: null as string | null })),
    revokePreviewUrl: (_, _params: { url: string | null }) => {},
    /** Takes a saved correction's record and findings: the status badge, the actions and the findings follow it. */
    applySaved: assign(
      ({ context }, params: { document: FinancialDocument; quality?: QualityData | undefined }) => ({
        document: params.document,
        quality: params.quality ?? context.quality,
      }),
    ),
    /** A correction changed the document on the server: the host's list (its row's status) follows. */
    announceSaved: (_, _params: { status: string }) => {},
    /** The dialog is done: its host closes it, or opens the neighbour (`step`). */
    close: (_, _params: { step: 1 | -1 | null }) => {},
  },
  guards: {
    isFailedDocument: ({ context }) => !!context.document && isFailedStatus(context.document.status),
    /** Resubmit takes a PDF only, for a failed document. */
    canResubmitWith: ({ context }, file: File) =>
      !!context.document &&
      isFailedStatus(context.document.status) &&
      isFileOfType(RESUBMIT_TYPES[context.kind], file),
    hasOriginal: ({ context }) => !!context.document && context.companyId > 0 && !!context.original,
    /** An expense is a PDF, which an invoice's photo becomes on the way; an XML e-invoice cannot. */
    /** A user confirmed or corrected it since it was last processed: reading it again clears that. */
    wasReviewed: ({ context }) => !!context.document?.reviewed_at,
    canBecomeOtherKind: ({ context }) =>
      context.kind === 'expense' || originalIsOf(context, RESUBMIT_TYPES.expense),
  },
}).createMachine({
  id: 'documentDetail',
  context: ({ input }) => ({
    ...input,
    document: null,
    loadError: null,
    original: null,
    previewUrl: null,
    previewError: null,
    quality: null,
    category: DOCUMENT_CATEGORIES[0],
    fileError: null,
    action: null,
    step: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadDocument',
        src: 'loadDocument',
        input: scopeOf,
        onDone: { target: 'attachments', actions: assign({ document: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: [
            assign({
              loadError: ({ event }) => {
                const e = event.error as { message?: unknown } | null
                return typeof e?.message === 'string' ? e.message : ''
              },
            }),
            {
              type: 'notify',
              params: ({ context }) => ({
                notice: 'loadFailed' as const,
                kind: context.kind,
                message: context.loadError ?? '',
              }),
            },
          ],
        },
      },
      on: { 'dialog.close': 'closed' },
    },
    failed: {
      description: 'The record could not be loaded: its message in place of the content.',
      on: { 'dialog.close': 'closed' },
    },
    attachments: {
      description: 'The fields show; the preview and the quality data arrive side by side.',
      type: 'parallel',
      onDone: 'ready',
      on: {
        'dialog.close': 'closed',
        'document.step': {
          target: 'closed',
          description: 'J / K or "Save and next": the host opens the neighbour.',
          actions: assign({ step: ({ event }) => event.direction }),
        },
        'document.saved': {
          description:
            'A saved correction: the dialog shows the status the server answered, the host list follows.',
          actions: savedActions,
        },
      },
      states: {
        preview: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadOriginal',
                src: 'loadOriginal',
                input: scopeOf,
                onDone: {
                  target: 'shown',
                  actions: [
                    // A URL already there (none today: the original loads once) is replaced: released first.
                    enqueueActions(({ context, enqueue }) => {
                      if (context.previewUrl)
                        enqueue({ type: 'revokePreviewUrl', params: { url: context.previewUrl } })
                    }),
                    assign({ original: ({ event }) => event.output }),
                    { type: 'createPreviewUrl', params: ({ event }) => ({ blob: event.output }) },
                  ],
                },
                onError: {
                  target: 'failed',
                  actions: [
                    assign({ previewError: ({ event }) => toFailure(event.error).message }),
                    { type: 'notify', params: kindNotice('previewFailed') },
                  ],
                },
              },
            },
            shown: { type: 'final' },
            failed: { type: 'final' },
          },
        },
        quality: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadQuality',
                src: 'loadQuality',
                input: scopeOf,
                onDone: { target: 'loaded', actions: assign({ quality: ({ event }) => event.output }) },
                onError: {
                  target: 'failed',
                  actions: { type: 'notify', params: kindNotice('qualityFailed') },
                },
              },
              on: {
                // It preempts the parallel state's own `document.saved`: it takes the record too.
                'document.saved': {
                  target: 'loaded',
                  description:
                    'The saved correction brings newer findings than the load still running (its answer is dropped).',
                  actions: savedActions,
                },
              },
            },
            loaded: { type: 'final' },
            failed: { type: 'final' },
          },
        },
      },
    },
    ready: {
      initial: 'idle',
      on: {
        'document.saved': {
          description:
            'A saved correction: the dialog shows the status the server answered, the host list follows.',
          actions: savedActions,
        },
      },
      states: {
        idle: {
          on: {
            'dialog.close': '#documentDetail.closed',
            'document.step': {
              target: '#documentDetail.closed',
              description: 'J / K or "Save and next": the host opens the neighbour.',
              actions: assign({ step: ({ event }) => event.direction }),
            },
            'category.select': { actions: assign({ category: ({ event }) => event.category }) },
            'resubmit.select': [
              {
                guard: { type: 'canResubmitWith', params: ({ event }) => event.file },
                target: 'working',
                actions: assign({
                  fileError: null,
                  action: ({ context, event }) => ({
                    type: 'resubmit' as const,
                    file: queuedAs(context.kind, event.file),
                  }),
                }),
              },
              {
                guard: 'isFailedDocument',
                actions: assign({
                  fileError: ({ context }) =>
                    context.kind === 'expense' ? EXPENSE_PDF_ONLY : INVOICE_PDF_ONLY,
                }),
              },
            ],
            'store.upload': [
              {
                guard: and(['isFailedDocument', 'hasOriginal']),
                target: 'working',
                actions: assign({
                  fileError: null,
                  action: ({ context }) => ({
                    type: 'store' as const,
                    file: {
                      file: originalFile(context),
                      documentType: 'document',
                      category: context.category,
                    },
                  }),
                }),
              },
              {
                guard: 'isFailedDocument',
                actions: { type: 'notify', params: kindNotice('missingStoreData') },
              },
            ],
            'reprocess.start': [
              {
                guard: 'wasReviewed',
                target: 'confirmingReprocess',
                actions: assign({ fileError: null, action: null }),
                description: 'A confirmed document asks first: its confirmation would go.',
              },
              {
                target: 'reprocessing',
                description: 'Read again from the original; what a user corrected stays.',
                actions: assign({ fileError: null, action: null }),
              },
            ],
            'reupload.start': [
              {
                guard: and(['hasOriginal', 'canBecomeOtherKind']),
                target: 'working',
                actions: assign({
                  fileError: null,
                  action: ({ context }) => ({
                    type: 'reupload' as const,
                    file: queuedAs(otherKind(context.kind), originalFile(context)),
                  }),
                }),
              },
              {
                guard: 'hasOriginal',
                description: 'An XML e-invoice cannot become an expense (a PDF, or a photo made one).',
                actions: assign({ fileError: EXPENSE_PDF_ONLY }),
              },
              {
                guard: not('hasOriginal'),
                actions: { type: 'notify', params: kindNotice('missingReuploadData') },
              },
            ],
          },
        },
        confirmingReprocess: {
          description:
            'Asks before reading a confirmed document again: the values the engine read may change, its confirmation goes, corrections stay.',
          on: {
            'reprocess.confirm': 'reprocessing',
            'reprocess.cancel': 'idle',
          },
        },
        reprocessing: {
          tags: ['busy'],
          invoke: {
            id: 'reprocessDocument',
            src: 'reprocessDocument',
            input: scopeOf,
            onDone: {
              target: '#documentDetail.closed',
              actions: { type: 'notify', params: kindNotice('reprocessed') },
            },
            onError: {
              target: 'idle',
              actions: {
                type: 'notify',
                params: ({ context, event }) => {
                  const failure = toFailure(event.error)
                  return {
                    notice: 'reprocessFailed' as const,
                    kind: context.kind,
                    message: failure.message,
                    busy: failure.status === 409,
                  }
                },
              },
            },
          },
        },
        working: {
          description: 'The upload is queued, then the original record is deleted.',
          tags: ['busy'],
          entry: {
            type: 'queueUpload',
            params: ({ context }) => ({ file: context.action!.file, companyId: context.companyId }),
          },
          invoke: {
            id: 'deleteDocument',
            src: 'deleteDocument',
            input: scopeOf,
            onDone: {
              target: '#documentDetail.closed',
              actions: {
                type: 'notify',
                params: ({ context }) => ({
                  notice: actionNotices[context.action?.type ?? 'reupload'].done,
                  kind: context.kind,
                  ...(context.action?.type === 'store' ? { category: context.action.file.category } : {}),
                }),
              },
            },
            onError: {
              target: 'idle',
              actions: {
                type: 'notify',
                params: ({ context }) => ({
                  notice: actionNotices[context.action?.type ?? 'reupload'].failed,
                  kind: context.kind,
                }),
              },
            },
          },
        },
      },
    },
    closed: {
      type: 'final',
      entry: [
        { type: 'revokePreviewUrl', params: ({ context }) => ({ url: context.previewUrl }) },
        { type: 'close', params: ({ context }) => ({ step: context.step }) },
      ],
    },
  },
})

export type DocumentDetailMachine = typeof documentDetailMachine

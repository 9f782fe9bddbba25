/**
 * The upload dialogs: `closed`, or open as the invoice/expense dialog (tabs
 * invoices | expenses) or the document dialog (one tab per category). Files are added under the
 * active tab; expenses take PDF, or a JPEG/PNG photo of the receipt (the upload makes it a PDF),
 * invoices PDF/JPEG/PNG, documents anything. Submitting
 * hands the selection to the queue (`submit`) and closes; with nothing selected it says so. Files
 * dropped on the dashboard open the invoice/expense dialog with them added under Invoices.
 */
import { assign, raise, setup } from 'xstate'
import {
  contractMessages,
  DOCUMENT_CATEGORIES,
  type DocumentCategory,
  FINANCIAL_KIND,
  FINANCIAL_KINDS,
  isFileOfType,
  type QueuedFile,
  queuedAs,
} from '../../../contract'
import { RECEIPT_PHOTO_TYPES } from './upload-item.machine'

export { DOCUMENT_CATEGORIES }

export const INVOICE_TABS = ['invoices', 'expenses'] as const
export type UploadTab = (typeof INVOICE_TABS)[number] | DocumentCategory

export const EXPENSE_PDF_ONLY = FINANCIAL_KIND.expense.refusal
export const INVOICE_TYPES_ONLY = FINANCIAL_KIND.invoice.refusal
export const NO_FILES_SELECTED = contractMessages.noFilesSelected

const isInvoiceFile = (file: Pick<File, 'name' | 'type'>) =>
  isFileOfType(FINANCIAL_KIND.invoice.accepted, file)
/** An expense is a PDF, or a photo of the receipt that the upload makes into one. */
export const EXPENSE_FILE_TYPES = [...FINANCIAL_KIND.expense.accepted, ...RECEIPT_PHOTO_TYPES]
const isExpenseFile = (file: Pick<File, 'name' | 'type'>) => isFileOfType(EXPENSE_FILE_TYPES, file)

/** Why a file cannot go under this tab, or null. */
export function refusalFor(tab: UploadTab, file: Pick<File, 'name' | 'type'>): string | null {
  if (tab === 'expenses') return isExpenseFile(file) ? null : EXPENSE_PDF_ONLY
  if (tab === 'invoices') return isInvoiceFile(file) ? null : INVOICE_TYPES_ONLY
  return null
}

/** What the queue receives for a file selected under a tab: the tab decides the document kind and category it is sent as. */
function toQueuedFile(tab: UploadTab, file: File): QueuedFile {
  const kind = FINANCIAL_KINDS.find((k) => FINANCIAL_KIND[k].plural === tab)
  return kind ? queuedAs(kind, file) : { file, documentType: 'document', category: tab }
}

type SelectedFile = { tab: UploadTab; file: File }

export type UploadDialogEvent =
  | { type: 'dialog.openInvoice' }
  | { type: 'dialog.openDocument' }
  | { type: 'files.drop'; files: File[] }
  | { type: 'dialog.close' }
  | { type: 'tab.select'; tab: UploadTab }
  | { type: 'files.add'; files: File[] }
  | { type: 'file.remove'; index: number }
  | { type: 'dialog.submit' }

export type UploadDialogContext = { tab: UploadTab; selected: SelectedFile[]; error: string | null }

const sameFile = (a: File, b: File) =>
  a === b || (a.name === b.name && a.size === b.size && a.lastModified === b.lastModified)

const fresh = (tab: UploadTab): UploadDialogContext => ({ tab, selected: [], error: null })

export const uploadDialogMachine = setup({
  types: { context: {} as UploadDialogContext, events: {} as UploadDialogEvent },
  actions: {
    submit: (_, _params: { files: QueuedFile[] }) => {},
    selectTab: assign((_, tab: UploadTab) => ({ tab, error: null })),
  },
  guards: {
    areAccepted: ({ context }, files: File[]) => files.every((f) => refusalFor(context.tab, f) === null),
    hasSelection: ({ context }) => context.selected.length > 0,
    isInvoiceTab: (_, tab: UploadTab) => (INVOICE_TABS as readonly string[]).includes(tab),
    isDocumentTab: (_, tab: UploadTab) => (DOCUMENT_CATEGORIES as readonly string[]).includes(tab),
  },
}).createMachine({
  id: 'uploadDialog',
  context: fresh('invoices'),
  initial: 'closed',
  states: {
    closed: {
      on: {
        'dialog.openInvoice': { target: 'open.invoice', actions: assign(() => fresh('invoices')) },
        'dialog.openDocument': { target: 'open.document', actions: assign(() => fresh('Administration')) },
        'files.drop': {
          target: 'open.invoice',
          description: 'Files dropped anywhere on the dashboard: the invoice dialog opens with them added.',
          actions: [
            assign(() => fresh('invoices')),
            raise(({ event }) => ({ type: 'files.add' as const, files: event.files })),
          ],
        },
      },
    },
    open: {
      tags: ['open'],
      on: {
        'dialog.close': 'closed',
        'files.add': [
          {
            guard: { type: 'areAccepted', params: ({ event }) => event.files },
            actions: assign({
              // The same file picked again under the same tab is selected once.
              selected: ({ context, event }) => [
                ...context.selected,
                ...event.files
                  .filter(
                    (file, i, all) =>
                      !context.selected.some((s) => s.tab === context.tab && sameFile(s.file, file)) &&
                      all.findIndex((other) => sameFile(other, file)) === i,
                  )
                  .map((file) => ({ tab: context.tab, file })),
              ],
              error: null,
            }),
          },
          {
            actions: assign({
              error: ({ context, event }) =>
                event.files.map((f) => refusalFor(context.tab, f)).find((r) => r !== null) ?? null,
            }),
            description: 'One refused file: nothing is added.',
          },
        ],
        'file.remove': {
          actions: assign({
            selected: ({ context, event }) => context.selected.filter((_, i) => i !== event.index),
            error: null,
          }),
        },
        'dialog.submit': [
          {
            guard: 'hasSelection',
            target: 'closed',
            actions: {
              type: 'submit',
              params: ({ context }) => ({ files: context.selected.map((s) => toQueuedFile(s.tab, s.file)) }),
            },
          },
          { actions: assign({ error: NO_FILES_SELECTED }) },
        ],
      },
      initial: 'invoice',
      states: {
        invoice: {
          on: {
            'tab.select': {
              guard: { type: 'isInvoiceTab', params: ({ event }) => event.tab },
              actions: { type: 'selectTab', params: ({ event }) => event.tab },
              description: 'Only the invoices and expenses tabs exist here.',
            },
          },
        },
        document: {
          on: {
            'tab.select': {
              guard: { type: 'isDocumentTab', params: ({ event }) => event.tab },
              actions: { type: 'selectTab', params: ({ event }) => event.tab },
              description: 'Only the nine categories exist here.',
            },
          },
        },
      },
    },
  },
})

export type UploadDialogMachine = typeof uploadDialogMachine

/**
 * Documents: the three kinds of upload, the nine categories of the document store, the file types
 * each kind accepts, and the status codes of documents and of the dashboard's rows. The server's
 * upload check and the browser's upload dialog, menu and detail dialog all read these; the kinds'
 * user-facing labels are Lingui messages in `document-labels.ts` (browser only).
 */
import { contractMessages } from './messages.ts'

/** What an upload is: an invoice, an expense (both read by extraction) or a stored document. */
export const DOCUMENT_KINDS = ['invoice', 'expense', 'document'] as const
export type DocumentKind = (typeof DOCUMENT_KINDS)[number]

/** The kinds whose fields are extracted and read back (details, quality, reupload as the other). */
export const FINANCIAL_KINDS = ['invoice', 'expense'] as const
export type FinancialKind = (typeof FINANCIAL_KINDS)[number]

/** The nine fixed categories of the document store (some names are French); the first is the default. */
export const DOCUMENT_CATEGORIES = [
  'Administration',
  'Assurances',
  'Contrats Banques',
  'Comptabilité',
  'RH',
  'Juridique',
  'Tax',
  'Justificatifs',
  'Autres',
] as const
export type DocumentCategory = (typeof DOCUMENT_CATEGORIES)[number]

/** A file type by its media type (what the server detects from the content) and its name's extensions. */
export type FileType = {
  readonly mime: 'application/pdf' | 'image/jpeg' | 'image/png' | 'image/gif' | 'application/xml'
  readonly extensions: readonly string[]
  /** Other media types browsers and mail clients give the same files (`text/xml` for XML). */
  readonly aliases?: readonly string[]
}
export const PDF: FileType = { mime: 'application/pdf', extensions: ['.pdf'] }
export const JPEG: FileType = { mime: 'image/jpeg', extensions: ['.jpg', '.jpeg'] }
export const PNG: FileType = { mime: 'image/png', extensions: ['.png'] }
export const GIF: FileType = { mime: 'image/gif', extensions: ['.gif'] }
/** A UBL or CII e-invoice: the server accepts it by its root element and namespace, not its name. */
const XML_EINVOICE: FileType = { mime: 'application/xml', extensions: ['.xml'], aliases: ['text/xml'] }

const mimesOf = (t: FileType) => [t.mime, ...(t.aliases ?? [])]

export type FinancialKindDefinition = {
  /** The plural that names the kind in API paths and in the upload dialog's tabs. */
  readonly plural: 'invoices' | 'expenses'
  /** The category an upload of this kind is filed under (the upload queue shows it). */
  readonly category: 'Invoices' | 'Expenses'
  /** The type of the kind's dashboard rows. */
  readonly logType: 'Invoice' | 'Expense'
  /** What an upload of this kind may be; anything else is refused (415 on the server). */
  readonly accepted: readonly FileType[]
  /** Why a file of another type is refused, on the server and in the upload dialog. */
  readonly refusal: string
  /** Why a replacement that is not a PDF is refused (resubmit, reupload as this kind). */
  readonly pdfOnly: string
}

/** The invoice and expense kinds: one definition for the server's check and the browser's dialogs. */
export const FINANCIAL_KIND: { readonly [K in FinancialKind]: FinancialKindDefinition } = {
  invoice: {
    plural: 'invoices',
    category: 'Invoices',
    logType: 'Invoice',
    accepted: [PDF, JPEG, PNG, XML_EINVOICE],
    refusal: contractMessages.invoiceTypeInvalid,
    pdfOnly: 'Only PDF files are supported for invoices',
  },
  expense: {
    plural: 'expenses',
    category: 'Expenses',
    logType: 'Expense',
    accepted: [PDF],
    refusal: contractMessages.expenseNotPdf,
    pdfOnly: contractMessages.expenseNotPdf,
  },
}

export const otherFinancialKind = (kind: FinancialKind): FinancialKind =>
  kind === 'invoice' ? 'expense' : 'invoice'

/** A file picker's `accept` attribute for these types: the extensions, then the media types. */
export const acceptAttribute = (types: readonly FileType[]): string =>
  [...types.flatMap((t) => t.extensions), ...types.flatMap(mimesOf)].join(',')

/**
 * Whether a file chosen in the browser is one of these types, by its reported media type or, when
 * the browser reports none or another, by its name's extension (the server checks the content).
 */
export const isFileOfType = (types: readonly FileType[], file: Pick<File, 'name' | 'type'>): boolean => {
  const name = file.name.toLowerCase()
  return types.some(
    (t) => mimesOf(t).some((m) => file.type.includes(m)) || t.extensions.some((e) => name.endsWith(e)),
  )
}

/** An upload handed to the upload queue: the file, its kind and the category it is filed under. */
export type QueuedFile = { file: File; documentType: DocumentKind; category: string }

/** The upload of a file as an invoice or expense (the category is the kind's). */
export const queuedAs = (kind: FinancialKind, file: File): QueuedFile => ({
  file,
  documentType: kind,
  category: FINANCIAL_KIND[kind].category,
})

/** A stored document's status: extraction runs while PROCESSING; general documents are COMPLETED at once. */
export const DOCUMENT_STATUSES = ['PROCESSING', 'COMPLETED', 'FAILED'] as const
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number]

/** The type of a dashboard row, one per kind. */
export const LOG_TYPES = ['Invoice', 'Expense', 'Document'] as const
export type LogType = (typeof LOG_TYPES)[number]

/** How a dashboard row's document arrived: uploaded in the app, or mailed to a scanner address. */
export const LOG_SOURCES = ['upload', 'email'] as const

/** A dashboard row's status (lower case; the API compares them case-insensitively). */
export const LOG_STATUSES = ['pending', 'processing', 'completed', 'failed', 'rejected'] as const
/** Rows still being worked on: counted together as pending, and not deletable. */
export const ACTIVE_LOG_STATUSES = ['pending', 'processing'] as const
/** Rows that ended in failure: counted together as failed; invoices and expenses offer resubmit. */
export const FAILED_LOG_STATUSES = ['failed', 'rejected'] as const

export const isActiveLogStatus = (status: string) =>
  (ACTIVE_LOG_STATUSES as readonly string[]).includes(status.toLowerCase())
export const isFailedLogStatus = (status: string) =>
  (FAILED_LOG_STATUSES as readonly string[]).includes(status.toLowerCase())

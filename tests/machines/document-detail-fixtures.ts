/** Records, files and failures of the detail dialog's tests. */
import type { FinancialDocument, QualityData } from '../../contract'

export const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
export const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output })
export const error = (id: string, e: unknown) => ({ type: `xstate.error.actor.${id}`, error: e })

export const record = (status: string): FinancialDocument => ({
  id: 7,
  status,
  original_name: 'facture-juillet.pdf',
  original_file_name: 'facture-juillet.pdf',
  invoice_number: 'FA-2026-0621',
  invoice_date: '2026-07-17',
  expense_date: '2026-07-17',
  business_name: 'Alpinea Expertise SARL',
  business_address: '12 rue des Alpes, Annecy',
  vat_number: 'FR87799693148',
  iban: 'FR7630006000011234567890189',
  currency: 'EUR',
  has_vat: true,
  total_vat_amount: 2084.7,
  total_charge_excluding_vat: 10423.5,
  total_invoice_including_vat: 12508.2,
})
export const failedRecord = record('FAILED')
export const completedRecord = record('COMPLETED')
/** What a saved correction or a confirmation answers: the record, now marked reviewed. */
const reviewed = (doc: FinancialDocument): FinancialDocument => ({
  ...doc,
  reviewed_at: '2026-12-06T09:30:00.000Z',
})

export const pdfBlob = new Blob(['%PDF-1.7'], { type: 'application/pdf' })
export const pngBlob = new Blob(['png'], { type: 'image/png' })
/** A bare XML e-invoice: it cannot become an expense. */
export const xmlBlob = new Blob(['<Invoice/>'], { type: 'application/xml' })
export const newPdf = new File(['%PDF-1.7 new'], 'corrected.pdf', { type: 'application/pdf' })
export const jpeg = new File(['jpg'], 'photo.jpg', { type: 'image/jpeg' })

export const quality: QualityData = {
  errors: [{ code: 'missing_total', messages: { en: 'The total is missing', fr: 'Le total manque' } }],
  warnings: [{ code: 'duplicate', messages: { en: 'Possible duplicate', fr: 'Doublon possible' } }],
}

export const noFindings: QualityData = { errors: [], warnings: [] }

/** The status of the last correction saved in a test's log (`saved:COMPLETED`), or null. */
export const lastSaved = (log: readonly string[]) =>
  log.findLast((e) => e.startsWith('saved:'))?.slice('saved:'.length) ?? null

export const PDF_FAILURE = 'Failed to fetch PDF: 404 Not Found'

type Ctx = {
  document: { status: string; reviewed_at?: string | null } | null
  original: Blob | null
  previewError: string | null
  quality: unknown
}
/** What makes two dialog states different for the graph. */
export const detailKey = (c: unknown) => {
  const ctx = c as Ctx
  return {
    status: ctx.document?.status ?? null,
    reviewed: !!ctx.document?.reviewed_at,
    original: ctx.original?.type ?? null,
    previewFailed: ctx.previewError !== null,
    quality: ctx.quality !== null,
  }
}

export const detailEvents = (originals: Blob[]) => ({
  'resubmit.select': [
    { type: 'resubmit.select', file: newPdf },
    { type: 'resubmit.select', file: jpeg },
  ],
  'category.select': [{ type: 'category.select', category: 'Comptabilité' }],
  'xstate.done.actor.loadDocument': [
    done('loadDocument', failedRecord),
    done('loadDocument', completedRecord),
  ],
  'xstate.error.actor.loadDocument': [error('loadDocument', failure(404, 'Document not found'))],
  'xstate.done.actor.loadOriginal': originals.map((b) => done('loadOriginal', b)),
  'xstate.error.actor.loadOriginal': [error('loadOriginal', failure(404, PDF_FAILURE))],
  'xstate.done.actor.loadQuality': [done('loadQuality', quality)],
  'xstate.error.actor.loadQuality': [error('loadQuality', failure(500, 'Request failed'))],
  // A correction saved in the fields: the record turned complete, or its totals now fail.
  'document.saved': [
    { type: 'document.saved', document: reviewed(completedRecord), quality: noFindings },
    { type: 'document.saved', document: reviewed(failedRecord), quality },
  ],
  'xstate.done.actor.deleteDocument': [done('deleteDocument', undefined)],
  'xstate.error.actor.deleteDocument': [error('deleteDocument', failure(500, 'Request failed'))],
  'reprocess.confirm': [{ type: 'reprocess.confirm' }],
  'reprocess.cancel': [{ type: 'reprocess.cancel' }],
  'xstate.done.actor.reprocessDocument': [done('reprocessDocument', { id: 7, status: 'PROCESSING' })],
  'xstate.error.actor.reprocessDocument': [
    error('reprocessDocument', failure(409, 'The document is being processed')),
  ],
})

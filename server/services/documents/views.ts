/** Rows to the JSON shapes of the specification's entities (snake_case, as the client reads them). */
import type { DocumentRow } from '../../db/schema.ts'
import type { DashboardRow } from './lifecycle/document-service.ts'
import { type Lang, qualityMessage } from './quality.ts'

const extracted = (row: DocumentRow) => ({
  invoice_number: row.invoiceNumber,
  business_name: row.businessName,
  business_address: row.businessAddress,
  vat_number: row.vatNumber,
  iban: row.iban,
  currency: row.currency,
  has_vat: row.hasVat,
  total_vat_amount: row.totalVatAmount,
  total_charge_excluding_vat: row.totalChargeExcludingVat,
  total_invoice_including_vat: row.totalInvoiceIncludingVat,
  /** In the review queue; when a user last confirmed or corrected it since it was processed. */
  needs_review: row.needsReview,
  reviewed_at: row.reviewedAt?.toISOString() ?? null,
})

const common = (row: DocumentRow) => ({
  id: row.id,
  company_id: row.companyId,
  status: row.status,
  original_name: row.originalName,
  original_file_name: row.originalName,
  content_type: row.contentType,
  size: row.sizeBytes,
  created_at: row.createdAt.toISOString(),
  processed_at: row.processedAt?.toISOString() ?? null,
  /** Where each field's value came from: text, ocr, xml, memory (supplier memory) or user (a correction). */
  field_sources: row.fieldSources,
  /** Where each field read from the page was found and how sure the engine is: page, box, confidence, alternatives. */
  field_evidence: row.fieldEvidence,
})

export function toInvoice(row: DocumentRow) {
  return {
    ...common(row),
    ...extracted(row),
    invoice_date: row.documentDate,
    due_date: row.dueDate,
    einvoice: row.einvoice,
  }
}

export function toExpense(row: DocumentRow) {
  return { ...common(row), ...extracted(row), expense_date: row.documentDate }
}

export function toDocument(row: DocumentRow) {
  return {
    ...common(row),
    name: row.originalName,
    document_type: row.kind,
    category: row.category,
  }
}

export function toStatus(row: DocumentRow, lang: Lang) {
  return {
    id: row.id,
    status: row.status,
    errors: row.errors,
    messages: row.errors.map((code) => qualityMessage(code, lang, row.qualityDetails[code])),
  }
}

export function toQualityData(row: DocumentRow, lang: Lang) {
  const describe = (code: string) => {
    const detail = row.qualityDetails[code]
    return {
      code,
      message: qualityMessage(code, lang, detail),
      messages: { en: qualityMessage(code, 'en', detail), fr: qualityMessage(code, 'fr', detail) },
    }
  }
  return {
    ...(row.kind === 'invoice' ? { invoice_id: row.id } : { expense_id: row.id }),
    status: row.status,
    errors: row.errors,
    warnings: row.warnings,
    details: { errors: row.errors.map(describe), warnings: row.warnings.map(describe) },
    failure_reason: row.failureReason,
  }
}

export function toLog(row: DashboardRow) {
  const date = row.createdAt.toISOString()
  return {
    id: row.id,
    company_id: row.companyId,
    document_id: row.documentId,
    type: row.type,
    name: row.name,
    date,
    status: row.status,
    category: row.category,
    source: row.source,
    sender: row.sender,
    subject: row.subject,
    message_id: row.messageId,
    reason: row.reason,
    supplier: row.supplier,
    invoice_number: row.invoiceNumber,
    doc_date: row.docDate,
    total: row.total,
    warnings: row.warnings,
    duplicate: row.duplicate,
    needs_review: row.needsReview,
    documentName: row.name,
    documentType: row.type,
    timestamp: date,
  }
}

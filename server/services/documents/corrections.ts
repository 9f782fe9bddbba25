/**
 * A user's correction of an invoice or expense: in one transaction, with the row locked, the
 * changed fields are saved (source `user`, one history row each), the quality checks run again
 * on the corrected fields (the document service gives the status they lead to: `document.correct`),
 * and the supplier memory learns
 * the corrected name, address and confirmed IBAN.
 */
import { and, eq } from 'drizzle-orm'
import type { CorrectionField, InvoiceCorrection } from '../../../contract/document-corrections.ts'
import type { FinancialKind } from '../../../contract/index.ts'
import type { AppDatabase } from '../../db/client.ts'
import { type DocumentRow, documentChanges, documents, type FieldSource } from '../../db/schema.ts'
import { HttpError } from '../../http/errors.ts'
import type { ExtractedFields } from '../extraction/fields.ts'
import { findDuplicate } from './duplicates.ts'
import { applyTransition, nextState } from './lifecycle/document-service.ts'
import { assessQuality, type QualityCode } from './quality.ts'
import { previousIban, rememberSupplier } from './supplier-memory.ts'

type Column = keyof DocumentRow
const COLUMNS = {
  invoice_number: 'invoiceNumber',
  invoice_date: 'documentDate',
  expense_date: 'documentDate',
  due_date: 'dueDate',
  business_name: 'businessName',
  business_address: 'businessAddress',
  vat_number: 'vatNumber',
  iban: 'iban',
  currency: 'currency',
  has_vat: 'hasVat',
  total_charge_excluding_vat: 'totalChargeExcludingVat',
  total_vat_amount: 'totalVatAmount',
  total_invoice_including_vat: 'totalInvoiceIncludingVat',
} as const satisfies Record<CorrectionField, Column>

type Value = string | number | boolean | null
/** A value as the history keeps it: text, null for empty. */
const asText = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value)

const fieldsOf = (row: DocumentRow): ExtractedFields => ({
  invoice_number: row.invoiceNumber,
  document_date: row.documentDate,
  business_name: row.businessName,
  business_address: row.businessAddress,
  vat_number: row.vatNumber,
  iban: row.iban,
  currency: row.currency,
  has_vat: row.hasVat ?? false,
  total_vat_amount: row.totalVatAmount,
  total_charge_excluding_vat: row.totalChargeExcludingVat,
  total_invoice_including_vat: row.totalInvoiceIncludingVat,
})

/** Where a corrected field's value sits in a reading (`null`: the due date, read apart). */
const READING_KEY = {
  invoice_number: 'invoice_number',
  invoice_date: 'document_date',
  expense_date: 'document_date',
  due_date: null,
  business_name: 'business_name',
  business_address: 'business_address',
  vat_number: 'vat_number',
  iban: 'iban',
  currency: 'currency',
  has_vat: 'has_vat',
  total_charge_excluding_vat: 'total_charge_excluding_vat',
  total_vat_amount: 'total_vat_amount',
  total_invoice_including_vat: 'total_invoice_including_vat',
} as const satisfies Record<CorrectionField, keyof ExtractedFields | null>

/**
 * What a new reading of `doc` keeps of a user's corrections: every field whose source is `user`
 * keeps the user's value and source over what the engine reads again (a reprocess does not undo a
 * review). Answers the fields with those values, the kept sources, and the due date when kept.
 */
export function keepCorrections(doc: DocumentRow, read: ExtractedFields) {
  const fields: ExtractedFields = { ...read }
  const sources: Record<string, FieldSource> = {}
  let dueDate: { value: string | null } | null = null
  for (const [field, source] of Object.entries(doc.fieldSources ?? {})) {
    if (source !== 'user' || !(field in COLUMNS)) continue
    const name = field as CorrectionField
    const value = doc[COLUMNS[name]]
    sources[name] = 'user'
    const key = READING_KEY[name]
    if (key === null) dueDate = { value: (value as string | null) ?? null }
    else Object.assign(fields, { [key]: key === 'has_vat' ? (value ?? false) : value })
  }
  return { fields, sources, dueDate }
}

/** The fields whose value the correction changes, with their old and new values. */
function diff(row: DocumentRow, changes: Partial<Record<CorrectionField, Value>>) {
  const changed: { field: CorrectionField; column: Column; old: Value; value: Value }[] = []
  for (const [field, value] of Object.entries(changes) as [CorrectionField, Value | undefined][]) {
    if (value === undefined) continue
    const column = COLUMNS[field]
    const old = row[column] as Value
    if (asText(old) !== asText(value)) changed.push({ field, column, old, value })
  }
  return changed
}

/** Quality codes and details of the corrected row (the checks processing runs). */
async function reassess(tx: AppDatabase, row: DocumentRow, kind: FinancialKind, today: string) {
  const fields = fieldsOf(row)
  const duplicate = await findDuplicate(tx, row, fields)
  const quality = assessQuality(kind, fields, { today, duplicate: duplicate !== null })
  const previous = kind === 'invoice' ? await previousIban(tx, row, fields) : null
  if (previous) quality.warnings.push('iban_changed')
  const { duplicate: _d, iban_changed: _i, ...otherDetails } = row.qualityDetails
  // An e-invoice's own findings (EN 16931 rules, page vs XML) come from its XML, which a
  // correction of the stored fields does not change: they stay.
  const fromXml = (codes: string[]) => codes.filter((c) => c.startsWith('einvoice_')) as QualityCode[]
  const errors = [...quality.errors, ...fromXml(row.errors)]
  return {
    errors,
    warnings: [...quality.warnings, ...fromXml(row.warnings)],
    qualityDetails: {
      ...otherDetails,
      ...(duplicate && { duplicate: { ...duplicate } }),
      ...(previous && { iban_changed: { previous_iban: previous } }),
    },
  }
}

export async function correctDocument(
  db: AppDatabase,
  input: {
    companyId: number
    id: number
    kind: FinancialKind
    userId: number
    changes: Partial<InvoiceCorrection> & { expense_date?: string | null }
    now: Date
  },
): Promise<DocumentRow> {
  const { companyId, id, kind, userId, changes, now } = input
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(documents)
      .where(and(eq(documents.id, id), eq(documents.companyId, companyId), eq(documents.kind, kind)))
      .for('update')
    if (!row) throw new HttpError(404, 'Document not found')
    // Refused before anything is learnt from it (409 while the document is processed).
    nextState(row, { type: 'document.correct', errors: [] })
    const changed = diff(row, changes as Partial<Record<CorrectionField, Value>>)
    const corrected = { ...row } as Record<Column, unknown>
    const sources: Record<string, FieldSource> = { ...row.fieldSources }
    const evidence = { ...row.fieldEvidence }
    for (const c of changed) {
      corrected[c.column] = c.value
      sources[c.field] = 'user'
      delete evidence[c.field]
    }
    const next = corrected as DocumentRow
    await rememberSupplier(tx, {
      companyId,
      userId,
      fields: fieldsOf(next),
      remember: {
        nameAndAddress: changed.some((c) => c.field === 'business_name' || c.field === 'business_address'),
        iban: changes.iban !== undefined && changes.iban !== null,
      },
      now,
    })
    const quality = await reassess(tx, next, kind, now.toISOString().slice(0, 10))
    const { row: updated } = await applyTransition(
      tx,
      row,
      { type: 'document.correct', errors: quality.errors },
      {
        ...Object.fromEntries(changed.map((c) => [c.column, c.value])),
        errors: quality.errors,
        warnings: quality.warnings,
        qualityDetails: quality.qualityDetails,
        fieldSources: sources,
        fieldEvidence: evidence,
        updatedAt: now,
        // A saved change is a review: the document leaves the queue until it is processed again.
        ...(changed.length > 0 && { reviewedAt: now, reviewedBy: userId }),
      },
    )
    if (changed.length > 0) {
      await tx.insert(documentChanges).values(
        changed.map((c) => ({
          documentId: id,
          companyId,
          field: c.field,
          oldValue: asText(c.old),
          newValue: asText(c.value),
          userId,
          createdAt: now,
        })),
      )
    }
    return updated!
  })
}

/**
 * CSV export of a company's invoices or expenses for accounting software: UTF-8 with a BOM, CRLF
 * line ends, a header row, RFC 4180 quoting, `;` with a decimal comma or `,` with a decimal point.
 * Text cells that a spreadsheet would run as a formula (starting with = + - @, tab or carriage
 * return) are neutralised with a leading `'`. Rows are read in batches by id (keyset) and written
 * in chunks of about CHUNK_CHARS, so the memory used grows neither with the number of rows nor
 * with their size (every exported text is bounded by the field limits of the text rule).
 */
import { and, desc, eq, gte, lt, lte, type SQL } from 'drizzle-orm'
import type { DocumentStatus, FinancialKind } from '../../../contract/index.ts'
import type { AppDatabase } from '../../db/client.ts'
import { type DocumentRow, documents } from '../../db/schema.ts'

export type Separator = ';' | ','

export interface ExportFilters {
  status?: DocumentStatus
  /** Upload date from (inclusive). */
  start?: Date
  /** Upload date until: inclusive for a date and time, the whole day for a bare date. */
  end?: { at: Date; wholeDay: boolean }
}

const BATCH = 1000
/** A chunk is written once it holds this many characters. */
const CHUNK_CHARS = 64 * 1024
const DAY_MS = 86_400_000

type Cell = string | number | boolean | null
/** What the export reads of a document: the columns it writes, nothing else (no e-invoice data). */
const EXPORTED = {
  id: documents.id,
  originalName: documents.originalName,
  status: documents.status,
  createdAt: documents.createdAt,
  invoiceNumber: documents.invoiceNumber,
  documentDate: documents.documentDate,
  dueDate: documents.dueDate,
  businessName: documents.businessName,
  businessAddress: documents.businessAddress,
  vatNumber: documents.vatNumber,
  iban: documents.iban,
  currency: documents.currency,
  hasVat: documents.hasVat,
  totalChargeExcludingVat: documents.totalChargeExcludingVat,
  totalVatAmount: documents.totalVatAmount,
  totalInvoiceIncludingVat: documents.totalInvoiceIncludingVat,
  errors: documents.errors,
  warnings: documents.warnings,
}
type ExportedRow = Pick<DocumentRow, keyof typeof EXPORTED>
type Column = [name: string, value: (row: ExportedRow) => Cell]

function columns(kind: FinancialKind): Column[] {
  return [
    ['id', (r) => String(r.id)],
    ['file_name', (r) => r.originalName],
    ['status', (r) => r.status],
    ['uploaded_at', (r) => r.createdAt.toISOString()],
    ['invoice_number', (r) => r.invoiceNumber],
    [kind === 'invoice' ? 'invoice_date' : 'expense_date', (r) => r.documentDate],
    ...(kind === 'invoice' ? ([['due_date', (r) => r.dueDate]] as Column[]) : []),
    ['business_name', (r) => r.businessName],
    ['business_address', (r) => r.businessAddress],
    ['vat_number', (r) => r.vatNumber],
    ['iban', (r) => r.iban],
    ['currency', (r) => r.currency],
    ['has_vat', (r) => r.hasVat],
    ['total_charge_excluding_vat', (r) => r.totalChargeExcludingVat],
    ['total_vat_amount', (r) => r.totalVatAmount],
    ['total_invoice_including_vat', (r) => r.totalInvoiceIncludingVat],
    ['errors', (r) => r.errors.join(' ')],
    ['warnings', (r) => r.warnings.join(' ')],
  ]
}

/** A text a spreadsheet would take for a formula gets a leading `'`. */
const neutralise = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text)

/** One CSV cell: amounts with two decimals and the separator's decimal mark (never neutralised), texts guarded and quoted when needed. */
export function csvCell(value: Cell, separator: Separator): string {
  if (value === null) return ''
  if (typeof value === 'number') {
    const text = value.toFixed(2)
    return separator === ';' ? text.replace('.', ',') : text
  }
  const text = neutralise(String(value))
  return /["\r\n]/.test(text) || text.includes(separator) ? `"${text.replaceAll('"', '""')}"` : text
}

const csvLine = (cells: Cell[], separator: Separator) =>
  `${cells.map((c) => csvCell(c, separator)).join(separator)}\r\n`

const CSV_BOM = '\ufeff'

/**
 * The export's lines, newest document first: the BOM and header, then one chunk of rows per batch.
 */
export async function* exportCsv(
  db: AppDatabase,
  input: { companyId: number; kind: FinancialKind; separator: Separator; filters: ExportFilters },
): AsyncGenerator<string> {
  const { companyId, kind, separator, filters } = input
  const cols = columns(kind)
  yield CSV_BOM +
    csvLine(
      cols.map(([name]) => name),
      separator,
    )
  const where: SQL[] = [eq(documents.companyId, companyId), eq(documents.kind, kind)]
  if (filters.status) where.push(eq(documents.status, filters.status))
  if (filters.start) where.push(gte(documents.createdAt, filters.start))
  if (filters.end) {
    const { at, wholeDay } = filters.end
    where.push(
      wholeDay ? lt(documents.createdAt, new Date(at.getTime() + DAY_MS)) : lte(documents.createdAt, at),
    )
  }
  let before: number | null = null
  for (;;) {
    const rows: ExportedRow[] = await db
      .select(EXPORTED)
      .from(documents)
      .where(and(...where, before === null ? undefined : lt(documents.id, before)))
      .orderBy(desc(documents.id))
      .limit(BATCH)
    if (rows.length === 0) return
    let chunk = ''
    for (const row of rows) {
      chunk += csvLine(
        cols.map(([, value]) => value(row)),
        separator,
      )
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk
        chunk = ''
      }
    }
    if (chunk) yield chunk
    if (rows.length < BATCH) return
    before = rows[rows.length - 1]!.id
  }
}

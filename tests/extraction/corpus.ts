/**
 * Runs the extraction engine over the shared corpus and scores it with the corpus README's
 * comparison rules. Used by `npm run bench:extract` and by the extraction test (CI floor).
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { assessQuality, duplicateKey } from '../../server/services/documents/quality.ts'
import {
  type ExtractedFields,
  extractDocument,
  type OcrPool,
  UnreadableFileError,
} from '../../server/services/extraction/index.ts'

export const CORPUS_DIR = resolve(
  process.env.CORPUS_DIR ?? join(import.meta.dirname, '../../../shared/corpus'),
)
export const CORPUS_DATE = '2026-11-25'

export interface TruthLine {
  file: string
  kind: 'invoice' | 'expense'
  template: string
  variant: string
  render: 'pdf_text' | 'pdf_image' | 'png' | 'jpg'
  pages: number
  upload_order: number
  fields: Record<string, unknown>
  expected_status: 'COMPLETED' | 'FAILED'
  expected_error_codes: string[]
  expected_warning_codes: string[]
}

export const FIELDS = [
  'invoice_number',
  'date',
  'business_name',
  'business_address',
  'vat_number',
  'iban',
  'currency',
  'has_vat',
  'total_vat_amount',
  'total_charge_excluding_vat',
  'total_invoice_including_vat',
] as const

export function loadTruth(): TruthLine[] {
  return readFileSync(join(CORPUS_DIR, 'truth.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as TruthLine)
    .sort((a, b) => a.upload_order - b.upload_order)
}

export const contentTypeOf = (file: string) =>
  file.endsWith('.pdf') ? 'application/pdf' : file.endsWith('.png') ? 'image/png' : 'image/jpeg'

const norm = (s: unknown) =>
  String(s ?? '')
    .normalize('NFKC')
    .trim()
    .replace(/\s+/g, ' ')
const empty = (v: unknown) => v === null || v === undefined || norm(v) === ''
const COUNTRY_TAIL =
  /\s(france|germany|deutschland|united kingdom|uk|belgium|belgique|switzerland|suisse|spain|espagne|italy|italia|netherlands|luxembourg|ireland|austria|portugal|usa|united states)$/

export function fieldMatches(field: string, expected: unknown, actual: unknown, truth: TruthLine): boolean {
  if (field === 'total_vat_amount' && truth.fields.has_vat === false && actual === null) actual = 0
  if (expected === null) return empty(actual)
  if (empty(actual)) return false
  switch (field) {
    case 'invoice_number':
      return norm(expected).replace(/\s/g, '').toLowerCase() === norm(actual).replace(/\s/g, '').toLowerCase()
    case 'business_name':
      return norm(expected).toLowerCase() === norm(actual).toLowerCase()
    case 'business_address': {
      const a = (s: unknown) =>
        norm(String(s).replace(/[,;\n]/g, ' '))
          .toLowerCase()
          .replace(COUNTRY_TAIL, '')
      return a(expected) === a(actual)
    }
    case 'vat_number':
    case 'iban': {
      const c = (s: unknown) =>
        norm(s)
          .replace(/[\s.-]/g, '')
          .toUpperCase()
      return c(expected) === c(actual)
    }
    case 'currency':
      return norm(expected).toUpperCase() === norm(actual).toUpperCase()
    case 'has_vat':
      return expected === actual
    case 'date':
      return norm(expected).slice(0, 10) === norm(actual).slice(0, 10)
    default:
      return Math.abs(Number(expected) - Number(actual)) <= 0.0100001
  }
}

export interface DocResult {
  truth: TruthLine
  fields: ExtractedFields | null
  status: 'COMPLETED' | 'FAILED'
  errors: string[]
  warnings: string[]
  textMs: number
  ocrMs: number
  textPages: number
  ocrPages: number
  mismatches: { field: string; expected: unknown; actual: unknown }[]
}

/** Processes the files in upload order, as one company would, and compares with the truth. */
export async function runCorpus(
  lines: TruthLine[],
  ocr: OcrPool,
  onResult?: (r: DocResult) => void,
): Promise<DocResult[]> {
  const seenHashes = new Set<string>()
  const seenKeys = new Set<string>()
  const results: DocResult[] = []
  for (const truth of lines) {
    const data = readFileSync(join(CORPUS_DIR, 'files', truth.file))
    const sha = createHash('sha256').update(data).digest('hex')
    let fields: ExtractedFields | null = null
    let errors: string[] = []
    let warnings: string[] = []
    let timing = { textMs: 0, ocrMs: 0, textPages: 0, ocrPages: 0 }
    try {
      const ex = await extractDocument(new Uint8Array(data), contentTypeOf(truth.file), ocr)
      fields = ex.fields
      timing = ex
      const key = duplicateKey(fields)
      const keyStr = key ? `${key.name}\u0000${key.number}` : null
      const duplicate = seenHashes.has(sha) || (keyStr !== null && seenKeys.has(keyStr))
      const q = assessQuality(truth.kind, fields, { today: CORPUS_DATE, duplicate })
      errors = q.errors
      warnings = q.warnings
      if (keyStr) seenKeys.add(keyStr)
    } catch (error) {
      if (!(error instanceof UnreadableFileError)) throw error
      errors = [error.code]
    }
    seenHashes.add(sha)
    const mismatches: DocResult['mismatches'] = []
    for (const field of FIELDS) {
      const expected =
        field === 'date' ? (truth.fields.invoice_date ?? truth.fields.expense_date) : truth.fields[field]
      const actual = field === 'date' ? fields?.document_date : fields?.[field]
      if (!fieldMatches(field, expected, actual ?? null, truth)) mismatches.push({ field, expected, actual })
    }
    const result: DocResult = {
      truth,
      fields,
      status: errors.length > 0 ? 'FAILED' : 'COMPLETED',
      errors,
      warnings,
      ...timing,
      mismatches,
    }
    results.push(result)
    onResult?.(result)
  }
  return results
}

const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`)
const median = (xs: number[]) => {
  if (xs.length === 0) return 0
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

export function fieldAccuracy(results: DocResult[]): number {
  const total = results.length * FIELDS.length
  const wrong = results.reduce((n, r) => n + r.mismatches.length, 0)
  return total === 0 ? 0 : (100 * (total - wrong)) / total
}

export const isScan = (r: DocResult) => r.truth.render !== 'pdf_text'

/** The report lines; the last one is `field accuracy: X%`. */
export function report(results: DocResult[]): string[] {
  const out: string[] = []
  out.push(
    `documents: ${results.length} (text layer ${results.filter((r) => !isScan(r)).length}, scans ${results.filter(isScan).length})`,
  )
  out.push('per-field accuracy:')
  for (const field of FIELDS) {
    const ok = results.filter((r) => !r.mismatches.some((m) => m.field === field)).length
    out.push(`  ${field.padEnd(28)} ${pct(ok, results.length)}`)
  }
  const statusOk = results.filter((r) => r.status === r.truth.expected_status).length
  out.push(`status accuracy: ${pct(statusOk, results.length)} (${statusOk}/${results.length})`)
  for (const kind of ['errors', 'warnings'] as const) {
    let expected = 0
    let found = 0
    let spurious = 0
    for (const r of results) {
      const want = kind === 'errors' ? r.truth.expected_error_codes : r.truth.expected_warning_codes
      const got = r[kind]
      expected += want.length
      found += want.filter((c) => got.includes(c)).length
      spurious += got.filter((c) => !want.includes(c)).length
    }
    out.push(
      `${kind.slice(0, -1)} recall: ${pct(found, expected)} (${found}/${expected}), unexpected codes: ${spurious}`,
    )
  }
  const textPerPage = results
    .filter((r) => r.ocrPages === 0 && r.textPages > 0)
    .map((r) => r.textMs / r.textPages)
  const ocrPerPage = results.filter((r) => r.ocrPages > 0).map((r) => r.ocrMs / r.ocrPages)
  out.push(
    `time per page: text layer median ${median(textPerPage).toFixed(1)} ms (max ${Math.max(0, ...textPerPage).toFixed(1)} ms, ${textPerPage.length} docs); OCR median ${median(ocrPerPage).toFixed(0)} ms (${ocrPerPage.length} docs)`,
  )
  out.push(`field accuracy text layer: ${fieldAccuracy(results.filter((r) => !isScan(r))).toFixed(1)}%`)
  out.push(
    `field accuracy scans: ${results.some(isScan) ? `${fieldAccuracy(results.filter(isScan)).toFixed(1)}%` : 'n/a'}`,
  )
  out.push(`field accuracy: ${fieldAccuracy(results).toFixed(1)}%`)
  return out
}

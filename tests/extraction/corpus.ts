/**
 * Runs the extraction engine over the shared corpora and scores it with the corpus READMEs'
 * comparison rules. Used by `npm run bench:extract` and by the extraction tests (CI floors).
 *
 * Three sets live next to the project: `shared/corpus` (synthetic, every field scored),
 * `shared/corpus-einvoices` (real e-invoices, XML removed) and `shared/corpus-receipts` (real
 * scanned receipts). On the last two a field absent from a truth line is not scored, and
 * `accept` lists other right forms of a value.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { assessQuality, duplicateKey } from '../../server/services/documents/quality.ts'
import {
  type ExtractedFields,
  extractDocument,
  type OcrPool,
  UnreadableFileError,
} from '../../server/services/extraction/index.ts'
import type { Models } from '../../server/services/extraction/scoring/model.ts'

const SHARED = join(import.meta.dirname, '../../../shared')
/** The default set (the synthetic corpus), or the one CORPUS_DIR names. */
export const CORPUS_DIR = resolve(process.env.CORPUS_DIR ?? join(SHARED, 'corpus'))
/** Every visible set, by name. */
export const CORPORA = {
  corpus: resolve(SHARED, 'corpus'),
  einvoices: resolve(SHARED, 'corpus-einvoices'),
  receipts: resolve(SHARED, 'corpus-receipts'),
  /** Real French and German till receipts: measured, never fitted on. */
  eu: resolve(SHARED, 'corpus-eu'),
} as const
export type CorpusName = keyof typeof CORPORA
export const CORPUS_DATE = '2026-11-25'

export interface TruthLine {
  file: string
  kind: 'invoice' | 'expense'
  template: string
  variant: string
  render: 'pdf_text' | 'pdf_image' | 'png' | 'jpg'
  pages: number
  upload_order: number
  /** On the real sets only the fields the truth gives are present: the others are not scored. */
  fields: Record<string, unknown>
  expected_status: 'COMPLETED' | 'FAILED'
  expected_error_codes: string[]
  expected_warning_codes: string[]
  /** On the real sets: field → why the truth leaves it out (not scored). */
  excluded?: Record<string, string>
  /** Field → other printed forms of the same value that are also right. */
  accept?: Record<string, unknown[]>
  /** The set's directory (added when loaded). */
  dir: string
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
export type Field = (typeof FIELDS)[number]

export function loadTruth(dir: string = CORPUS_DIR): TruthLine[] {
  return readFileSync(join(dir, 'truth.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => ({ ...(JSON.parse(l) as TruthLine), dir }))
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
/** "A trailing country name may be present or absent" (English, French, German and local names). */
const COUNTRY_TAIL = new RegExp(
  `\\s(${[
    'france',
    'germany',
    'deutschland',
    'allemagne',
    'united kingdom',
    'uk',
    'u\\.k\\.',
    'great britain',
    'england',
    'scotland',
    'wales',
    'royaume-uni',
    'belgium',
    'belgique',
    'belgië',
    'belgien',
    'switzerland',
    'suisse',
    'schweiz',
    'svizzera',
    'spain',
    'espagne',
    'españa',
    'spanien',
    'italy',
    'italie',
    'italia',
    'italien',
    'netherlands',
    'the netherlands',
    'nederland',
    'pays-bas',
    'niederlande',
    'luxembourg',
    'luxemburg',
    'ireland',
    'irlande',
    'irland',
    'austria',
    'autriche',
    'österreich',
    'portugal',
    'poland',
    'pologne',
    'polen',
    'polska',
    'denmark',
    'danemark',
    'dänemark',
    'sweden',
    'suède',
    'schweden',
    'norway',
    'norvège',
    'finland',
    'czech republic',
    'czechia',
    'monaco',
    'liechtenstein',
    'usa',
    'u\\.s\\.a\\.',
    'us',
    'united states',
    'united states of america',
    'états-unis',
    'etats-unis',
    'canada',
    'australia',
    'new zealand',
    'malaysia',
    'singapore',
    'hong kong',
    'china',
    'japan',
    'india',
    'indonesia',
    'thailand',
    'philippines',
  ].join('|')})$`,
)

function matchesOne(field: string, expected: unknown, actual: unknown): boolean {
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

/** The truth's key(s) of a bench field: the date is `invoice_date` or `expense_date`. */
const truthKeys = (field: Field) => (field === 'date' ? ['invoice_date', 'expense_date'] : [field])

/** Whether the truth scores this field (its key is present in `fields`). */
export function isScored(field: Field, truth: Pick<TruthLine, 'fields'>): boolean {
  return truthKeys(field).some((k) => k in truth.fields)
}

export function fieldMatches(
  field: string,
  expected: unknown,
  actual: unknown,
  truth: Pick<TruthLine, 'fields' | 'accept'>,
): boolean {
  if (field === 'total_vat_amount' && truth.fields.has_vat === false && actual === null) actual = 0
  if (expected === null) return empty(actual)
  if (empty(actual)) return false
  const keys = truthKeys(field as Field)
  const alternatives = keys.flatMap((k) => truth.accept?.[k] ?? [])
  return [expected, ...alternatives].some((e) => matchesOne(field, e, actual))
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
  /** The fields the truth scores for this document. */
  scored: Field[]
  mismatches: { field: Field; expected: unknown; actual: unknown }[]
}

/** Processes the files in upload order, as one company would, and compares with the truth. */
export async function runCorpus(
  lines: TruthLine[],
  ocr: OcrPool,
  onResult?: (r: DocResult) => void,
  /** The weights each document is read with, when not the committed ones (grouped cross-validation). */
  modelsOf?: (truth: TruthLine) => Models,
): Promise<DocResult[]> {
  const seenHashes = new Set<string>()
  const seenKeys = new Set<string>()
  const results: DocResult[] = []
  for (const truth of lines) {
    const data = readFileSync(join(truth.dir, 'files', truth.file))
    const sha = createHash('sha256').update(data).digest('hex')
    let fields: ExtractedFields | null = null
    let errors: string[] = []
    let warnings: string[] = []
    let timing = { textMs: 0, ocrMs: 0, textPages: 0, ocrPages: 0 }
    try {
      const ex = await extractDocument(new Uint8Array(data), contentTypeOf(truth.file), ocr, {
        models: modelsOf?.(truth),
      })
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
    const scored = FIELDS.filter((field) => isScored(field, truth))
    const mismatches: DocResult['mismatches'] = []
    for (const field of scored) {
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
      scored,
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

/** Right fields over scored fields, in percent. */
export function fieldAccuracy(results: DocResult[]): number {
  const total = results.reduce((n, r) => n + r.scored.length, 0)
  const wrong = results.reduce((n, r) => n + r.mismatches.length, 0)
  return total === 0 ? 0 : (100 * (total - wrong)) / total
}

/** One field's accuracy over the documents that score it: [right, scored]. */
export function fieldScore(results: DocResult[], field: Field): [number, number] {
  const scored = results.filter((r) => r.scored.includes(field))
  return [scored.filter((r) => !r.mismatches.some((m) => m.field === field)).length, scored.length]
}

/** Documents whose date, supplier / merchant name and total are all right (the receipts' target). */
export function dateNameTotal(results: DocResult[]): [number, number] {
  const keys: Field[] = ['date', 'business_name', 'total_invoice_including_vat']
  const scored = results.filter((r) => keys.every((k) => r.scored.includes(k)))
  return [scored.filter((r) => !r.mismatches.some((m) => keys.includes(m.field))).length, scored.length]
}

/** Date, merchant and total pooled: the share right over the three fields' scored values. */
export function pooledDateNameTotal(results: DocResult[]): number {
  const scores = (['date', 'business_name', 'total_invoice_including_vat'] as const).map((k) =>
    fieldScore(results, k),
  )
  const total = scores.reduce((n, [, of]) => n + of, 0)
  return total ? (100 * scores.reduce((n, [right]) => n + right, 0)) / total : 0
}

/** The fields each error code of the quality checks is about. */
const CODE_FIELDS: Record<string, Field[]> = {
  missing_invoice_number: ['invoice_number'],
  missing_invoice_date: ['date'],
  missing_expense_date: ['date'],
  missing_business_name: ['business_name'],
  missing_total: ['total_invoice_including_vat'],
  iban_checksum: ['iban'],
  totals_mismatch: ['total_vat_amount', 'total_charge_excluding_vat', 'total_invoice_including_vat'],
}

/**
 * Whether a document's status is scored. The real sets' truth applies the quality rules only to
 * the fields it gives ("a rule whose field is not scored expects nothing"): a document marked
 * FAILED only by rules about fields the truth leaves out (`excluded`, e.g. an IBAN the page
 * prints but the invoice's XML lacks, whose checksum fails) has no expected status.
 */
export function statusScored(r: DocResult): boolean {
  const excluded = r.truth.excluded
  if (!excluded || r.status !== 'FAILED' || r.truth.expected_status !== 'COMPLETED') return true
  return !r.errors.every((code) => (CODE_FIELDS[code] ?? []).some((field) => field in excluded))
}

/**
 * Status against the truth (documents whose status is not scored left out, see statusScored).
 * Error precision: of the documents marked FAILED, how many should be; recall: of those that
 * should be, how many are.
 */
export function statusScore(all: DocResult[]) {
  const results = all.filter(statusScored)
  const ok = results.filter((r) => r.status === r.truth.expected_status).length
  const failed = results.filter((r) => r.status === 'FAILED')
  const shouldFail = results.filter((r) => r.truth.expected_status === 'FAILED')
  const both = failed.filter((r) => r.truth.expected_status === 'FAILED').length
  return {
    ok,
    total: results.length,
    unscored: all.length - results.length,
    failed: failed.length,
    shouldFail: shouldFail.length,
    both,
    /** 1 when nothing is marked FAILED (no wrong FAILED). */
    precision: failed.length === 0 ? 1 : both / failed.length,
    recall: shouldFail.length === 0 ? 1 : both / shouldFail.length,
  }
}

export const isScan = (r: DocResult) => r.truth.render !== 'pdf_text'

const pageTimes = (results: DocResult[]) => ({
  text: results.filter((r) => r.ocrPages === 0 && r.textPages > 0).map((r) => r.textMs / r.textPages),
  ocr: results.filter((r) => r.ocrPages > 0).map((r) => r.ocrMs / r.ocrPages),
})

/** The report lines of one set; the last one is `field accuracy: X%`. */
export function report(results: DocResult[], name = 'corpus'): string[] {
  const out: string[] = []
  out.push(
    `== ${name}: ${results.length} documents (text layer ${results.filter((r) => !isScan(r)).length}, scans ${results.filter(isScan).length})`,
  )
  const families = [...new Set(results.map((r) => r.truth.template))].sort()
  const byFamily = (fam: string) => results.filter((r) => r.truth.template === fam)
  out.push(
    `per field (right/scored)         all${families.length > 1 ? families.map((fam) => fam.padStart(10)).join('') : ''}`,
  )
  const cell = ([n, d]: [number, number], w: number) =>
    (d === 0 ? '-' : `${((100 * n) / d).toFixed(0)}%`).padStart(w)
  for (const field of FIELDS) {
    const [n, d] = fieldScore(results, field)
    if (d === 0) continue
    const all = `${pct(n, d)} ${`${n}/${d}`.padStart(7)}`
    const fams =
      families.length > 1 ? families.map((fam) => cell(fieldScore(byFamily(fam), field), 10)).join('') : ''
    out.push(`  ${field.padEnd(28)} ${all.padStart(14)}${fams}`)
  }
  if (families.length > 1) {
    out.push('per layout family: documents, field accuracy, status accuracy, wrongly FAILED')
    for (const fam of families) {
      const rs = byFamily(fam)
      const s = statusScore(rs)
      out.push(
        `  ${fam.padEnd(10)} ${String(rs.length).padStart(4)} docs  fields ${fieldAccuracy(rs).toFixed(1).padStart(5)}%  status ${pct(s.ok, s.total).padStart(6)}  wrongly FAILED ${s.failed - s.both}`,
      )
    }
  }
  const [dnt, dntN] = dateNameTotal(results)
  out.push(`date + name + total all right: ${pct(dnt, dntN)} (${dnt}/${dntN})`)
  const s = statusScore(results)
  out.push(
    `status accuracy: ${pct(s.ok, s.total)} (${s.ok}/${s.total})${s.unscored > 0 ? `; not scored: ${s.unscored} marked FAILED only by rules on fields the truth leaves out` : ''}`,
  )
  out.push(
    `error precision: ${pct(s.both, s.failed)} (${s.both} of ${s.failed} marked FAILED should be); error recall: ${pct(s.both, s.shouldFail)} (${s.both}/${s.shouldFail})`,
  )
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
      `${kind.slice(0, -1)} code recall: ${pct(found, expected)} (${found}/${expected}), unexpected codes: ${spurious}`,
    )
  }
  const times = pageTimes(results)
  out.push(
    `time per page: text layer median ${median(times.text).toFixed(1)} ms (max ${Math.max(0, ...times.text).toFixed(1)} ms, ${times.text.length} docs); OCR median ${median(times.ocr).toFixed(0)} ms (max ${Math.max(0, ...times.ocr).toFixed(0)} ms, ${times.ocr.length} docs)`,
  )
  const text = results.filter((r) => !isScan(r))
  const scans = results.filter(isScan)
  out.push(`field accuracy text layer: ${text.length ? `${fieldAccuracy(text).toFixed(1)}%` : 'n/a'}`)
  out.push(`field accuracy scans: ${scans.length ? `${fieldAccuracy(scans).toFixed(1)}%` : 'n/a'}`)
  out.push(`field accuracy: ${fieldAccuracy(results).toFixed(1)}%`)
  return out
}

/** A set's short name from its directory. */
export const corpusName = (dir: string) => {
  const hit = Object.entries(CORPORA).find(([, d]) => d === resolve(dir))
  return hit ? hit[0] : basename(dir)
}

/**
 * The e-invoice figures of `npm run bench:extract`: the e-invoice set's originals (with their
 * embedded XML) read by the engine, scored on the truth's fields like the visual reading is, with
 * the number of documents that went through OCR and the median time per e-invoice.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { extractDocument, type OcrPool } from '../../server/services/extraction/index.ts'
import { FIELDS, fieldMatches, isScored, type TruthLine } from './corpus.ts'

export interface EInvoiceBench {
  documents: number
  fromXml: number
  scored: number
  right: number
  ocr: number
  medianMs: number
  mismatches: string[]
}

export async function benchEInvoices(lines: TruthLine[], ocr: OcrPool): Promise<EInvoiceBench> {
  const times: number[] = []
  const out: EInvoiceBench = {
    documents: 0,
    fromXml: 0,
    scored: 0,
    right: 0,
    ocr: 0,
    medianMs: 0,
    mismatches: [],
  }
  for (const truth of lines) {
    const original = (truth as TruthLine & { original?: string }).original
    if (!original) continue
    const data = new Uint8Array(readFileSync(join(truth.dir, original)))
    const started = performance.now()
    const result = await extractDocument(data, 'application/pdf', ocr)
    times.push(performance.now() - started)
    out.documents++
    if (result.einvoice) out.fromXml++
    if (result.ocrPages > 0) out.ocr++
    for (const field of FIELDS.filter((f) => isScored(f, truth))) {
      const expected = field === 'date' ? truth.fields.invoice_date : truth.fields[field]
      const actual = field === 'date' ? result.fields.document_date : result.fields[field]
      out.scored++
      if (fieldMatches(field, expected, actual ?? null, truth)) out.right++
      else
        out.mismatches.push(
          `${truth.file} ${field}: expected ${JSON.stringify(expected)} got ${JSON.stringify(actual)}`,
        )
    }
  }
  const sorted = times.sort((a, b) => a - b)
  out.medianMs = sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0
  return out
}

export function einvoiceReport(b: EInvoiceBench): string[] {
  const pct = b.scored ? ((100 * b.right) / b.scored).toFixed(1) : 'n/a'
  return [
    `== e-invoices (originals with their XML): ${b.documents} documents, ${b.fromXml} read from the XML`,
    `  from XML: field accuracy ${pct}% (${b.right}/${b.scored})  via OCR ${b.ocr}  median ${b.medianMs.toFixed(1)} ms per e-invoice`,
    ...b.mismatches.map((m) => `   ${m}`),
  ]
}

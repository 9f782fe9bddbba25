/**
 * `npm run bench:extract [-- --text-only | --scans] [--sets corpus,einvoices,receipts] [--files 0001,0002]
 * [--verbose] [--json out.jsonl]`: the extraction engine over the visible sets, scored with the
 * corpus READMEs' rules (a field absent from a truth line is not scored; `accept` forms count; a
 * document marked FAILED only by rules on fields the truth leaves out has no expected status).
 *
 * By default every visible set runs (shared/corpus, corpus-einvoices, corpus-receipts, corpus-eu)
 * and the generators' held-out seeds (`held-out`, 120 invoices of scripts/novel-invoices.ts;
 * `held-out-expenses`, 60 tills, fuel and taxi receipts and hotel folios of
 * scripts/novel-expenses.ts; about one in seven a scanned copy);
 * CORPUS_DIR runs one directory, `--sets` some of them. `--scans` keeps the documents that need
 * OCR, `--text-only` the others. Per set it prints per-field accuracy (overall and per layout
 * family: the truth's `template`), status accuracy, error precision / recall and the time per
 * page (text layer, OCR; medians). `--json` writes one line per document (fields, status,
 * mismatches) to compare two runs. `--ocr-cache DIR` keeps each page's OCR result in DIR and reuses
 * it (iterating on the field rules without re-reading 150 scans; its OCR times are then cache
 * reads, not OCR). On the e-invoice set it also reads the originals (embedded XML): their field
 * accuracy, how many went through OCR (none should) and the median time per e-invoice. The last
 * line is `field accuracy: X%` over all sets run; then, for each training set run, the whole engine
 * grouped (every field refitted without each group, the group read by the full pipeline: fields,
 * date + merchant + total pooled, their gaps to the committed weights' run, and per field the
 * in-sample and grouped figures and their gap), and for each set no weight is fitted on
 * (corpus-eu, the held-out seed) its per-field figures, held-out as they stand; then, for each fitted
 * scorer, its in-sample and grouped cross-validated accuracy per training set on the page models
 * and the gap (`--no-cv` skips both).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createOcrPool } from '../server/services/extraction/index.ts'
import { type Models, SCORED_FIELDS } from '../server/services/extraction/scoring/model.ts'
import {
  CORPORA,
  type CorpusName,
  corpusName,
  type DocResult,
  dateNameTotal,
  FIELDS,
  fieldAccuracy,
  fieldScore,
  loadTruth,
  pooledDateNameTotal,
  report,
  runCorpus,
  statusScore,
  type TruthLine,
} from '../tests/extraction/corpus.ts'
import { benchEInvoices, einvoiceReport } from '../tests/extraction/einvoice-bench.ts'
import { cachedPool } from '../tests/extraction/ocr-cache.ts'
import { crossValidate, fitAll, loadTrainingDocs, TRAINING_SETS } from '../tests/extraction/training.ts'
import { generateExpenses } from './novel-expenses.ts'
import { generateSet } from './novel-invoices.ts'

const args = process.argv.slice(2)
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
const verbose = args.includes('--verbose')
const textOnly = args.includes('--text-only') || option('--only') === 'text'
const scansOnly = args.includes('--scans') || option('--only') === 'scans'
const filesArg = option('--files')
const setsArg = option('--sets')
const jsonOut = option('--json')
const ocrCache = option('--ocr-cache')

/** The generator's held-out seed (scripts/novel-invoices.ts): layouts no scorer was fitted on. */
const HELD_OUT_SEED = 7340113
/** Its share of scanned copies (image PDF, PNG, JPEG), about shared/corpus's (19 of 120). */
const HELD_OUT_SCANS = 0.15
/** The expense generator's seed (scripts/novel-expenses.ts): tills, fuel, taxi, hotel; never fitted on. */
const EXPENSES_SEED = 27182
const heldOutDir = join(mkdtempSync(join(tmpdir(), 'bench-extract-')), 'held-out')
const expensesDir = join(heldOutDir, '..', 'held-out-expenses')
const known = [...Object.keys(CORPORA), 'held-out', 'held-out-expenses']
const wanted = setsArg ? setsArg.split(',') : known
for (const s of wanted)
  if (!known.includes(s)) throw new Error(`unknown set ${s}: one of ${known.join(', ')}`)
const dirs: string[] = process.env.CORPUS_DIR
  ? [process.env.CORPUS_DIR]
  : wanted.map((s) =>
      s === 'held-out'
        ? heldOutDir
        : s === 'held-out-expenses'
          ? expensesDir
          : CORPORA[s as keyof typeof CORPORA],
    )
if (dirs.includes(heldOutDir)) await generateSet(HELD_OUT_SEED, heldOutDir, 120, true, HELD_OUT_SCANS)
if (dirs.includes(expensesDir)) await generateExpenses(EXPENSES_SEED, expensesDir, 60, HELD_OUT_SCANS)

const ocr = cachedPool(createOcrPool(Number(process.env.OCR_WORKERS ?? 2)), ocrCache)
const all: DocResult[] = []
/** The training sets run, read again with each group's refitted weights after the committed ones. */
const trainingRuns: { name: CorpusName; lines: TruthLine[]; inSample: DocResult[] }[] = []
const summary: string[] = []
/** The sets no weight is fitted on (corpus-eu, the held-out seed): every figure of theirs is held-out. */
const unfitted: { name: string; results: DocResult[] }[] = []

/** Per field: in-sample, grouped and the gap between them (the same results twice for a set never fitted on). */
function fieldTable(inSample: DocResult[], grouped: DocResult[]): string[] {
  const out = [`    ${'field'.padEnd(28)} in-sample   grouped    gap`]
  for (const field of FIELDS) {
    const [a, n] = fieldScore(inSample, field)
    const [b, m] = fieldScore(grouped, field)
    if (!n || !m) continue
    const [pa, pb] = [(100 * a) / n, (100 * b) / m]
    out.push(
      `    ${field.padEnd(28)} ${pa.toFixed(1).padStart(8)}% ${pb.toFixed(1).padStart(8)}% ${(pa - pb).toFixed(1).padStart(6)}  (${b}/${m})`,
    )
  }
  return out
}
/** Of the documents marked FAILED, the share that should be (100 when none is). */
const errorPrecision = (s: ReturnType<typeof statusScore>) =>
  s.failed ? ((100 * s.both) / s.failed).toFixed(1) : '100.0'
const json: string[] = []
for (const dir of dirs) {
  const name = corpusName(dir)
  let lines = loadTruth(dir)
  if (textOnly) lines = lines.filter((l) => l.render === 'pdf_text')
  if (scansOnly) lines = lines.filter((l) => l.render !== 'pdf_text')
  if (filesArg) {
    const wanted = filesArg.split(',')
    lines = lines.filter((l) => wanted.some((w) => l.file.startsWith(w)))
  }
  if (lines.length === 0) continue
  const results = await runCorpus(lines, ocr, (r) => {
    json.push(
      JSON.stringify({
        set: name,
        file: r.truth.file,
        template: r.truth.template,
        status: r.status,
        expected_status: r.truth.expected_status,
        errors: r.errors,
        fields: r.fields,
        mismatches: r.mismatches,
        ms: Math.round(r.textMs + r.ocrMs),
      }),
    )
    if (!verbose) return
    const flag =
      r.status === r.truth.expected_status ? '' : ` status ${r.status}≠${r.truth.expected_status} ${r.errors}`
    if (r.mismatches.length === 0 && !flag) return
    console.log(`${name}/${r.truth.file} [${r.truth.template}/${r.truth.render}]${flag}`)
    for (const m of r.mismatches)
      console.log(`   ${m.field}: expected ${JSON.stringify(m.expected)} got ${JSON.stringify(m.actual)}`)
  })
  for (const line of report(results, name)) console.log(line)
  console.log()
  // The same set's originals, read from their embedded XML (the e-invoice path), beside the visual figures.
  if (lines.some((l) => 'original' in l)) {
    const bench = await benchEInvoices(lines, ocr)
    for (const line of einvoiceReport(bench)) console.log(line)
    console.log()
    summary.push(
      `  ${'e-invoice'.padEnd(10)} ${String(bench.documents).padStart(4)} docs  from XML ${bench.scored ? ((100 * bench.right) / bench.scored).toFixed(1) : 'n/a'}%  via OCR ${bench.ocr}  median ${bench.medianMs.toFixed(1)} ms`,
    )
  }
  const s = statusScore(results)
  const [dnt, dntN] = dateNameTotal(results)
  summary.push(
    `  ${name.padEnd(10)} ${String(results.length).padStart(4)} docs  fields ${fieldAccuracy(results).toFixed(1).padStart(5)}%  date+name+total ${dntN ? ((100 * dnt) / dntN).toFixed(1) : 'n/a'}%  status ${((100 * s.ok) / s.total).toFixed(1)}%  error precision ${errorPrecision(s)}% recall ${s.shouldFail ? ((100 * s.both) / s.shouldFail).toFixed(1) : '100.0'}%`,
  )
  all.push(...results)
  if (name in TRAINING_SETS && !args.includes('--no-cv'))
    trainingRuns.push({ name: name as CorpusName, lines, inSample: results })
  else if (!args.includes('--no-cv')) unfitted.push({ name, results })
}
// The whole engine, measured honestly on the training sets: for every group, every field's
// weights refitted without it, and the group's documents read through the full pipeline (OCR
// rereads and second opinions included) with them.
const engineGrouped: string[] = []
if (trainingRuns.length > 0) {
  const docs = loadTrainingDocs()
  for (const { name, lines, inSample } of trainingRuns) {
    const groupOf = TRAINING_SETS[name]!
    const refits = new Map<string, Models>()
    const modelsOf = (truth: TruthLine) => {
      const group = groupOf(truth)
      let models = refits.get(group)
      if (!models) {
        models = fitAll(docs.filter((d) => !(d.set === name && d.group === group))).fields as Models
        refits.set(group, models)
      }
      return models
    }
    const results = await runCorpus(lines, ocr, undefined, modelsOf)
    const [dnt, dntN] = dateNameTotal(results)
    const s = statusScore(results)
    const gap = (f: (r: DocResult[]) => number) => (f(inSample) - f(results)).toFixed(1)
    engineGrouped.push(
      `  ${name.padEnd(10)} ${String(results.length).padStart(4)} docs  ${refits.size} groups  fields ${fieldAccuracy(results).toFixed(1).padStart(5)}% (gap ${gap(fieldAccuracy)} pts)  date, merchant, total pooled ${pooledDateNameTotal(results).toFixed(1)}% (gap ${gap(pooledDateNameTotal)} pts)  all three ${dntN ? ((100 * dnt) / dntN).toFixed(1) : 'n/a'}%  error precision ${errorPrecision(s)}%`,
    )
    engineGrouped.push(...fieldTable(inSample, results))
  }
}
// The sets never fitted on: their figures are held-out as they stand.
for (const { name, results } of unfitted) {
  const s = statusScore(results)
  engineGrouped.push(
    `  ${name.padEnd(10)} ${String(results.length).padStart(4)} docs  never fitted on (grouped = in-sample)  fields ${fieldAccuracy(results).toFixed(1).padStart(5)}%  date, merchant, total pooled ${pooledDateNameTotal(results).toFixed(1)}%  error precision ${errorPrecision(s)}%`,
    ...fieldTable(results, results),
  )
}
await ocr.close()
rmSync(join(heldOutDir, '..'), { recursive: true, force: true })
if (jsonOut) writeFileSync(jsonOut, `${json.join('\n')}\n`)
console.log('== summary')
for (const line of summary) console.log(line)
console.log(`field accuracy: ${fieldAccuracy(all).toFixed(1)}%`)
if (engineGrouped.length > 0) {
  console.log(
    '\n== the whole engine, grouped: weights refitted without each group, the group read by the full pipeline',
  )
  for (const line of engineGrouped) console.log(line)
}

// The fitted scorers, measured honestly: on the training page models, each field's accuracy with
// the weights fitted on every document (in-sample) and, for every group (a layout family, a
// merchant), with weights refitted without that group and scored on it (grouped). A change that
// widens the gap is tuning, whatever it does to the figures above.
if (!args.includes('--no-cv')) {
  console.log('\n== fitted scorers: in-sample and grouped cross-validation (training page models)')
  const docs = loadTrainingDocs()
  const pct = ([a, b]: [number, number]) => (b ? (100 * a) / b : 0)
  for (const field of SCORED_FIELDS)
    for (const f of crossValidate(field, docs)) {
      const gap = pct(f.inSample) - pct(f.grouped)
      console.log(
        `  ${field.padEnd(14)} ${f.set.padEnd(10)} in-sample ${pct(f.inSample).toFixed(1).padStart(5)}%  grouped ${pct(f.grouped).toFixed(1).padStart(5)}%  gap ${gap.toFixed(1).padStart(4)} pts  (${f.grouped[1]} docs)`,
      )
    }
}

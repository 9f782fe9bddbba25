/**
 * `npm run bench:extract [-- --text-only | --scans | --only text|scans] [--verbose] [--files 0001,0002]`:
 * the extraction engine over ../shared/corpus (CORPUS_DIR), scored with the corpus rules. `--scans`
 * runs only the documents that need OCR (quick iterations on OCR). The last line is
 * `field accuracy: X%`.
 */
import { createOcrPool } from '../server/services/extraction/index.ts'
import { loadTruth, report, runCorpus } from '../tests/extraction/corpus.ts'

const args = process.argv.slice(2)
const verbose = args.includes('--verbose')
const textOnly =
  args.includes('--text-only') || (args.includes('--only') && args[args.indexOf('--only') + 1] === 'text')
const scansOnly =
  args.includes('--scans') || (args.includes('--only') && args[args.indexOf('--only') + 1] === 'scans')
const filesArg = args[args.indexOf('--files') + 1]
let lines = loadTruth()
if (textOnly) lines = lines.filter((l) => l.render === 'pdf_text')
if (scansOnly) lines = lines.filter((l) => l.render !== 'pdf_text')
if (args.includes('--files') && filesArg) {
  const wanted = filesArg.split(',')
  lines = lines.filter((l) => wanted.some((w) => l.file.startsWith(w)))
}
const ocr = createOcrPool(Number(process.env.OCR_WORKERS ?? 2))
const results = await runCorpus(lines, ocr, (r) => {
  if (!verbose) return
  const flag =
    r.status === r.truth.expected_status ? '' : ` status ${r.status}≠${r.truth.expected_status} ${r.errors}`
  if (r.mismatches.length === 0 && !flag) return
  console.log(`${r.truth.file} [${r.truth.template}/${r.truth.render}]${flag}`)
  for (const m of r.mismatches)
    console.log(`   ${m.field}: expected ${JSON.stringify(m.expected)} got ${JSON.stringify(m.actual)}`)
})
await ocr.close()
for (const line of report(results)) console.log(line)

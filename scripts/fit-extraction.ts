/**
 * `npm run fit:extract [-- --read] [--ocr-cache DIR]`: fits every scored field's weights on the
 * training page models (tests/extraction/training/pages.jsonl.gz) and writes
 * server/services/extraction/scoring/weights.json. Deterministic: the same page models give the
 * same file (a test checks the committed one). `--read` first reads the training documents again
 * (text layer, OCR for scans: minutes; `--ocr-cache DIR` reuses recognised pages) and rewrites the
 * page models; do it when the page stage (text layer, OCR, word repairs) changes. `--read-set SET`
 * reads one set again (`novel` after a change to the generator) and keeps the others' models.
 */
import { writeFileSync } from 'node:fs'
import { createOcrPool } from '../server/services/extraction/index.ts'
import type { ScoredField } from '../server/services/extraction/scoring/model.ts'
import { cachedPool } from '../tests/extraction/ocr-cache.ts'
import {
  crossValidate,
  FIELD_SPECS,
  fitAll,
  loadTrainingDocs,
  readTrainingDocs,
  saveTrainingDocs,
  type TrainingSet,
  WEIGHTS_FILE,
} from '../tests/extraction/training.ts'

const args = process.argv.slice(2)
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)

if (args.includes('--read')) {
  const pool = cachedPool(createOcrPool(Number(process.env.OCR_WORKERS ?? 2)), option('--ocr-cache'))
  const docs = await readTrainingDocs(pool, (s) => process.stdout.write(`\r${s.padEnd(60)}`))
  await pool.close()
  saveTrainingDocs(docs)
  console.log(`\nread ${docs.length} training documents`)
} else if (option('--read-set')) {
  const set = option('--read-set') as TrainingSet
  const pool = cachedPool(createOcrPool(Number(process.env.OCR_WORKERS ?? 2)), option('--ocr-cache'))
  const fresh = await readTrainingDocs(pool, (s) => process.stdout.write(`\r${s.padEnd(60)}`), set)
  await pool.close()
  saveTrainingDocs([...loadTrainingDocs().filter((d) => d.set !== set), ...fresh])
  console.log(`\nread ${fresh.length} documents of ${set} again`)
}

const docs = loadTrainingDocs()
const weights = fitAll(docs)
writeFileSync(WEIGHTS_FILE, `${JSON.stringify(weights, null, 2)}\n`)
console.log(`fitted on ${docs.length} documents → ${WEIGHTS_FILE}`)
for (const field of Object.keys(FIELD_SPECS) as ScoredField[]) {
  const model = weights.fields[field]!
  console.log(`\n${field}: weight per feature`)
  for (const [i, name] of model.features.entries())
    console.log(`  ${name.padEnd(22)} ${model.weights[i]!.toFixed(3).padStart(8)}`)
  for (const f of crossValidate(field, docs, weights.fields)) {
    const pct = ([a, b]: [number, number]) => (b ? ((100 * a) / b).toFixed(1) : 'n/a')
    console.log(
      `  ${f.set.padEnd(10)} in-sample ${pct(f.inSample)}%  grouped ${pct(f.grouped)}%  (${f.grouped[1]} docs)`,
    )
  }
}

/**
 * `npm run bench:tilt [-- --count 30 --angle 3]`: how the engine reads receipts photographed or
 * scanned askew. The first `count` receipts of shared/corpus-receipts are taken out of their PDFs
 * as images, once level and once turned by ±`angle` degrees (alternately), and both sets are read
 * as image uploads (PNG). Prints per set the field accuracy and date + merchant + total together;
 * the tilted set should read about as well as the level one.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rotateGrey } from '../server/services/extraction/deskew.ts'
import { createOcrPool } from '../server/services/extraction/index.ts'
import { readPdf } from '../server/services/extraction/pdf-text.ts'
import { encodePng, toGrey } from '../server/services/extraction/png.ts'
import { CORPORA, dateNameTotal, fieldAccuracy, loadTruth, runCorpus } from '../tests/extraction/corpus.ts'

const args = process.argv.slice(2)
const option = (name: string, fallback: number) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback
const count = option('--count', 30)
const angle = option('--angle', 3)

const truth = loadTruth(CORPORA.receipts).slice(0, count)
const root = mkdtempSync(join(tmpdir(), 'docflow-tilt-'))
const sets = { level: join(root, 'level'), tilted: join(root, 'tilted') }
for (const dir of Object.values(sets)) mkdirSync(join(dir, 'files'), { recursive: true })
const lines: Record<keyof typeof sets, string[]> = { level: [], tilted: [] }
for (const [i, t] of truth.entries()) {
  const pdf = await readPdf(new Uint8Array(readFileSync(join(t.dir, 'files', t.file))))
  const image = await pdf.pageImage(1)
  await pdf.close()
  if (!image) throw new Error(`${t.file}: no page image`)
  const grey = toGrey(image)
  const file = t.file.replace(/\.pdf$/, '.png')
  const turned = rotateGrey(grey, image.width, image.height, i % 2 === 0 ? angle : -angle)
  writeFileSync(join(sets.level, 'files', file), encodePng(image.width, image.height, 1, grey))
  writeFileSync(join(sets.tilted, 'files', file), encodePng(image.width, image.height, 1, turned))
  const { dir: _dir, ...line } = t
  for (const key of ['level', 'tilted'] as const) lines[key].push(JSON.stringify({ ...line, file }))
}
const ocr = createOcrPool(Number(process.env.OCR_WORKERS ?? 2))
try {
  for (const key of ['level', 'tilted'] as const) {
    writeFileSync(join(sets[key], 'truth.jsonl'), `${lines[key].join('\n')}\n`)
    const results = await runCorpus(loadTruth(sets[key]), ocr)
    const [right, scored] = dateNameTotal(results)
    console.log(
      `${key === 'level' ? 'level ' : `±${angle}°  `} ${results.length} receipts  fields ${fieldAccuracy(results).toFixed(1)}%  date+name+total ${((100 * right) / scored).toFixed(1)}%`,
    )
  }
} finally {
  await ocr.close()
  rmSync(root, { recursive: true, force: true })
}

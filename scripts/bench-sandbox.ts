/**
 * `node --import tsx scripts/bench-sandbox.ts [-- --rounds 200]`: what the extraction sandbox
 * costs and what it stops.
 * - overhead: median time per text-layer invoice in this process vs through a warm sandbox
 *   process (the same engine), and the round trip of a file refused at once (pure IPC);
 * - bombs: time until each crafted file is refused, and the sandbox process's memory after;
 * - memory: the sandbox process's resident size warm, after an OCR'd scan, and after recycling.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createOcrPool, extractDocument } from '../server/services/extraction/index.ts'
import { createExtractionSandbox } from '../server/services/extraction/sandbox.ts'
import {
  blankScanPdf,
  hugeImagePdf,
  jpegLikeGarbage,
  manyPagesPdf,
  tinyJpegDeclaring,
  tinyPngDeclaring,
  whitePng,
} from '../tests/support/bomb-files.ts'

const args = process.argv.slice(2)
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 100
const corpus = process.env.CORPUS_DIR ?? join(import.meta.dirname, '../../shared/corpus')
const invoice = new Uint8Array(readFileSync(join(corpus, 'files/0002-facture.pdf')))
const scan = new Uint8Array(readFileSync(join(corpus, 'files/0032-scan.png')))
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now()
  await fn().catch(() => {})
  return performance.now() - t
}

const sandbox = createExtractionSandbox({ size: 1, recycleMb: 256 })
const ocr = createOcrPool(1)
let t = performance.now()
await sandbox.warm()
console.log(`sandbox process start-up: ${Math.round(performance.now() - t)} ms`)
const rss = () => sandbox.children()[0]?.rss ?? 0

// Warm both paths (pdf.js loaded, JIT) before measuring; interleave so load affects both alike.
for (let i = 0; i < 10; i++) {
  await sandbox.extract(invoice, 'application/pdf')
  await extractDocument(invoice, 'application/pdf', ocr)
}
const inProcess: number[] = []
const inSandbox: number[] = []
const roundTrip: number[] = []
for (let i = 0; i < rounds; i++) {
  inProcess.push(await timed(() => extractDocument(invoice, 'application/pdf', ocr)))
  inSandbox.push(await timed(() => sandbox.extract(invoice, 'application/pdf')))
  roundTrip.push(await timed(() => sandbox.extract(invoice, 'application/x-unknown')))
}
console.log(`text-layer invoice, median of ${rounds}:`)
console.log(`  in this process     ${median(inProcess).toFixed(1)} ms`)
console.log(`  through the sandbox ${median(inSandbox).toFixed(1)} ms`)
console.log(`  IPC round trip      ${median(roundTrip).toFixed(2)} ms (file refused at once)`)
console.log(`  overhead            ${(median(inSandbox) - median(inProcess)).toFixed(1)} ms per document`)

console.log('bombs (time to refusal, sandbox memory after):')
const bombs: [string, () => Uint8Array | Promise<Uint8Array>, string][] = [
  ['62-byte JPEG-like file', jpegLikeGarbage, 'image/jpeg'],
  ['49-byte JPEG, 65 500² px', tinyJpegDeclaring, 'image/jpeg'],
  ['74-byte PNG, 65 500² px', tinyPngDeclaring, 'image/png'],
  ['PNG 20 000² px', whitePng, 'image/png'],
  ['PDF of 20 000 pages', manyPagesPdf, 'application/pdf'],
  ['PDF with a 20 000² image', hugeImagePdf, 'application/pdf'],
  ['60-page blank scan', blankScanPdf, 'application/pdf'],
]
for (const [name, build, type] of bombs) {
  const data = await build()
  let outcome = ''
  const ms = await timed(() =>
    sandbox.extract(data, type).then(
      () => {
        outcome = 'accepted'
      },
      (e: Error & { code?: string }) => {
        outcome = e.code ?? e.name
      },
    ),
  )
  console.log(
    `  ${name.padEnd(26)} ${String(data.length).padStart(7)} B  ${ms.toFixed(0).padStart(5)} ms  ${outcome.padEnd(26)} ${mb(rss())}`,
  )
}

const warm = rss()
const pid = sandbox.children()[0]?.pid
t = performance.now()
await sandbox.extract(scan, 'image/png')
const ocrMs = performance.now() - t
const recycled = sandbox.children()[0]?.pid !== pid
await sandbox.warm()
console.log('memory of the sandbox process:')
console.log(`  warm                 ${mb(warm)}`)
console.log(`  scan OCR'd (${Math.round(ocrMs)} ms)  ${recycled ? 'recycled (above 256 MB)' : 'kept'}`)
console.log(`  after                ${mb(rss())}`)
await sandbox.close()
await ocr.close()

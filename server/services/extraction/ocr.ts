/**
 * OCR with tesseract.js: a small pool of warm workers (worker threads, so recognition never
 * blocks the event loop), English + French models read from the @tesseract.js-data packages
 * in node_modules: nothing is downloaded at run time.
 */
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import Tesseract from 'tesseract.js'
import type { Line, PageText, Segment } from './pdf-text.ts'

const require = createRequire(import.meta.url)

/**
 * tesseract.js reads every language from one directory: the two packages' files are copied
 * side by side once (no network: langPath is a local directory).
 */
function languageDirectory(): string {
  const dir = join(tmpdir(), 'docflow-tessdata-4.0.0_best_int')
  mkdirSync(dir, { recursive: true })
  for (const code of ['eng', 'fra']) {
    const source = join(
      dirname(require.resolve(`@tesseract.js-data/${code}/package.json`)),
      '4.0.0_best_int',
      `${code}.traineddata.gz`,
    )
    const target = join(dir, `${code}.traineddata.gz`)
    if (!existsSync(target) || statSync(target).size !== statSync(source).size) copyFileSync(source, target)
  }
  return dir
}

export interface OcrPool {
  recognize(image: Buffer): Promise<PageText>
  close(): Promise<void>
}

/** Workers start on first use and stay warm; `size` recognitions run at once. */
export function createOcrPool(size = 1): OcrPool {
  let scheduler: Promise<Tesseract.Scheduler> | null = null
  const start = async () => {
    const s = Tesseract.createScheduler()
    const langPath = languageDirectory()
    for (let i = 0; i < size; i++) {
      const worker = await Tesseract.createWorker(['eng', 'fra'], Tesseract.OEM.LSTM_ONLY, {
        langPath,
        cacheMethod: 'none',
        gzip: true,
      })
      await worker.setParameters({
        preserve_interword_spaces: '1',
        tessedit_pageseg_mode: Tesseract.PSM.AUTO,
        debug_file: '/dev/null',
      } as Partial<Tesseract.WorkerParams>)
      s.addWorker(worker)
    }
    return s
  }
  return {
    async recognize(image) {
      scheduler ??= start()
      const s = await scheduler
      const result = (await s.addJob(
        'recognize',
        image,
        {},
        { blocks: true, text: false },
      )) as Tesseract.RecognizeResult
      return toPage(result.data)
    },
    async close() {
      if (scheduler) await (await scheduler).terminate()
      scheduler = null
    },
  }
}

/** Confusions tesseract makes on these documents' fonts: ß read as B at the end of "-straße". */
function fixOcrWord(word: string): string {
  return word.replace(/(\p{Ll})B(e)\b/gu, '$1ß$2')
}

function toPage(data: Tesseract.Page): PageText {
  const lines: Line[] = []
  let width = 0
  let height = 0
  for (const block of data.blocks ?? []) {
    width = Math.max(width, block.bbox.x1)
    height = Math.max(height, block.bbox.y1)
    for (const para of block.paragraphs) {
      for (const l of para.lines) {
        const words = l.words.filter((w) => w.text.trim() !== '' && w.confidence > 20)
        if (words.length === 0) continue
        const lineHeight = Math.max(8, l.bbox.y1 - l.bbox.y0)
        const segments: Segment[] = []
        for (const raw of words) {
          const w = { ...raw, text: fixOcrWord(raw.text) }
          const last = segments[segments.length - 1]
          if (last && w.bbox.x0 - last.x1 < lineHeight * 1.4) {
            last.text += ` ${w.text}`
            last.x1 = w.bbox.x1
          } else {
            segments.push({ text: w.text, x0: w.bbox.x0, x1: w.bbox.x1, size: lineHeight })
          }
        }
        lines.push({
          page: 1,
          y: l.bbox.y0,
          x0: segments[0]!.x0,
          x1: segments[segments.length - 1]!.x1,
          segments,
          text: segments.map((s) => s.text).join('  '),
        })
      }
    }
  }
  // Blocks are read column by column; the rules expect top-to-bottom lines across columns.
  lines.sort((a, b) => a.y - b.y || a.x0 - b.x0)
  const merged: Line[] = []
  for (const line of lines) {
    const prev = merged[merged.length - 1]
    const h = line.segments[0]!.size
    if (prev && Math.abs(prev.y - line.y) < h * 0.5) {
      prev.segments.push(...line.segments)
      prev.segments.sort((a, b) => a.x0 - b.x0)
      prev.x0 = prev.segments[0]!.x0
      prev.x1 = Math.max(prev.x1, line.x1)
      prev.text = prev.segments.map((s) => s.text).join('  ')
    } else merged.push(line)
  }
  return { page: 1, width: width || 1, height: height || 1, lines: merged }
}

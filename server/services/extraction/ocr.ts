/**
 * OCR with tesseract.js: a small pool of warm workers (worker threads, so recognition never
 * blocks the event loop), English + French models read from the @tesseract.js-data packages
 * in node_modules, and a page whose first reading is German read again with German + English
 * (Debian's tesseract-ocr-deu, when installed): nothing is downloaded at run time.
 *
 * Each page is prepared before recognition: grey, paper background flattened to white and
 * light ink darkened (grey labels survive tesseract's global threshold), and scans below
 * ~250 dpi resampled to ~300 dpi, the resolution tesseract's models read best. Coordinates
 * come back in points, like the PDF text layer's, so the field rules see one geometry.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import Tesseract from 'tesseract.js'
import { estimateSkew, rotateGrey } from './deskew.ts'
import { languageLabels } from './lexicon.ts'
import { createLineReader, type LineReader, type LineReading, tightLine } from './ocr-letters.ts'
import type { Line, PageText, Segment } from './pdf-text.ts'
import { cropGrey, decodePng, normalizeContrast, type RawImage, resizeGrey, toGrey } from './png.ts'

const require = createRequire(import.meta.url)

/**
 * Where the German model is looked for: `OCR_TESSDATA_DIR` when set, else the system's tesseract
 * data (Debian's `tesseract-ocr-deu` package installs `/usr/share/tesseract-ocr/5/tessdata`).
 * No npm package ships it; without it German receipts are read with the English and French models.
 */
const SYSTEM_TESSDATA = ['/usr/share/tesseract-ocr/5/tessdata', '/usr/share/tesseract-ocr/4.00/tessdata']

/** The German model's file, when one is installed. */
function germanModel(dir = process.env.OCR_TESSDATA_DIR): string | null {
  const dirs = dir ? [dir] : SYSTEM_TESSDATA
  return dirs.map((d) => join(d, 'deu.traineddata')).find((file) => existsSync(file)) ?? null
}

/**
 * tesseract.js reads every language from one directory of gzipped models: the packages' files
 * are copied side by side once, and the German model, when installed, gzipped beside them (no
 * network: langPath is a local directory). Returns the directory and whether German is in it.
 */
function languageDirectory(): { dir: string; german: boolean } {
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
  const german = germanModel()
  if (!german) return { dir, german: false }
  const target = join(dir, 'deu.traineddata.gz')
  const stamp = join(dir, 'deu.source')
  const source = `${german} ${statSync(german).size} ${statSync(german).mtimeMs}`
  if (!existsSync(target) || !existsSync(stamp) || readFileSync(stamp, 'utf8') !== source) {
    writeFileSync(target, gzipSync(readFileSync(german)))
    writeFileSync(stamp, source)
  }
  return { dir, german: true }
}

/**
 * How tesseract segments the page: `auto` finds blocks and columns (invoices, letters);
 * `column` reads one column of lines of varying sizes (a till receipt), which keeps a
 * receipt's header, amounts and date lines that `auto` splits or drops as noise; `block` reads
 * the page as one block of lines without looking for regions (the last reading: lines between
 * printed rules or over shading that both others drop as pictures).
 */
export type OcrLayout = NonNullable<PageText['layout']>

/** A strip of a page, in points. */
export type OcrRegion = { x0: number; y0: number; x1: number; y1: number }

export interface OcrHint {
  /** The page's width in points when known (a PDF page), so the image's resolution is known too. */
  pageWidthPt?: number
  /** The segmentation; by default `column` for a narrow page (a till roll), else `auto`. */
  layout?: OcrLayout
  /**
   * A closer reading for a page whose first reading missed a required field (a faded date, a
   * total printed small): resampled to ~400 dpi and its light ink darkened further.
   */
  enhance?: boolean
  /** Only this strip of the page (in points): a line whose value the page reading garbled. */
  region?: OcrRegion
}

/** A page narrower than this (in inches) is a till roll or a cut-out receipt: one column. */
const RECEIPT_MAX_WIDTH_IN = 4.6

/**
 * The layout to read a page with: a till receipt's narrow page (its width known from the PDF
 * page) or, for an image of unknown size, a strip much taller than wide, is one column.
 */
export function defaultLayout(page: { widthPt?: number; widthPx?: number; heightPx?: number }): OcrLayout {
  if (page.widthPt && page.widthPt > 0) return page.widthPt / 72 < RECEIPT_MAX_WIDTH_IN ? 'column' : 'auto'
  if (page.widthPx && page.heightPx) return page.heightPx / page.widthPx > 2.2 ? 'column' : 'auto'
  return 'auto'
}

export interface OcrPool {
  /**
   * Reads one page: an image file (PNG, JPEG…) or decoded pixels. `pageWidthPt` is the page's
   * width in points when known (a PDF page), so the image's resolution is known too.
   */
  recognize(image: Buffer | RawImage, hint?: OcrHint): Promise<PageText>
  /**
   * A second opinion on the letters of one line (ocr-letters.ts): `hint.region` in points, on
   * the page as levelled for `recognize`. Null when the page cannot be decoded here.
   */
  readLine?(image: Buffer | RawImage, hint: OcrHint & { region: OcrRegion }): Promise<LineReading | null>
  close(): Promise<void>
}

/** Resolution tesseract reads best at (text x-height ~20 px); lower-resolution scans are upsampled. */
const TARGET_DPI = 300
const MAX_SCALE = 2.5
/** The closer reading's resolution and ink darkening (OcrHint.enhance). */
const ENHANCED_DPI = 400
const ENHANCED_GAMMA = 3
/** A strip of a page read again (OcrHint.region): enlarged further, small as it is. */
const REGION_DPI = 500
const REGION_MAX_SCALE = 3.5
/** Upsampling stops at this many pixels (memory and time of one page). */
const MAX_PIXELS = 40_000_000

/** The resolution a JPEG records in its JFIF header, when any. */
function jfifDpi(data: Buffer): number | undefined {
  if (data[0] !== 0xff || data[1] !== 0xd8 || data.toString('latin1', 6, 11) !== 'JFIF\u0000')
    return undefined
  const units = data[13]
  const density = data.readUInt16BE(14)
  if (units === 1) return density
  if (units === 2) return Math.round(density * 2.54)
  return undefined
}

/**
 * The page's resolution: from the PDF page size, else from the file's own record, else as if
 * the image were a full A4 / Letter width (8.3 in), which scans of invoices nearly always are.
 */
function resolutionOf(width: number, recorded: number | undefined, pageWidthPt?: number): number {
  if (pageWidthPt && pageWidthPt > 0) return (width * 72) / pageWidthPt
  if (recorded && recorded >= 100 && recorded <= 1200) return recorded
  return width / 8.27
}

/** Grey pixels as a binary PGM, which leptonica reads without decompression. */
function encodePgm(width: number, height: number, pixels: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`, 'latin1'), pixels])
}

/** Workers start on first use and stay warm; `size` recognitions run at once. */
export function createOcrPool(size = 1): OcrPool {
  let scheduler: Promise<Tesseract.Scheduler> | null = null
  let germanScheduler: Promise<Tesseract.Scheduler> | null = null
  let lineReader: LineReader | null = null
  const languages = languageDirectory()
  const start = async (codes: string[], workers: number) => {
    const s = Tesseract.createScheduler()
    for (let i = 0; i < workers; i++) {
      const worker = await Tesseract.createWorker(codes, Tesseract.OEM.LSTM_ONLY, {
        langPath: languages.dir,
        cacheMethod: 'none',
        gzip: true,
        // Without a handler tesseract.js rethrows a failed job's error from its message
        // listener, where nothing can catch it (the process dies) on top of rejecting the job.
        errorHandler: () => {},
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
    async recognize(image, hint = {}) {
      scheduler ??= start(['eng', 'fra'], size)
      const s = await scheduler
      let raw: RawImage | null = Buffer.isBuffer(image) ? decodePng(image) : image
      if (!raw && Buffer.isBuffer(image)) {
        // Any other format: tesseract's own decoder (leptonica) hands back the grey page.
        const decoded = (await s.addJob(
          'recognize',
          image,
          {},
          {
            text: false,
            imageGrey: true,
          },
        )) as Tesseract.RecognizeResult
        const url = decoded.data.imageGrey
        raw = url ? decodePng(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')) : null
        if (raw) raw.dpi = jfifDpi(image)
      }
      if (!raw) throw new Error('The image cannot be decoded')
      const dpi = resolutionOf(raw.width, raw.dpi, hint.pageWidthPt)
      const { page, scale, offset } = preparePage(levelled(image, raw, dpi), dpi, hint)
      const layout =
        hint.layout ?? defaultLayout({ widthPt: hint.pageWidthPt, widthPx: raw.width, heightPx: raw.height })
      const mode =
        hint.region || layout === 'block'
          ? Tesseract.PSM.SINGLE_BLOCK
          : layout === 'column'
            ? Tesseract.PSM.SINGLE_COLUMN
            : Tesseract.PSM.AUTO
      const pgm = encodePgm(page.width, page.height, page.pixels)
      const run = async (on: Tesseract.Scheduler) => {
        const result = (await on.addJob(
          'recognize',
          pgm,
          {
            user_defined_dpi: String(Math.round(dpi * scale)),
            tessedit_pageseg_mode: mode,
          } as Partial<Tesseract.RecognizeOptions>,
          { blocks: true, text: false },
        )) as Tesseract.RecognizeResult
        // Coordinates in points (1/72 in), as the PDF text layer gives them.
        // A strip is read for one value: its doubtful words are kept (a candidate, not noise).
        const read = toPage(result.data, page, 72 / (dpi * scale), hint.region ? 0 : MIN_CONFIDENCE)
        return { ...(offset ? shifted(read, offset) : read), layout }
      }
      const german = () => {
        germanScheduler ??= start(['deu', 'eng'], 1)
        return germanScheduler
      }
      if (germanPages.has(image)) return run(await german())
      const read = await run(s)
      // A page in German is read again with the German model (when installed): mixing it into
      // every reading costs English receipts their letters and digits.
      if (!languages.german || hint.region || !readsGerman(read)) return read
      germanPages.add(image)
      return run(await german())
    },
    async readLine(image, hint) {
      let page = levelledPages.get(image)
      if (!page) {
        // (A page read from a cache of readings: levelled here. A JPEG needs tesseract's decoder.)
        const raw = Buffer.isBuffer(image) ? decodePng(image) : image
        if (!raw) return null
        page = levelled(image, raw, resolutionOf(raw.width, raw.dpi, hint.pageWidthPt))
      }
      const line = lineImage(page, hint.region)
      if (!line) return null
      const tight = tightLine(line.grey, line.width, line.height)
      if (!tight) return null
      lineReader ??= createLineReader()
      return lineReader.read(tight.grey, tight.width, tight.height)
    },
    async close() {
      if (scheduler) await (await scheduler).terminate()
      if (germanScheduler) await (await germanScheduler).terminate()
      scheduler = null
      germanScheduler = null
    },
  }
}

/** The skew estimate reads the page at most this wide (pixels): enough for the angle, and fast. */
const SKEW_WIDTH = 1000

interface LevelledPage {
  width: number
  height: number
  grey: Uint8Array
  dpi: number
}

/** The pages a first reading found in German: their other readings (strips, layouts) use the German model too. */
const germanPages = new WeakSet<object>()

/** A page whose first reading prints at least two labels only German prints ("Summe", "MwSt", "Rückgeld"). */
function readsGerman(page: PageText): boolean {
  return languageLabels(page.lines.map((l) => l.text).join('\n'), 'de') >= 2
}

/** Each page's grey levelled image, kept while the page is (its readings, strips included, share it). */
const levelledPages = new WeakMap<object, LevelledPage>()

/**
 * The page in grey, levelled when it was scanned or photographed askew (deskew.ts), so every
 * reading of the page (the first, the closer one, the block, the strips) sees the same level lines and
 * their coordinates agree.
 */
function levelled(key: object, raw: RawImage, dpi: number): LevelledPage {
  const known = levelledPages.get(key)
  if (known && known.width === raw.width && known.height === raw.height) return { ...known, dpi }
  const { width, height } = raw
  let grey = toGrey(raw)
  const scale = Math.min(1, SKEW_WIDTH / width)
  const small = scale < 1 ? resizeGrey(grey, width, height, scale) : { width, height, pixels: grey }
  const angle = estimateSkew(
    normalizeContrast(small.pixels, small.width, small.height),
    small.width,
    small.height,
  )
  if (angle !== 0) grey = rotateGrey(grey, width, height, angle)
  const page: LevelledPage = { width, height, grey, dpi }
  levelledPages.set(key, page)
  return page
}

/** A region of the page in its pixels, within the page; null when smaller than 8 × 8 pixels. */
function regionBox(page: LevelledPage, region: OcrRegion) {
  const px = page.dpi / 72
  const box = {
    x0: Math.max(0, Math.floor(region.x0 * px)),
    y0: Math.max(0, Math.floor(region.y0 * px)),
    x1: Math.min(page.width, Math.ceil(region.x1 * px)),
    y1: Math.min(page.height, Math.ceil(region.y1 * px)),
  }
  return box.x1 - box.x0 >= 8 && box.y1 - box.y0 >= 8 ? box : null
}

/** One line of a levelled page, cut out in grey (paper flattened to white), for the line reader. */
function lineImage(page: LevelledPage, region: OcrRegion) {
  const box = regionBox(page, region)
  if (!box) return null
  const line = cropGrey(page.grey, page.width, box)
  return { ...line, grey: normalizeContrast(line.grey, line.width, line.height, 1) }
}

/**
 * The page as tesseract gets it: grey (levelled), contrast normalised, resampled towards the
 * target resolution; for a `region`, only that strip of the page (its offset in points returned).
 */
function preparePage(levelledPage: LevelledPage, dpi: number, hint: OcrHint) {
  let { grey, width, height } = levelledPage
  let offset: { x: number; y: number } | null = null
  const box = hint.region ? regionBox(levelledPage, hint.region) : null
  if (box) {
    ;({ grey, width, height } = cropGrey(grey, width, box))
    offset = { x: (box.x0 * 72) / dpi, y: (box.y0 * 72) / dpi }
  }
  const target = hint.region ? REGION_DPI : hint.enhance ? ENHANCED_DPI : TARGET_DPI
  const maxScale = hint.region ? REGION_MAX_SCALE : MAX_SCALE
  const scale =
    dpi < target * 0.85
      ? Math.max(1, Math.min(maxScale, target / dpi, Math.sqrt(MAX_PIXELS / (width * height))))
      : 1
  const normalised = normalizeContrast(grey, width, height, hint.enhance || hint.region ? ENHANCED_GAMMA : 2)
  const page =
    scale === 1 ? { width, height, pixels: normalised } : resizeGrey(normalised, width, height, scale)
  return { page, scale, offset }
}

/** A region's reading placed back on its page. */
function shifted(page: PageText, offset: { x: number; y: number }): PageText {
  return {
    ...page,
    lines: page.lines.map((l) => ({
      ...l,
      y: l.y + offset.y,
      x0: l.x0 + offset.x,
      x1: l.x1 + offset.x,
      segments: l.segments.map((seg) => ({ ...seg, x0: seg.x0 + offset.x, x1: seg.x1 + offset.x })),
    })),
  }
}

/** Words tesseract is less sure of than this (0–100) are specks, dropped from a page's reading. */
const MIN_CONFIDENCE = 20

/** Confusions tesseract makes on these documents' fonts: ß read as B at the end of "-straße". */
function fixOcrWord(word: string): string {
  return word.replace(/(\p{Ll})B(e)\b/gu, '$1ß$2')
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? 0
}

/**
 * A word box spans about three quarters of the font size (cap or ascender height to baseline,
 * descenders in some words): segment sizes are given as font sizes, as in the text layer.
 */
export const EM_PER_WORD_HEIGHT = 1.3

interface OcrLine extends Line {
  /** Vertical centre of the words, in pixels. */
  centre: number
}

/**
 * Tesseract's lines as positioned lines: words closer than ~1.5 character heights form a
 * segment (as in the text layer); a line's height is the median height of its words (line
 * boxes are inflated by stray marks), and lines of different blocks on one row are merged.
 */
function toPage(
  data: Tesseract.Page,
  size: { width: number; height: number },
  unit: number,
  minConfidence: number,
): PageText {
  const lines: OcrLine[] = []
  let width = 0
  let height = 0
  for (const block of data.blocks ?? []) {
    width = Math.max(width, block.bbox.x1)
    height = Math.max(height, block.bbox.y1)
    for (const para of block.paragraphs) {
      for (const l of para.lines) {
        const words = l.words.filter((w) => w.text.trim() !== '' && w.confidence > minConfidence)
        if (words.length === 0) continue
        const legible = words.filter((w) => /[\p{L}\d]/u.test(w.text))
        const basis = legible.length > 0 ? legible : words
        const wordHeight = Math.max(8, median(basis.map((w) => w.bbox.y1 - w.bbox.y0)))
        const centre = median(basis.map((w) => (w.bbox.y0 + w.bbox.y1) / 2))
        const segments: Segment[] = []
        for (const raw of words) {
          const w = { ...raw, text: fixOcrWord(raw.text.trim()) }
          const last = segments[segments.length - 1]
          if (last && w.bbox.x0 - last.x1 < wordHeight * 1.6) {
            last.text += ` ${w.text}`
            last.x1 = w.bbox.x1
            last.confidence?.push(Math.round(w.confidence))
          } else {
            segments.push({
              text: w.text,
              x0: w.bbox.x0,
              x1: w.bbox.x1,
              size: wordHeight * EM_PER_WORD_HEIGHT,
              confidence: [Math.round(w.confidence)],
            })
          }
        }
        lines.push({
          page: 1,
          y: centre - wordHeight / 2,
          centre,
          x0: segments[0]!.x0,
          x1: segments[segments.length - 1]!.x1,
          segments,
          text: segments.map((s) => s.text).join('  '),
        })
      }
    }
  }
  // Blocks are read column by column; the rules expect top-to-bottom lines across columns.
  // A line joins the row of an earlier one when their centres are within half a line and
  // they share no column (two lines in one column are two lines, however close).
  lines.sort((a, b) => a.centre - b.centre || a.x0 - b.x0)
  const merged: OcrLine[] = []
  for (const line of lines) {
    const h = line.segments[0]!.size / EM_PER_WORD_HEIGHT
    const row = merged
      .slice(-4)
      .reverse()
      .find(
        (m) =>
          Math.abs(m.centre - line.centre) < Math.min(h, m.segments[0]!.size / EM_PER_WORD_HEIGHT) * 0.5 &&
          !m.segments.some((a) => line.segments.some((b) => a.x0 <= b.x1 && b.x0 <= a.x1)),
      )
    if (row) {
      row.segments.push(...line.segments)
      row.segments.sort((a, b) => a.x0 - b.x0)
      row.x0 = row.segments[0]!.x0
      row.x1 = Math.max(row.x1, line.x1)
      row.y = Math.min(row.y, line.y)
      row.text = row.segments.map((s) => s.text).join('  ')
    } else merged.push(line)
  }
  merged.sort((a, b) => a.y - b.y || a.x0 - b.x0)
  const out: Line[] = merged.map(({ centre: _, ...line }) => ({
    ...line,
    y: line.y * unit,
    x0: line.x0 * unit,
    x1: line.x1 * unit,
    segments: line.segments.map((seg) => ({
      ...seg,
      x0: seg.x0 * unit,
      x1: seg.x1 * unit,
      size: seg.size * unit,
    })),
  }))
  return {
    page: 1,
    width: (size.width || width || 1) * unit,
    height: (size.height || height || 1) * unit,
    lines: out,
  }
}

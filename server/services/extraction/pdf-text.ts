/**
 * The PDF text layer as positioned lines: text items grouped by baseline and ordered by x, so
 * two-column blocks (supplier | customer, label | value) stay apart as segments of a line.
 */
import { getDocumentProxy, getResolvedPDFJS } from 'unpdf'
import { tooManyPages } from './limits.ts'
import type { RawImage } from './png.ts'

export interface Segment {
  text: string
  x0: number
  x1: number
  /** Font height in points (OCR: line height). */
  size: number
  /**
   * OCR only: the recogniser's confidence (0–100) in each word of `text` (its words split on
   * single spaces), so a doubtful word can be checked or read again.
   */
  confidence?: number[]
}

export interface Line {
  page: number
  /** Top of the line, from the top of the page, in points (OCR: pixels scaled to points). */
  y: number
  x0: number
  x1: number
  segments: Segment[]
  text: string
}

export interface PageText {
  page: number
  width: number
  height: number
  lines: Line[]
  /** OCR only: the segmentation the page was read with (`OcrLayout`, ocr.ts). */
  layout?: 'auto' | 'column' | 'block'
}

interface RawItem {
  str: string
  x: number
  y: number
  w: number
  h: number
}

/** Items of one page into lines; a horizontal gap wider than ~1.5 em starts a new segment. */
function itemsToLines(items: RawItem[], page: number): Line[] {
  const sorted = items.filter((i) => i.str.trim() !== '').sort((a, b) => a.y - b.y || a.x - b.x)
  const rows: RawItem[][] = []
  for (const item of sorted) {
    const row = rows.find((r) => Math.abs(r[0]!.y - item.y) <= Math.max(2, Math.min(r[0]!.h, item.h) * 0.45))
    if (row) row.push(item)
    else rows.push([item])
  }
  const lines: Line[] = []
  for (const row of rows) {
    row.sort((a, b) => a.x - b.x)
    const segments: Segment[] = []
    for (const item of row) {
      const last = segments[segments.length - 1]
      const em = Math.max(item.h, 4)
      if (last && item.x - last.x1 < em * 1.5) {
        const gap = item.x - last.x1
        last.text +=
          (gap > em * 0.15 && !last.text.endsWith(' ') && !item.str.startsWith(' ') ? ' ' : '') + item.str
        last.x1 = Math.max(last.x1, item.x + item.w)
        last.size = Math.max(last.size, item.h)
      } else {
        segments.push({ text: item.str, x0: item.x, x1: item.x + item.w, size: item.h })
      }
    }
    for (const s of segments) s.text = s.text.replace(/\s+/g, ' ').trim()
    const kept = segments.filter((s) => s.text !== '')
    if (kept.length === 0) continue
    lines.push({
      page,
      y: Math.min(...row.map((i) => i.y)),
      x0: kept[0]!.x0,
      x1: kept[kept.length - 1]!.x1,
      segments: kept,
      text: kept.map((s) => s.text).join('  '),
    })
  }
  return lines.sort((a, b) => a.y - b.y || a.x0 - b.x0)
}

export interface PdfText {
  pages: PageText[]
  /** Pages whose text layer is empty (to be OCRed). */
  emptyPages: number[]
  /** The largest image of a page as pixels, for OCR; null when the page has none. */
  pageImage(page: number): Promise<RawImage | null>
  /** The files embedded in the PDF (its /EmbeddedFiles name tree), by file name. */
  attachments(): Promise<{ filename: string; content: Uint8Array }[]>
  close(): Promise<void>
}

export interface ReadPdfOptions {
  /** More pages than this: refused with `too_many_pages` before any page is read. */
  maxPages?: number
  /** Images declaring more pixels are skipped by pdf.js before decoding (its `maxImageSize`). */
  maxImagePixels?: number
  /** Called as each page's text layer is read (a watchdog times pages). */
  onPage?: (page: number) => void
}

/** Opens a PDF and reads each page's text layer. Throws on a file pdf.js cannot parse. */
export async function readPdf(data: Uint8Array, options: ReadPdfOptions = {}): Promise<PdfText> {
  // pdf.js takes over (detaches) the buffer it is given and refuses Buffers: it gets a plain
  // copy, the caller keeps `data`.
  const pdf = await getDocumentProxy(new Uint8Array(data), { maxImageSize: options.maxImagePixels ?? -1 })
  // The page count is the page tree's /Count, read without loading any page.
  if (options.maxPages !== undefined && pdf.numPages > options.maxPages) {
    await pdf.destroy()
    throw tooManyPages(pdf.numPages, options.maxPages)
  }
  const pages: PageText[] = []
  const emptyPages: number[] = []
  for (let n = 1; n <= pdf.numPages; n++) {
    options.onPage?.(n)
    const page = await pdf.getPage(n)
    const viewport = page.getViewport({ scale: 1 })
    const content = await page.getTextContent()
    const items: RawItem[] = []
    for (const item of content.items) {
      if (!('str' in item)) continue
      const [, , , d = 0, e = 0, f = 0] = item.transform as number[]
      const h = Math.abs(d) || item.height || 10
      items.push({ str: item.str, x: e, y: viewport.height - f - h, w: item.width, h })
    }
    const lines = itemsToLines(items, n)
    if (lines.length === 0) emptyPages.push(n)
    pages.push({ page: n, width: viewport.width, height: viewport.height, lines })
  }
  return {
    pages,
    emptyPages,
    async pageImage(n) {
      const page = await pdf.getPage(n)
      const ops = await page.getOperatorList()
      const { OPS } = await getResolvedPDFJS()
      let largest: RawImage | null = null
      const resolve = (key: string) =>
        new Promise<unknown>((done) => (key.startsWith('g_') ? page.commonObjs : page.objs).get(key, done))
      for (let i = 0; i < ops.fnArray.length; i++) {
        const op = ops.fnArray[i]
        const arg = ops.argsArray[i]?.[0]
        let image: unknown
        if (op === OPS.paintImageXObject) image = await resolve(arg as string)
        else if (op === OPS.paintInlineImageXObject) image = arg
        else if (op === OPS.paintImageMaskXObject) {
          // A stencil mask's bits are stored apart, under the key its `data` names.
          const data = (arg as { data?: unknown } | undefined)?.data
          image = typeof data === 'string' ? await resolve(data) : arg
        } else continue
        const raw = imagePixels(image)
        if (raw && (!largest || raw.width * raw.height > largest.width * largest.height)) largest = raw
      }
      return largest
    },
    async attachments() {
      const found = ((await pdf.getAttachments()) ?? {}) as Record<
        string,
        { filename?: string; content?: Uint8Array }
      >
      return Object.entries(found)
        .filter(([, a]) => a.content instanceof Uint8Array)
        .map(([name, a]) => ({ filename: a.filename ?? name, content: a.content! }))
    },
    close: () => pdf.destroy(),
  }
}

/**
 * A decoded pdf.js image as pixels: 8-bit grey, RGB or RGBA, or 1 bit per pixel (office
 * scanners' CCITT / JBIG2 pages and stencil masks, rows padded to a byte) expanded to grey.
 */
function imagePixels(image: unknown): RawImage | null {
  const img = image as { width?: number; height?: number; data?: Uint8Array | Uint8ClampedArray } | null
  if (!img?.data || !img.width || !img.height) return null
  const { width, height, data } = img
  const n = width * height
  const channels = data.length / n
  if (channels === 1 || channels === 3 || channels === 4)
    return { width, height, channels, pixels: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) }
  const stride = Math.ceil(width / 8)
  if (data.length !== stride * height) return null
  const pixels = new Uint8Array(n)
  let set = 0
  for (let y = 0; y < height; y++) {
    const row = y * stride
    for (let x = 0; x < width; x++) {
      const on = data[row + (x >> 3)]! & (0x80 >> (x & 7))
      pixels[y * width + x] = on ? 255 : 0
      if (on) set++
    }
  }
  // A page is mostly paper: whichever value most pixels have is white (stencil masks and
  // Decode arrays flip the meaning of a bit).
  if (set < n / 2) for (let i = 0; i < n; i++) pixels[i] = 255 - pixels[i]!
  return { width, height, channels: 1, pixels }
}

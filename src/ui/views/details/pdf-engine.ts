/**
 * pdf.js behind the preview: opening a PDF, a page's words with their boxes (click-to-fill), and
 * drawing a page on a canvas with its text layer (selection). pdf.js is imported on first use, a
 * chunk of its own that only the detail dialog loads; its worker is a file of the build.
 */
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url'
import { loadOnce } from '../../../api/code-chunks'
import type { PdfEngine } from '../../../machines/details/document-preview.implementations'
import type { PreviewWord } from '../../../machines/details/document-preview.machine'

type PdfJs = typeof import('pdfjs-dist')
type PdfDocument = import('pdfjs-dist').PDFDocumentProxy

const pdfjs = loadOnce<PdfJs>(() =>
  import('pdfjs-dist').then((lib) => {
    lib.GlobalWorkerOptions.workerSrc = workerUrl
    return lib
  }),
)

const clamp = (n: number) => Math.min(1, Math.max(0, n))

/** A text item's words, each given its share of the item's width by its characters. */
async function pageWords(handle: unknown, pageNumber: number): Promise<PreviewWord[]> {
  const lib = await pdfjs()
  const page = await (handle as PdfDocument).getPage(pageNumber)
  const viewport = page.getViewport({ scale: 1 })
  const content = await page.getTextContent()
  const words: PreviewWord[] = []
  for (const item of content.items) {
    if (!('str' in item) || !item.str.trim()) continue
    const [, , c, d, left, baseline] = lib.Util.transform(viewport.transform, item.transform) as number[]
    const height = Math.hypot(c!, d!)
    const top = baseline! - height * 0.85
    const bottom = baseline! + height * 0.2
    for (const match of item.str.matchAll(/\S+/g)) {
      const from = match.index / item.str.length
      const to = (match.index + match[0].length) / item.str.length
      words.push({
        text: match[0],
        box: [
          clamp((left! + item.width * from) / viewport.width),
          clamp(top / viewport.height),
          clamp((left! + item.width * to) / viewport.width),
          clamp(bottom / viewport.height),
        ],
      })
    }
  }
  return words
}

export const pdfEngine: PdfEngine = {
  open: async (original) => {
    const lib = await pdfjs()
    const data = new Uint8Array(await original.arrayBuffer())
    const handle = await lib.getDocument({ data, isEvalSupported: false }).promise
    return { pageCount: handle.numPages, handle }
  },
  words: pageWords,
}

/** A page being drawn: `done` settles once canvas and text layer are there; `cancel` stops it. */
export type PageDrawing = { done: Promise<{ width: number; height: number }>; cancel: () => void }

/** Draws a page `width` CSS pixels wide on `canvas`, and its text layer in `textLayer`. */
export function drawPdfPage(
  handle: unknown,
  pageNumber: number,
  target: { canvas: HTMLCanvasElement; textLayer: HTMLElement; width: number },
): PageDrawing {
  let cancelled = false
  const cancels: (() => void)[] = []
  const done = (async () => {
    const lib = await pdfjs()
    try {
      return await drawInto(lib, handle, pageNumber, target, { cancels, cancelled: () => cancelled })
    } finally {
      // pdf.js measures text on a hidden canvas it appends to the body: removed once no layer is pending.
      lib.TextLayer.cleanup()
    }
  })()
  return {
    done,
    cancel: () => {
      cancelled = true
      for (const cancel of cancels) cancel()
    },
  }
}

async function drawInto(
  lib: PdfJs,
  handle: unknown,
  pageNumber: number,
  target: { canvas: HTMLCanvasElement; textLayer: HTMLElement; width: number },
  run: { cancels: (() => void)[]; cancelled: () => boolean },
) {
  const { cancels } = run
  const page = await (handle as PdfDocument).getPage(pageNumber)
  const scale = target.width / page.getViewport({ scale: 1 }).width
  const viewport = page.getViewport({ scale })
  const ratio = window.devicePixelRatio || 1
  const { canvas, textLayer } = target
  canvas.width = Math.floor(viewport.width * ratio)
  canvas.height = Math.floor(viewport.height * ratio)
  canvas.style.width = `${viewport.width}px`
  canvas.style.height = `${viewport.height}px`
  const context = canvas.getContext('2d')
  if (!context || run.cancelled()) return { width: viewport.width, height: viewport.height }
  const render = page.render({
    canvas,
    canvasContext: context,
    viewport,
    ...(ratio === 1 ? {} : { transform: [ratio, 0, 0, ratio, 0, 0] }),
  })
  cancels.push(() => render.cancel())
  await render.promise
  if (run.cancelled()) return { width: viewport.width, height: viewport.height }
  textLayer.replaceChildren()
  textLayer.style.setProperty('--total-scale-factor', String(scale))
  const layer = new lib.TextLayer({
    textContentSource: page.streamTextContent(),
    container: textLayer,
    viewport,
  })
  cancels.push(() => layer.cancel())
  await layer.render()
  return { width: viewport.width, height: viewport.height }
}

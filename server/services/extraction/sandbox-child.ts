/**
 * The sandbox process (forked by sandbox.ts): runs extractDocument, one document at a time, for
 * its parent over IPC. Everything that parses or decodes an uploaded file (pdf.js, the PNG
 * decoder, leptonica and tesseract in their WASM threads) runs here, so a file that crashes,
 * hangs or bloats them takes down this process only; the parent kills and replaces it.
 */
import { createOcrPool, extractDocument } from './index.ts'
import type { ChildMessage, ParentMessage } from './sandbox.ts'

const send = (message: ChildMessage) => {
  // The channel is gone when the parent died or killed us: nothing left to tell.
  if (process.connected) process.send?.(message)
}

const ocr = createOcrPool(Number(process.env.DOCFLOW_SANDBOX_OCR_WORKERS) || 1)
let current: number | null = null

process.on('message', (message: ParentMessage) => {
  if (message.type !== 'extract') return
  const { id, contentType, limits } = message
  // Arrives as a Buffer: the engine takes plain bytes (pdf.js refuses Buffers).
  const data = new Uint8Array(message.data.buffer, message.data.byteOffset, message.data.byteLength)
  current = id
  extractDocument(data, contentType, ocr, { limits, onPage: (page) => send({ type: 'page', id, page }) })
    .then((result) => send({ type: 'done', id, result }))
    .catch((error: Error & { code?: string }) =>
      send({ type: 'failed', id, error: { name: error.name, message: error.message, code: error.code } }),
    )
    .finally(() => {
      current = null
    })
})

// An error thrown where nobody awaits it (tesseract.js rejects inside its worker on some corrupt
// images) leaves this process in an unknown state: report it against the document and exit, the
// parent starts a fresh process.
const die = (error: unknown) => {
  const err = error instanceof Error ? error : new Error(String(error))
  send({ type: 'crashed', id: current, message: err.message })
  setImmediate(() => process.exit(70))
}
process.on('uncaughtException', die)
process.on('unhandledRejection', die)
// The parent went away (stopped or killed): nobody will read our results.
process.on('disconnect', () => process.exit(0))

// Without /proc the parent cannot read our memory: report it (while the event loop runs; OCR
// and its memory growth happen in worker threads, so it does).
if (process.env.DOCFLOW_SANDBOX_REPORT_RSS) {
  setInterval(() => send({ type: 'rss', rss: process.memoryUsage.rss() }), 100).unref()
}

send({ type: 'ready', pid: process.pid })

/**
 * HTTP compression: which encoding a client accepts (`negotiateEncoding`, shared with the static
 * files, which are compressed at build time), and `compressJson`, which compresses JSON answers
 * above 1 KiB on the fly with brotli or gzip (node:zlib). Hono's own `compress` middleware knows
 * gzip and deflate only, and compresses answers of unknown length whatever their size.
 *
 * Only JSON is compressed here: file downloads (PDF, JPEG, PNG: already compressed, streamed)
 * and images keep their bytes; request bodies (uploads) are never touched. An answer is held in
 * memory up to 1 MiB only (to send its length); a larger one (a streamed list) streams through
 * the compressor, so no answer's size is the server's memory.
 */
import { Readable, type Transform } from 'node:stream'
import { promisify } from 'node:util'
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib'
import type { MiddlewareHandler } from 'hono'

export type Encoding = 'br' | 'gzip'

/** Preferred first when the client gives both the same weight: brotli is smaller. */
export const ENCODINGS: readonly Encoding[] = ['br', 'gzip']

/** The file name suffix of each build-time compressed copy (scripts/precompress.ts writes them). */
export const PRECOMPRESSED_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' }

/** Answers smaller than this are sent as they are: compressing them saves less than it costs. */
const COMPRESS_THRESHOLD = 1024

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i

function weights(acceptEncoding: string): Map<string, number> {
  const result = new Map<string, number>()
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().split(';')
    if (!name) continue
    const q = params.map((p) => p.trim()).find((p) => /^q=/i.test(p))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    result.set(name.trim().toLowerCase(), Number.isFinite(weight) ? weight : 0)
  }
  return result
}

/**
 * The best of `available` (in order of preference) that `Accept-Encoding` allows, or null for
 * the identity. A missing header means no compression; `q=0` refuses; `*` stands for the others.
 */
export function negotiateEncoding(
  acceptEncoding: string | undefined,
  available: readonly Encoding[] = ENCODINGS,
): Encoding | null {
  if (!acceptEncoding) return null
  const accepted = weights(acceptEncoding)
  let best: { encoding: Encoding; q: number } | null = null
  for (const encoding of available) {
    const q = accepted.get(encoding) ?? accepted.get('*') ?? 0
    if (q > 0 && (!best || q > best.q)) best = { encoding, q }
  }
  return best?.encoding ?? null
}

/** `Vary` with `Accept-Encoding` added once. */
function varyOnEncoding(current: string | null): string {
  if (!current) return 'Accept-Encoding'
  if (current === '*' || /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(current)) return current
  return `${current}, Accept-Encoding`
}

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Fast settings for answers made per request (build-time files use the strongest ones). */
const BROTLI_PARAMS = {
  [constants.BROTLI_PARAM_QUALITY]: 5,
  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
}

function compressBody(body: Uint8Array, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, { params: { ...BROTLI_PARAMS, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } })
    : gzipAsync(body, { level: 6 })
}

/** Answers up to this size are compressed whole and sent with their length; larger ones stream. */
const WHOLE_LIMIT = 1024 * 1024

/** The first chunks of a body, up to just past `limit` bytes; `rest` when the body goes on. */
async function readHead(body: ReadableStream<Uint8Array>, limit: number) {
  const reader = body.getReader()
  const head: Uint8Array[] = []
  let size = 0
  while (size <= limit) {
    const { done, value } = await reader.read()
    if (done) return { head: Buffer.concat(head), rest: null }
    head.push(value)
    size += value.byteLength
  }
  return { head: Buffer.concat(head), rest: reader }
}

/** The head, then the rest of the body, through the compressor (or as it is without one). */
function streamOn(
  head: Uint8Array,
  rest: ReadableStreamDefaultReader<Uint8Array>,
  encoding: Encoding | null,
): ReadableStream<Uint8Array> {
  async function* chunks() {
    yield head
    for (;;) {
      const { done, value } = await rest.read()
      if (done) return
      yield value
    }
  }
  const source = Readable.from(chunks(), { objectMode: false })
  if (!encoding) return Readable.toWeb(source) as ReadableStream<Uint8Array>
  const compressor: Transform =
    encoding === 'br' ? createBrotliCompress({ params: BROTLI_PARAMS }) : createGzip({ level: 6 })
  source.on('error', (error) => compressor.destroy(error))
  source.pipe(compressor)
  return Readable.toWeb(compressor) as ReadableStream<Uint8Array>
}

const UNCOMPRESSIBLE_STATUS = new Set([204, 206, 304])

/**
 * Compresses JSON answers of at least `threshold` bytes with the encoding the client prefers
 * (`Vary: Accept-Encoding` on every such answer, compressed or not), with their `Content-Length`
 * up to WHOLE_LIMIT, streamed beyond. A HEAD request gets the headers its GET would have.
 */
export function compressJson(threshold = COMPRESS_THRESHOLD): MiddlewareHandler {
  return async (c, next) => {
    await next()
    const res = c.res
    if (!res.body || UNCOMPRESSIBLE_STATUS.has(res.status) || res.headers.has('Content-Encoding')) return
    if (!JSON_TYPE.test(res.headers.get('Content-Type') ?? '')) return
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get('Cache-Control') ?? '')) return
    const { head: body, rest } = await readHead(res.body, WHOLE_LIMIT)
    const headers = new Headers(res.headers)
    if (rest) {
      const encoding = negotiateEncoding(c.req.header('Accept-Encoding'))
      headers.set('Vary', varyOnEncoding(headers.get('Vary')))
      headers.delete('Content-Length')
      if (encoding) headers.set('Content-Encoding', encoding)
      c.res = undefined
      c.res = new Response(streamOn(body, rest, encoding), { status: res.status, headers })
      return
    }
    let sent: Uint8Array = body
    if (body.byteLength >= threshold) {
      headers.set('Vary', varyOnEncoding(headers.get('Vary')))
      const encoding = negotiateEncoding(c.req.header('Accept-Encoding'))
      if (encoding) {
        sent = await compressBody(body, encoding)
        headers.set('Content-Encoding', encoding)
      }
    }
    headers.set('Content-Length', String(sent.byteLength))
    // Cleared first: Hono's setter would otherwise copy the old answer's headers over the new ones.
    c.res = undefined
    c.res = new Response(sent as Uint8Array<ArrayBuffer>, {
      status: res.status,
      statusText: res.statusText,
      headers,
    })
  }
}

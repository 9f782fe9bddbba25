/**
 * Bytes a browser receives for a page's document and assets, fetched again from the server with
 * `Accept-Encoding: br, gzip` (what browsers send), with `gzip` alone and uncompressed: node:http does not decode, so the body counted is
 * what travelled. Used by `npm run bench:bundle`.
 */
import { request } from 'node:http'

export interface WireSize {
  path: string
  encoding: string
  identity: number
  encoded: number
  /** With `Accept-Encoding: gzip` only (clients without brotli). */
  gzip: number
}

function bodyBytes(url: string, acceptEncoding: string | null): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {}
    const req = request(url, { headers }, (res) => {
      let bytes = 0
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length
      })
      res.on('end', () => resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** Each URL fetched three times: as sent to `br, gzip`, to `gzip` and uncompressed. */
export async function wireSizes(urls: readonly string[]): Promise<WireSize[]> {
  const sizes: WireSize[] = []
  for (const url of urls) {
    const encoded = await bodyBytes(url, 'br, gzip')
    const gzip = await bodyBytes(url, 'gzip')
    const identity = await bodyBytes(url, null)
    sizes.push({
      gzip: gzip.bytes,
      path: new URL(url).pathname,
      encoding: encoded.encoding,
      identity: identity.bytes,
      encoded: encoded.bytes,
    })
  }
  return sizes
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1).padStart(7)} KiB`

export function printWire(label: string, sizes: readonly WireSize[]) {
  console.log(`\n${label}: bytes over the wire (Accept-Encoding: br, gzip), document + JS + CSS + catalog`)
  for (const s of [...sizes].sort((a, b) => b.identity - a.identity)) {
    console.log(
      `  ${kib(s.encoded)} ${s.encoding.padEnd(8)} (gzip ${kib(s.gzip).trim()}, uncompressed ${kib(s.identity).trim()})  ${s.path}`,
    )
  }
  const encoded = sizes.reduce((a, s) => a + s.encoded, 0)
  const gzip = sizes.reduce((a, s) => a + s.gzip, 0)
  const identity = sizes.reduce((a, s) => a + s.identity, 0)
  console.log(
    `${label} wire total: ${kib(encoded).trim()} br (gzip ${kib(gzip).trim()}, uncompressed ${kib(identity).trim()})`,
  )
}

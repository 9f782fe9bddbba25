/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside each text file
 * of a built directory, for the server to send as they are (server/http/static.ts). A copy that
 * would not be smaller than its file is not written; source maps are skipped (only developer
 * tools load them).
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { PRECOMPRESSED_SUFFIX } from '../server/http/compression.ts'

const COMPRESSIBLE = /\.(?:html|js|mjs|css|json|svg|txt|xml|webmanifest|wasm)$/i
/** Below this, headers and framing outweigh what compression saves. */
const MIN_BYTES = 256

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
}

export interface PrecompressResult {
  files: number
  bytes: number
  brotliBytes: number
  gzipBytes: number
}

/** Compresses every compressible file under `dir`, replacing stale copies; returns the totals. */
export async function precompressDirectory(dir: string): Promise<PrecompressResult> {
  const all = await filesUnder(dir)
  // Copies of an earlier build (or of a file now too small) are removed before writing anew.
  const suffixes = Object.values(PRECOMPRESSED_SUFFIX)
  await Promise.all(all.filter((f) => suffixes.some((s) => f.endsWith(s))).map((f) => rm(f, { force: true })))
  const result: PrecompressResult = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 }
  for (const file of all.filter((f) => COMPRESSIBLE.test(f))) {
    const body = await readFile(file)
    if (body.byteLength < MIN_BYTES) continue
    const [br, gz] = await Promise.all([
      brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        },
      }),
      gzipAsync(body, { level: 9 }),
    ])
    result.files++
    result.bytes += body.byteLength
    if (br.byteLength < body.byteLength) await writeFile(file + PRECOMPRESSED_SUFFIX.br, br)
    if (gz.byteLength < body.byteLength) await writeFile(file + PRECOMPRESSED_SUFFIX.gzip, gz)
    result.brotliBytes += Math.min(br.byteLength, body.byteLength)
    result.gzipBytes += Math.min(gz.byteLength, body.byteLength)
  }
  return result
}

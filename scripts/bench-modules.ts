/**
 * The biggest source modules inside built chunks, from their source maps: where a page's
 * JavaScript comes from, to decide what to split off or load later.
 * `node --import tsx scripts/bench-modules.ts [chunk-name-prefix…]` (after `npm run build`); without
 * arguments, the chunks index.html loads up front (its script and its modulepreload links).
 * `MODULES_TOP=40` shows more modules per chunk.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const dist = fileURLToPath(new URL('../dist', import.meta.url))
const TOP = Number(process.env.MODULES_TOP ?? 15)

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** One line of a source map's `mappings`: per segment, its generated column and source index. */
function decodeLine(line: string, state: { source: number }): { column: number; source: number }[] {
  const segments: { column: number; source: number }[] = []
  let column = 0
  for (const segment of line.split(',')) {
    if (!segment) continue
    const values: number[] = []
    let value = 0
    let shift = 0
    for (const char of segment) {
      const digit = BASE64.indexOf(char)
      value += (digit & 31) << shift
      if (digit & 32) shift += 5
      else {
        values.push(value & 1 ? -(value >>> 1) : value >>> 1)
        value = 0
        shift = 0
      }
    }
    column += values[0] ?? 0
    if (values.length > 1) state.source += values[1] ?? 0
    segments.push({ column, source: values.length > 1 ? state.source : -1 })
  }
  return segments
}

/** Bytes of generated code per source module of one chunk. */
async function modulesOf(file: string): Promise<Map<string, number>> {
  const code = await readFile(join(dist, 'assets', file), 'utf8')
  const sizes = new Map<string, number>()
  const text = await readFile(join(dist, 'assets', `${file}.map`), 'utf8').catch(() => null)
  if (text === null) return sizes.set('(no source map)', code.length)
  const map = JSON.parse(text) as { sources: string[]; mappings: string }
  const lines = code.split('\n')
  const state = { source: 0 }
  map.mappings.split(';').forEach((mapping, index) => {
    const segments = decodeLine(mapping, state)
    const length = lines[index]?.length ?? 0
    segments.forEach((segment, i) => {
      if (segment.source < 0) return
      const end = segments[i + 1]?.column ?? length
      const name = (map.sources[segment.source] ?? '?').replace(/^(\.\.\/)+/, '')
      sizes.set(name, (sizes.get(name) ?? 0) + Math.max(0, end - segment.column))
    })
  })
  return sizes
}

async function upFrontChunks(): Promise<string[]> {
  const html = await readFile(join(dist, 'index.html'), 'utf8')
  return [...html.matchAll(/\/assets\/([^"]+\.js)"/g)].map((m) => m[1] as string)
}

const files = (await readdir(join(dist, 'assets'))).filter((f) => f.endsWith('.js'))
const prefixes = process.argv.slice(2)
const chunks = prefixes.length
  ? files.filter((f) => prefixes.some((p) => f.startsWith(p)))
  : await upFrontChunks()

for (const chunk of chunks) {
  const sizes = await modulesOf(chunk)
  const total = [...sizes.values()].reduce((a, b) => a + b, 0)
  console.log(`\n${chunk}: ${(total / 1024).toFixed(1)} KiB mapped, ${sizes.size} modules`)
  for (const [name, size] of [...sizes].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`  ${(size / 1024).toFixed(1).padStart(7)} KiB  ${name}`)
  }
}

/** A directory of recognised pages in front of an OCR pool, for benches and fitting that re-read the same scans. */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { OcrPool } from '../../server/services/extraction/index.ts'

/** The pool, or the pool behind a directory of recognised pages keyed by the image's hash. */
export function cachedPool(pool: OcrPool, dir: string | undefined): OcrPool {
  if (!dir) return pool
  mkdirSync(dir, { recursive: true })
  return {
    async recognize(image, hint) {
      const hash = createHash('sha256')
      if (Buffer.isBuffer(image)) hash.update(image)
      else hash.update(`${image.width}x${image.height}x${image.channels}`).update(image.pixels)
      const file = join(dir, `${hash.update(JSON.stringify(hint ?? {})).digest('hex')}.json`)
      if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'))
      const page = await pool.recognize(image, hint)
      writeFileSync(file, JSON.stringify(page))
      return page
    },
    // (Not cached: the reader reads the page levelled by a first reading, which a cache hit skips.)
    readLine: pool.readLine?.bind(pool),
    close: () => pool.close(),
  }
}

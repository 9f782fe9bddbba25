/**
 * The Content-Security-Policy source for the inline scripts of the built index.html (its first
 * script starts the catalog and the session check early: see vite.config.ts's prefetch plugin):
 * one `'sha256-…'` per script, read from the file and computed again when the file changes.
 */
import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g

export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map(
    (match) =>
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '')
        .digest('base64')}'`,
  )
}

/** The CSP `script-src` value: `'self'` and the hashes of index.html's inline scripts, if any. */
export function indexScriptSources(staticDir: string): () => string {
  const file = join(staticDir, 'index.html')
  let seen = { mtimeMs: -1, sources: '' }
  return () => {
    const mtimeMs = statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0
    if (mtimeMs !== seen.mtimeMs) {
      const html = mtimeMs ? readFileSync(file, 'utf8') : ''
      seen = { mtimeMs, sources: ["'self'", ...inlineScriptHashes(html)].join(' ') }
    }
    return seen.sources
  }
}

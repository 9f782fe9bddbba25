/**
 * The browser app's files, the translation catalogs and the SPA fallback: everything outside
 * the API prefix. Paths are decoded once, any '.'/'..' segment or backslash is refused, and the
 * result must stay inside the root, so no request reaches a file outside it.
 */
import { readFile, stat } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import type { Context } from 'hono'
import { Hono } from 'hono'
import { getMimeType } from 'hono/utils/mime'
import { LANGUAGES } from '../../src/contract/index.ts'
import type { Config } from '../config.ts'
import type { AppEnv } from './context.ts'

const IMMUTABLE = 'public, max-age=31536000, immutable'

/** The absolute file for a URL path inside `root`, or null when the path is not acceptable. */
function safeJoin(root: string, urlPath: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null
  const segments = decoded.split('/').filter((s) => s !== '')
  if (segments.some((s) => s === '.' || s === '..')) return null
  const base = resolve(root)
  const file = resolve(base, ...segments)
  const rel = relative(base, file)
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || resolve(base, rel) !== file) return null
  return file
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

async function sendFile(c: Context, path: string, cacheControl: string, contentType?: string) {
  const body = await readFile(path)
  c.header('Content-Type', contentType ?? getMimeType(path) ?? 'application/octet-stream')
  c.header('Cache-Control', cacheControl)
  return c.body(body, 200)
}

export function publicRoutes(config: Pick<Config, 'staticDir' | 'localesDir'>) {
  const languages: readonly string[] = LANGUAGES
  return new Hono<AppEnv>()
    .get('/locales/:lng/common.json', async (c) => {
      const lng = c.req.param('lng')
      const file = languages.includes(lng) ? join(config.localesDir, lng, 'common.json') : null
      if (!file || !(await isFile(file))) return c.json({ message: 'Not found' }, 404)
      return sendFile(c, file, 'no-cache', 'application/json; charset=utf-8')
    })
    .get('*', async (c) => {
      const indexFile = join(config.staticDir, 'index.html')
      if (!(await isFile(indexFile))) {
        c.header('Cache-Control', 'no-store')
        return c.text(
          'The web application is not built yet: run `npm run build`, then restart the server.',
          503,
        )
      }
      const file = safeJoin(config.staticDir, c.req.path)
      if (file && (await isFile(file))) {
        const hashed = c.req.path.startsWith('/assets/')
        return sendFile(c, file, hashed ? IMMUTABLE : 'no-cache')
      }
      // A missing hashed asset is a real 404 (a stale tab), not the app's HTML under a .js name.
      if (c.req.path.startsWith('/assets/')) return c.json({ message: 'Not found' }, 404)
      return sendFile(c, indexFile, 'no-cache', 'text/html; charset=utf-8')
    })
}

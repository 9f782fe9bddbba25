/**
 * The browser app's files, the translation catalogs and the SPA fallback: everything outside
 * the API prefix. Paths are decoded once, any segment starting with '.' (so '.', '..' and hidden
 * files) or a backslash is refused, and the result must stay inside the root, so no request
 * reaches a file outside it.
 *
 * The build writes `<file>.br` and `<file>.gz` beside each compressible file
 * (scripts/precompress.ts); the one the client's `Accept-Encoding` prefers is sent, with
 * `Vary: Accept-Encoding`. Hashed assets (under /assets/) are cached for a year as immutable;
 * everything else (index.html, catalogs, favicon) is revalidated (`no-cache`) through its ETag.
 */
import { readFile, stat } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import type { Context } from 'hono'
import { Hono } from 'hono'
import { getMimeType } from 'hono/utils/mime'
import { LANGUAGES } from '../../contract/index.ts'
import type { Config } from '../config.ts'
import type { SessionService } from '../services/sessions.ts'
import { ENCODINGS, type Encoding, negotiateEncoding, PRECOMPRESSED_SUFFIX } from './compression.ts'
import type { AppEnv } from './context.ts'

const IMMUTABLE = 'public, max-age=31536000, immutable'

/** `robots.txt`: the app holds private data, so crawlers may only see the sign-in page. */
export const ROBOTS_TXT = 'User-agent: *\nAllow: /login\nDisallow: /\n'

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
  // '.' and '..' never; nor hidden files (the build's stamp of its inputs lives in dist/).
  if (segments.some((s) => s.startsWith('.'))) return null
  const base = resolve(root)
  const file = resolve(base, ...segments)
  const rel = relative(base, file)
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || resolve(base, rel) !== file) return null
  return file
}

async function fileStats(path: string) {
  try {
    const info = await stat(path)
    return info.isFile() ? info : null
  } catch {
    return null
  }
}

async function isFile(path: string): Promise<boolean> {
  return (await fileStats(path)) !== null
}

/** Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks for GET and HEAD). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false
  if (ifNoneMatch.trim() === '*') return true
  const strip = (tag: string) => tag.trim().replace(/^W\//, '')
  return ifNoneMatch.split(',').some((tag) => strip(tag) === strip(etag))
}

/**
 * One file, or the compressed copy the client prefers, with its type, length, cache policy and
 * ETag; 304 when the client's copy is current; no body read for HEAD.
 */
async function sendFile(c: Context, path: string, cacheControl: string, contentType?: string) {
  const copies: Encoding[] = []
  for (const encoding of ENCODINGS)
    if (await isFile(path + PRECOMPRESSED_SUFFIX[encoding])) copies.push(encoding)
  const encoding = negotiateEncoding(c.req.header('Accept-Encoding'), copies)
  const served = encoding ? path + PRECOMPRESSED_SUFFIX[encoding] : path
  const info = await fileStats(served)
  if (!info) return c.json({ message: 'Not found' }, 404)
  const etag = `"${info.size.toString(36)}-${Math.trunc(info.mtimeMs).toString(36)}${encoding ? `-${encoding}` : ''}"`
  c.header('Cache-Control', cacheControl)
  c.header('ETag', etag)
  if (copies.length > 0) c.header('Vary', 'Accept-Encoding', { append: true })
  // A 304 carries the validators and caching fields only (RFC 9110 §15.4.5), no body metadata.
  if (matches(c.req.header('If-None-Match'), etag)) return c.body(null, 304)
  c.header('Content-Type', contentType ?? getMimeType(path) ?? 'application/octet-stream')
  if (encoding) c.header('Content-Encoding', encoding)
  c.header('Content-Length', String(info.size))
  if (c.req.method === 'HEAD') return c.body(null, 200)
  return c.body(await readFile(served), 200)
}

/**
 * The page the build writes beside index.html for a browser that holds a live session: the same
 * app, marked `data-signed-in`, preloading the signed-in screens' chunks and asking for the user's
 * companies and settings at once (vite.config.ts's `prefetch`). `hasSession` decides (app.ts: the
 * cookie names a live session of an enabled user); the app's own session check still decides what
 * the page shows, so the choice only saves or spends a few requests.
 */
const SIGNED_IN_INDEX = 'index.signed-in.html'

/**
 * Whether a page request's session cookie names a live session of an enabled user (sliding its
 * expiry, as any signed-in request does). A stale cookie (expired, signed out elsewhere, user
 * disabled) is cleared: it would only fetch the signed-in screens' code and two calls that answer 401.
 */
export function liveSession(sessions: SessionService) {
  return async (c: Context): Promise<boolean> => {
    const live = await sessions.resolveCookie(c)
    // A stale cookie is cleared, so the next page is the plain one without asking again.
    if (live === null) sessions.clearCookie(c)
    return Boolean(live)
  }
}

export function publicRoutes(
  config: Pick<Config, 'staticDir' | 'localesDir'>,
  hasSession: (c: Context) => Promise<boolean> | boolean = () => false,
) {
  const languages: readonly string[] = LANGUAGES
  return new Hono<AppEnv>()
    .get('/robots.txt', (c) => {
      c.header('Cache-Control', 'public, max-age=86400')
      return c.text(ROBOTS_TXT)
    })
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
      // The page differs with the cookie: caches must keep one copy per cookie.
      c.header('Vary', 'Cookie')
      const signedIn = join(config.staticDir, SIGNED_IN_INDEX)
      const page = (await isFile(signedIn)) && (await hasSession(c)) ? signedIn : indexFile
      return sendFile(c, page, 'no-cache', 'text/html; charset=utf-8')
    })
}

import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import {
  ASSET_JS,
  createCookieJar,
  createTestApp,
  EN_CATALOG,
  INDEX_HTML,
  insertUser,
  jsonBody,
} from './helpers.ts'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createTestApp>>

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createTestApp(database.db)
})
afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "font-src 'self' data:; connect-src 'self'; frame-src 'self' blob:; object-src 'none'; base-uri 'self'; " +
  "form-action 'self'; frame-ancestors 'none'"

function expectSecurityHeaders(res: Response) {
  expect(res.headers.get('content-security-policy')).toBe(CSP)
  expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  expect(res.headers.get('referrer-policy')).toBe('same-origin')
  expect(res.headers.get('x-frame-options')).toBe('DENY')
}

describe('API basics', () => {
  it('GET /api/health answers ok', async () => {
    const res = await ctx.app.request('/api/health')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok' })
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('x-request-id')).toBeTruthy()
  })

  it('GET /api/health answers 503 once the database stops answering', async () => {
    const other = await createTestDatabase()
    const app = await createTestApp(other.db)
    try {
      expect((await app.app.request('/api/health')).status).toBe(200)
      await other.close()
      // A recent check is reused for up to two seconds; the next one finds the database gone.
      await vi.waitFor(
        async () => {
          const res = await app.app.request('/api/health')
          expect(res.status).toBe(503)
          expect(await res.json()).toEqual({ status: 'unavailable', message: 'The database does not answer' })
        },
        { timeout: 15_000, interval: 250 },
      )
    } finally {
      await app.cleanup()
      await other.close().catch(() => {})
    }
  })

  it('answers 400 Invalid JSON body to a malformed body', async () => {
    const res = await ctx.app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"email": "a@example.com",',
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ message: 'Invalid JSON body' })
  })

  it('answers 400 Invalid JSON body to an empty body', async () => {
    const res = await ctx.app.request('/api/auth/login', { method: 'POST' })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ message: 'Invalid JSON body' })
  })

  it('answers 413 to an oversized JSON body', async () => {
    const res = await ctx.app.request(
      '/api/auth/login',
      jsonBody({ email: 'a@example.com', password: 'x'.repeat(2_000_000) }),
    )
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ message: 'Request body too large' })
  })

  it('lists every invalid field in detail, with dotted paths', async () => {
    const res = await ctx.app.request('/api/auth/login', jsonBody({ email: 'nope' }))
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.message).toBe('Invalid input')
    expect(body.detail.map((d: { field: string }) => d.field).sort()).toEqual(['email', 'password'])
  })

  it('answers JSON 404 to an unknown API path, for any method', async () => {
    for (const [path, method] of [
      ['/api/unknown', 'GET'],
      ['/api/nothing/here', 'POST'],
      ['/api', 'GET'],
    ] as const) {
      const res = await ctx.app.request(path, { method })
      expect(res.status, `${method} ${path}`).toBe(404)
      expect(await res.json()).toEqual({ message: 'Not found' })
      expect(res.headers.get('cache-control')).toBe('no-store')
    }
  })

  it('puts the security headers on API answers, errors included', async () => {
    expectSecurityHeaders(await ctx.app.request('/api/health'))
    expectSecurityHeaders(await ctx.app.request('/api/unknown'))
    expectSecurityHeaders(await ctx.app.request('/api/auth/logged-in'))
  })

  it('answers 500 without a stack and logs the stack server-side', async () => {
    // A fresh app: routes can be added only before its first request.
    const fresh = await createTestApp(database.db)
    fresh.app.post('/test-only/boom', () => {
      throw new Error('kaboom: secret internals')
    })
    const res = await fresh.app.request('/test-only/boom', { method: 'POST' })
    await fresh.cleanup()
    expect(res.status).toBe(500)
    const text = await res.text()
    expect(JSON.parse(text)).toEqual({ message: 'Internal server error' })
    expect(text).not.toContain('kaboom')
    expect(text).not.toContain('.ts:')
    expectSecurityHeaders(res)
    const logged = fresh.logs.find((line) => line.msg === 'unhandled error')
    expect(logged).toBeDefined()
    expect(JSON.stringify(logged)).toContain('kaboom: secret internals')
    expect((logged?.err as { stack?: string } | undefined)?.stack).toMatch(/at /)
  })

  it('logs one line per request without bodies or cookies', async () => {
    ctx.logs.length = 0
    await ctx.app.request('/api/auth/login', {
      ...jsonBody({ email: 'someone@example.com', password: 'VerySecret99' }),
      headers: { 'Content-Type': 'application/json', Cookie: 'sid=cookie-value-xyz' },
    })
    const line = ctx.logs.find((l) => l.msg === 'request' && l.path === '/api/auth/login')
    expect(line).toMatchObject({ method: 'POST', status: 401 })
    expect(typeof line?.ms).toBe('number')
    const all = JSON.stringify(ctx.logs)
    expect(all).not.toContain('VerySecret99')
    expect(all).not.toContain('cookie-value-xyz')
  })
})

describe('outside the API prefix', () => {
  it('serves index.html for a deep link, not cached', async () => {
    const res = await ctx.app.request('/some/deep/link')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(await res.text()).toBe(INDEX_HTML)
    expectSecurityHeaders(res)
  })

  it('sends the signed-in page (the build’s index.signed-in.html) to a browser holding a live session, varying on the cookie', async () => {
    const signedIn = INDEX_HTML.replace('<html', '<html data-signed-in')
    expect(signedIn).not.toBe(INDEX_HTML)
    await writeFile(join(ctx.config.staticDir, 'index.signed-in.html'), signedIn)
    try {
      const anonymous = await ctx.app.request('/')
      expect(await anonymous.text()).toBe(INDEX_HTML)
      expect(anonymous.headers.get('vary')).toMatch(/\bCookie\b/)

      const user = await insertUser(database.db)
      const jar = createCookieJar()
      const login = await jar.request(
        ctx.app,
        '/api/auth/login',
        jsonBody({ email: user.email, password: user.password }),
      )
      expect(login.status).toBe(200)
      const holder = await jar.request(ctx.app, '/some/deep/link')
      expect(holder.status).toBe(200)
      expect(holder.headers.get('cache-control')).toBe('no-cache')
      expect(holder.headers.get('vary')).toMatch(/\bCookie\b/)
      expect(await holder.text()).toBe(signedIn)
      expect(holder.headers.get('etag')).not.toBe(anonymous.headers.get('etag'))
      expect(jar.get('sid')).toBeDefined()

      // A stale cookie (signed out, made up) gets the plain page, and the browser is told to drop it.
      const token = jar.get('sid')!
      expect((await jar.request(ctx.app, '/api/auth/logout', { method: 'POST' })).status).toBeLessThan(300)
      for (const cookie of [`sid=${token}`, 'sid=anything']) {
        const stale = await ctx.app.request('/', { headers: { Cookie: cookie } })
        expect(await stale.text()).toBe(INDEX_HTML)
        expect(stale.headers.getSetCookie().join()).toMatch(/^sid=;.*Max-Age=0/i)
      }
      // Another cookie is no session, and is left alone.
      const other = await ctx.app.request('/', { headers: { Cookie: 'theme=dark' } })
      expect(await other.text()).toBe(INDEX_HTML)
      expect(other.headers.getSetCookie()).toEqual([])
    } finally {
      await rm(join(ctx.config.staticDir, 'index.signed-in.html'))
    }
  })

  it('serves hashed assets as immutable with their type', async () => {
    const res = await ctx.app.request('/assets/index-abc123.js')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/javascript/)
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(await res.text()).toBe(ASSET_JS)
    expectSecurityHeaders(res)
  })

  it('answers 404 for a missing hashed asset instead of the HTML page', async () => {
    const res = await ctx.app.request('/assets/gone-123.js')
    expect(res.status).toBe(404)
  })

  it('serves other files at the root without long caching', async () => {
    const res = await ctx.app.request('/favicon.svg')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
    expect(res.headers.get('cache-control')).toBe('no-cache')
  })

  it('answers HEAD like GET without a body', async () => {
    const res = await ctx.app.request('/some/page', { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('')
  })

  it('never serves a file outside the static directory', async () => {
    for (const path of [
      '/..%2f..%2fpackage.json',
      '/..%2fsecret.txt',
      '/%2e%2e%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%252fsecret.txt',
      '/%2e%2e/secret.txt',
      '/..%5csecret.txt',
      '/%00/..%2fsecret.txt',
      '/%2e%2e/%2e%2e/package.json',
      '/assets/..%2f..%2f..%2fpackage.json',
      '/..%5c..%5cpackage.json',
      '/%252e%252e/package.json',
      '/....//....//package.json',
    ]) {
      const res = await ctx.app.request(path)
      expect(await res.text(), path).not.toContain('decoy')
    }
  })

  it('serves the English catalog as JSON', async () => {
    const res = await ctx.app.request('/locales/en/common.json')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await res.json()).toEqual(EN_CATALOG)
  })

  it('answers JSON 404 for an unsupported language or a missing catalog', async () => {
    const unsupported = await ctx.app.request('/locales/xx/common.json')
    expect(unsupported.status).toBe(404)
    expect(await unsupported.json()).toEqual({ message: 'Not found' })
    const missing = await ctx.app.request('/locales/fr/common.json') // fr not written by the helper
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ message: 'Not found' })
    const traversal = await ctx.app.request('/locales/..%2f..%2f/common.json')
    expect(traversal.status).toBe(404)
  })

  it('answers a plain 503 telling to build when the static directory is missing', async () => {
    const bare = await createTestApp(database.db, { withStatic: false })
    try {
      const res = await bare.app.request('/login')
      expect(res.status).toBe(503)
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
      expect(await res.text()).toContain('npm run build')
      expect((await bare.app.request('/api/health')).status).toBe(200)
    } finally {
      await bare.cleanup()
    }
  })

  it('serves the API under another API_PREFIX', async () => {
    const other = await createTestApp(database.db, { env: { API_PREFIX: '/backend/v1' } })
    try {
      expect(await (await other.app.request('/backend/v1/health')).json()).toEqual({ status: 'ok' })
      const old = await other.app.request('/api/health')
      expect(await old.text()).toBe(INDEX_HTML)
    } finally {
      await other.cleanup()
    }
  })
})

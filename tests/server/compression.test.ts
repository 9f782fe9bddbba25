/**
 * What travels over the wire: the built files' brotli and gzip copies (written by the build's
 * precompression step) chosen by Accept-Encoding with Vary, their cache policy, ETag and 304,
 * HEAD; JSON answers above 1 KiB compressed on the fly; file downloads never; /robots.txt.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { precompressDirectory } from '../../scripts/precompress.ts'
import { ROBOTS_TXT } from '../../server/http/static.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { type Actor, actor, fileForm, insertCompany, TINY_PDF } from './admin-helpers.ts'
import { ASSET_JS, createTestApp } from './helpers.ts'
import { insertProcessed } from './review-support.ts'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createTestApp>>
let admin: Actor

/** Text that compresses as a real bundle does: repetitive, but not one repeated byte. */
const bundle = (lines: number) =>
  Array.from(
    { length: lines },
    (_, i) => `export function handler${i}(event){return event.type==="item.${i}"}`,
  ).join('\n')
const CORE_JS = bundle(400)
const PAGE_HTML = `<!doctype html><html><head><meta name="description" content="test"></head><body>${'<div class="shell"></div>'.repeat(40)}</body></html>`
const CATALOG = JSON.stringify({
  messages: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`m${i}`, `Message ${i}`])),
})
const IMMUTABLE = 'public, max-age=31536000, immutable'

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createTestApp(database.db)
  const { staticDir, localesDir } = ctx.config
  await writeFile(join(staticDir, 'assets', 'core-abc123.js'), CORE_JS)
  await writeFile(join(staticDir, 'index.html'), PAGE_HTML)
  await mkdir(join(localesDir, 'fr'), { recursive: true })
  await writeFile(join(localesDir, 'fr', 'common.json'), CATALOG)
  await precompressDirectory(staticDir)
  await precompressDirectory(localesDir)
  admin = await actor(database.db, ctx.app, { role: 'SAAS_ADMIN' })
})
afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  ctx.app.request(path, { method, headers })
const bytes = async (res: Response) => new Uint8Array(await res.arrayBuffer())
const text = (data: Uint8Array) => Buffer.from(data).toString('utf8')

function decode(encoding: string | null, data: Uint8Array): string {
  if (encoding === 'br') return text(brotliDecompressSync(data))
  if (encoding === 'gzip') return text(gunzipSync(data))
  return text(data)
}

describe('built files', () => {
  it.each([
    ['br, gzip', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.4', 'gzip'],
    ['*', 'br'],
  ])(
    'sends the hashed asset compressed for Accept-Encoding %s (%s), byte-equal once decoded',
    async (accept, expected) => {
      const res = await get('/assets/core-abc123.js', { 'Accept-Encoding': accept })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-encoding')).toBe(expected)
      expect(res.headers.get('vary')).toBe('Accept-Encoding')
      expect(res.headers.get('content-type')).toMatch(/^text\/javascript/)
      expect(res.headers.get('cache-control')).toBe(IMMUTABLE)
      const body = await bytes(res)
      expect(Number(res.headers.get('content-length'))).toBe(body.byteLength)
      expect(body.byteLength).toBeLessThan(CORE_JS.length / 4)
      expect(decode(expected, body)).toBe(CORE_JS)
    },
  )

  it.each([[undefined], ['identity'], ['br;q=0, gzip;q=0'], ['deflate']])(
    'sends the file as it is for Accept-Encoding %s, still with Vary',
    async (accept) => {
      const res = await get('/assets/core-abc123.js', accept ? { 'Accept-Encoding': accept } : {})
      expect(res.headers.get('content-encoding')).toBeNull()
      expect(res.headers.get('vary')).toBe('Accept-Encoding')
      expect(Number(res.headers.get('content-length'))).toBe(CORE_JS.length)
      expect(text(await bytes(res))).toBe(CORE_JS)
    },
  )

  it('sends the page of every deep link compressed and never cached without revalidation', async () => {
    const res = await get('/dashboard/some/link', { 'Accept-Encoding': 'gzip, br' })
    expect(res.headers.get('content-encoding')).toBe('br')
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('cache-control')).toBe('no-cache')
    // The page differs with a session cookie too (static.ts's signed-in page).
    expect(res.headers.get('vary')).toBe('Cookie, Accept-Encoding')
    expect(decode('br', await bytes(res))).toBe(PAGE_HTML)
  })

  it('sends a catalog compressed, as JSON, revalidated', async () => {
    const res = await get('/locales/fr/common.json', { 'Accept-Encoding': 'gzip' })
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(JSON.parse(decode('gzip', await bytes(res)))).toEqual(JSON.parse(CATALOG))
  })

  it('leaves files too small to gain from compression without copies or Vary', async () => {
    const res = await get('/assets/index-abc123.js', { 'Accept-Encoding': 'br, gzip' })
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('vary')).toBeNull()
    expect(text(await bytes(res))).toBe(ASSET_JS)
  })

  it('never serves the hidden build stamp kept in the built directory', async () => {
    await writeFile(join(ctx.config.staticDir, '.build-stamp.json'), '{"inputs":{"src/secret.ts":"hash"}}')
    for (const path of ['/.build-stamp.json', '/%2ebuild-stamp.json', '/assets/../.build-stamp.json']) {
      expect(await (await get(path)).text(), path).not.toContain('src/secret.ts')
    }
  })

  it('answers HEAD with the headers of GET and no body', async () => {
    const headers = { 'Accept-Encoding': 'br, gzip' }
    const full = await get('/assets/core-abc123.js', headers)
    const head = await get('/assets/core-abc123.js', headers, 'HEAD')
    expect(head.status).toBe(200)
    for (const name of [
      'content-encoding',
      'content-length',
      'content-type',
      'etag',
      'vary',
      'cache-control',
    ])
      expect(head.headers.get(name), name).toBe(full.headers.get(name))
    expect((await bytes(head)).byteLength).toBe(0)
  })

  it('answers 304 to a current ETag, per encoding, and 200 to another', async () => {
    const first = await get('/login', { 'Accept-Encoding': 'br' })
    const etag = first.headers.get('etag')
    expect(etag).toMatch(/^"[^"]+-br"$/)
    const again = await get('/login', { 'Accept-Encoding': 'br', 'If-None-Match': etag ?? '' })
    expect(again.status).toBe(304)
    expect((await bytes(again)).byteLength).toBe(0)
    expect(again.headers.get('etag')).toBe(etag)
    expect(again.headers.get('vary')).toBe('Cookie, Accept-Encoding')
    expect(again.headers.get('cache-control')).toBe('no-cache')
    expect(again.headers.get('content-encoding')).toBeNull()
    // A weak form of the same tag matches too (a proxy may have weakened it).
    expect((await get('/login', { 'Accept-Encoding': 'br', 'If-None-Match': `W/${etag}` })).status).toBe(304)
    // The gzip representation has its own tag: the br one does not validate it.
    const gzip = await get('/login', { 'Accept-Encoding': 'gzip', 'If-None-Match': etag ?? '' })
    expect(gzip.status).toBe(200)
    expect(gzip.headers.get('etag')).not.toBe(etag)
    expect(decode('gzip', await bytes(gzip))).toBe(PAGE_HTML)
  })
})

describe('API answers', () => {
  it('compresses a JSON answer above 1 KiB with br or gzip, with Vary, equal once decoded', async () => {
    for (let i = 0; i < 20; i++) await insertCompany(database.db, `Compression test company number ${i}`)
    const plain = await admin.jar.request(ctx.app, '/api/admin/company')
    expect(plain.headers.get('content-encoding')).toBeNull()
    const listing = await bytes(plain)
    expect(listing.byteLength).toBeGreaterThan(1024)
    expect(Number(plain.headers.get('content-length'))).toBe(listing.byteLength)
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await admin.jar.request(ctx.app, '/api/admin/company', {
        headers: { 'Accept-Encoding': accept },
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-encoding')).toBe(encoding)
      expect(res.headers.get('vary')).toMatch(/Accept-Encoding/)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(res.headers.get('cache-control')).toBe('no-store')
      const body = await bytes(res)
      expect(Number(res.headers.get('content-length'))).toBe(body.byteLength)
      expect(body.byteLength).toBeLessThan(listing.byteLength / 2)
      expect(JSON.parse(decode(encoding, body))).toEqual(JSON.parse(text(listing)))
    }
  })

  it('streams a JSON answer over 1 MiB through the compressor instead of holding it whole', async () => {
    const company = await insertCompany(database.db, 'Streamed list company')
    // Six invoices with 300 KB of e-invoice data each: a list of about 1.8 MB.
    for (let i = 0; i < 6; i++)
      await insertProcessed(database.db, company.id, { einvoice: { lines: bundle(4200 + i).split('\n') } })
    const path = `/api/invoices/company?company_id=${company.id}`
    const plain = await admin.jar.request(ctx.app, path)
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('content-length')).toBeNull()
    const listing = text(await bytes(plain))
    expect(listing.length).toBeGreaterThan(1024 * 1024)
    expect(JSON.parse(listing)).toHaveLength(6)
    for (const encoding of ['br', 'gzip'] as const) {
      const res = await admin.jar.request(ctx.app, path, { headers: { 'Accept-Encoding': encoding } })
      expect(res.headers.get('content-encoding')).toBe(encoding)
      expect(res.headers.get('content-length')).toBeNull()
      expect(res.headers.get('vary')).toMatch(/Accept-Encoding/)
      const body = await bytes(res)
      expect(body.byteLength).toBeLessThan(listing.length / 4)
      expect(decode(encoding, body)).toBe(listing)
    }
  })

  it('sends a small JSON answer as it is, cookies and status kept', async () => {
    const health = await get('/api/health', { 'Accept-Encoding': 'br, gzip' })
    expect(health.headers.get('content-encoding')).toBeNull()
    expect(health.headers.get('vary')).toBeNull()
    expect(await health.json()).toEqual({ status: 'ok' })
    const refused = await ctx.app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept-Encoding': 'br' },
      body: '{',
    })
    expect(refused.status).toBe(400)
    expect(refused.headers.get('content-encoding')).toBeNull()
    expect(await refused.json()).toEqual({ message: 'Invalid JSON body' })
  })

  it('never compresses a file download, whatever the client accepts', async () => {
    const company = await insertCompany(database.db, 'Download test company')
    const member = await actor(database.db, ctx.app, {
      memberships: [{ companyId: company.id, role: 'COMPANY_USER' }],
    })
    // A PDF whose text would compress well: only its own (PDF) compression may apply.
    const pdf = Buffer.concat([TINY_PDF, Buffer.from(`%${' padding'.repeat(500)}\n`)])
    const uploaded = await member.jar.request(
      ctx.app,
      '/api/documents/upload',
      fileForm(
        { name: 'a.pdf', data: pdf, type: 'application/pdf' },
        { company_id: String(company.id), documentType: 'document', category: 'RH' },
      ),
    )
    expect(uploaded.status).toBe(201)
    const { id } = (await uploaded.json()) as { id: number }
    const res = await member.jar.request(ctx.app, `/api/documents/${id}/download?company_id=${company.id}`, {
      headers: { 'Accept-Encoding': 'br, gzip' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(Buffer.from(await bytes(res)).equals(pdf)).toBe(true)
  })
})

describe('/robots.txt', () => {
  it('lets crawlers see the sign-in page only', async () => {
    const res = await get('/robots.txt')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    const body = await res.text()
    expect(body).toBe(ROBOTS_TXT)
    expect(body).toMatch(/^User-agent: \*$/m)
    expect(body).toMatch(/^Allow: \/login$/m)
    expect(body).toMatch(/^Disallow: \/$/m)
  })
})

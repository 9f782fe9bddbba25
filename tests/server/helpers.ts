/** Building blocks of the server integration tests: a configured app, a clock, a cookie jar. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { eq } from 'drizzle-orm'
import { createApp } from '../../server/app.ts'
import { type Config, loadConfig } from '../../server/config.ts'
import type { AppDatabase } from '../../server/db/client.ts'
import { type UserRow, users } from '../../server/db/schema.ts'
import { createLogger } from '../../server/logger.ts'
import { hashPassword } from '../../server/services/passwords.ts'
import type { LoginRateLimiter } from '../../server/services/rate-limit.ts'

export const INDEX_HTML = '<!doctype html><html><body><div id="root">docflow-test-index</div></body></html>'
export const ASSET_JS = 'console.log("docflow-test-asset")'
export const TRAVERSAL_DECOY = '{"name":"decoy","devDependencies":{}}'
export const EN_CATALOG = { messages: { hello: 'Hello' } }

/** A clock the test moves by hand. */
export function createClock(start = new Date('2026-01-15T10:00:00Z')) {
  let now = start.getTime()
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms
    },
  }
}

/** Log lines written by the app, parsed, for assertions on what gets logged. */
export function createLogCapture() {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line))
      callback()
    },
  })
  return { lines, stream }
}

export interface TestAppOptions {
  clock?: () => Date
  rateLimiter?: LoginRateLimiter
  env?: Record<string, string>
  /** Create a built-app directory (index.html + one hashed asset); default true. */
  withStatic?: boolean
}

/**
 * An app on the given database with a throw-away DATA_DIR, static dir and locales dir.
 * Call `cleanup()` in afterAll.
 */
export async function createTestApp(db: AppDatabase, options: TestAppOptions = {}) {
  const root = await mkdtemp(join(tmpdir(), 'docflow-test-'))
  // dist two levels down, with decoys above it, so a traversal has something to leak.
  const staticDir = join(root, 'app', 'dist')
  await mkdir(join(root, 'app'), { recursive: true })
  await writeFile(join(root, 'package.json'), TRAVERSAL_DECOY)
  await writeFile(join(root, 'app', 'secret.txt'), TRAVERSAL_DECOY)
  const localesDir = join(root, 'locales')
  if (options.withStatic ?? true) {
    await mkdir(join(staticDir, 'assets'), { recursive: true })
    await writeFile(join(staticDir, 'index.html'), INDEX_HTML)
    await writeFile(join(staticDir, 'assets', 'index-abc123.js'), ASSET_JS)
    await writeFile(join(staticDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  }
  await mkdir(join(localesDir, 'en'), { recursive: true })
  await writeFile(join(localesDir, 'en', 'common.json'), JSON.stringify(EN_CATALOG))

  const config: Config = {
    ...loadConfig({ DATA_DIR: join(root, 'data'), STATIC_DIR: staticDir, LOG_LEVEL: 'info', ...options.env }),
    localesDir,
  }
  const logs = createLogCapture()
  const logger = createLogger(config, logs.stream)
  const app = createApp({ db, config, logger, clock: options.clock, rateLimiter: options.rateLimiter })
  return {
    app,
    config,
    logs: logs.lines,
    cleanup: () => rm(root, { recursive: true, force: true }),
  }
}

type RequestApp = { request: (path: string, init?: RequestInit) => Response | Promise<Response> }

/** Keeps the cookies an app sets, like a browser would, and sends them back. */
export function createCookieJar() {
  const cookies = new Map<string, string>()
  return {
    get: (name: string) => cookies.get(name),
    set: (name: string, value: string) => cookies.set(name, value),
    clear: () => cookies.clear(),
    store(response: Response) {
      for (const header of response.headers.getSetCookie()) {
        const [pair = '', ...attributes] = header.split(';')
        const index = pair.indexOf('=')
        const name = pair.slice(0, index).trim()
        const value = pair.slice(index + 1).trim()
        const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === ''
        if (expired) cookies.delete(name)
        else cookies.set(name, value)
      }
    },
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    /** `app.request` with the jar's cookies, storing what comes back. */
    async request(app: RequestApp, path: string, init: RequestInit = {}) {
      const headers = new Headers(init.headers)
      if (cookies.size > 0) headers.set('Cookie', this.header())
      const response = await app.request(path, { ...init, headers })
      this.store(response)
      return response
    },
  }
}

export function jsonBody(body: unknown): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }
}

let userCounter = 0

/** Inserts a user directly (the invitation flow comes later). Defaults: validated, enabled, no 2FA. */
export async function insertUser(
  db: AppDatabase,
  overrides: Partial<typeof users.$inferInsert> & { password?: string } = {},
): Promise<UserRow & { password: string }> {
  const { password = 'Secret123', ...values } = overrides
  userCounter += 1
  const [row] = await db
    .insert(users)
    .values({
      email: `user${userCounter}-${Date.now()}@example.com`,
      name: 'Test',
      surname: 'User',
      role: 'INTERNAL_USER',
      validated: true,
      enabled: true,
      passwordHash: await hashPassword(password),
      ...values,
    })
    .returning()
  return { ...row!, password }
}

export async function setUserEnabled(db: AppDatabase, id: number, enabled: boolean) {
  await db.update(users).set({ enabled }).where(eq(users.id, id))
}

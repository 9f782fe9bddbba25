/**
 * Building blocks of the administration tests: an app with an in-memory mailer, a local storage
 * the test can look into, no login throttle and a queue that only counts, plus signed-in actors.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CompanyRole, GlobalRole } from '../../contract/index.ts'
import { createApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import type { AppDatabase } from '../../server/db/client.ts'
import { type CompanyRow, companies, type UserRow, userCompanies } from '../../server/db/schema.ts'
import { DEFAULT_QUEUE_OPTIONS, type JobQueue } from '../../server/jobs/queue.ts'
import { createLogger } from '../../server/logger.ts'
import { createMemoryMailer } from '../../server/services/mail.ts'
import type { LoginRateLimiter } from '../../server/services/rate-limit.ts'
import { createLocalStorage } from '../../server/services/storage/index.ts'
import { createCookieJar, createLogCapture, insertUser, jsonBody } from './helpers.ts'

export type Jar = ReturnType<typeof createCookieJar>
type RequestApp = { request: (path: string, init?: RequestInit) => Response | Promise<Response> }

/** Never throttles: the matrix signs in many times from the same (unknown) address. */
export const noThrottle: LoginRateLimiter = {
  check: () => ({ limited: false }),
  recordFailure: () => {},
  recordSuccess: () => {},
}

/** Accepts jobs and runs none: uploads stay PROCESSING, which is all these tests need. */
export function createCountingQueue(): JobQueue & { enqueued: number[] } {
  const enqueued: number[] = []
  return {
    enqueued,
    options: DEFAULT_QUEUE_OPTIONS,
    start: async () => {},
    enqueue: async (_tx, job) => {
      enqueued.push(job.documentId)
    },
    work: async () => {},
    requeueOrphans: async () => 0,
    stop: async () => {},
  }
}

export async function createAdminTestApp(
  db: AppDatabase,
  env: Record<string, string> = {},
  options: { clock?: () => Date } = {},
) {
  const root = await mkdtemp(join(tmpdir(), 'docflow-admin-'))
  const config = loadConfig({
    DATA_DIR: join(root, 'data'),
    STATIC_DIR: join(root, 'dist'),
    LOG_LEVEL: 'info',
    ...env,
  })
  const logs = createLogCapture()
  const mailer = createMemoryMailer()
  const storage = createLocalStorage(join(root, 'data', 'files'))
  const queue = createCountingQueue()
  const app = createApp({
    db,
    config,
    logger: createLogger(config, logs.stream),
    mailer,
    storage,
    queue,
    rateLimiter: noThrottle,
    ...(options.clock ? { clock: options.clock } : {}),
  })
  return {
    app,
    config,
    mailer,
    storage,
    queue,
    logs: logs.lines,
    root,
    cleanup: () => rm(root, { recursive: true, force: true }),
  }
}

export async function insertCompany(
  db: AppDatabase,
  name: string,
  values: Partial<typeof companies.$inferInsert> = {},
): Promise<CompanyRow> {
  const [row] = await db
    .insert(companies)
    .values({ name, ...values })
    .returning()
  return row!
}

export async function addMember(db: AppDatabase, userId: number, companyId: number, role: CompanyRole) {
  await db.insert(userCompanies).values({ userId, companyId, role })
}

export async function login(app: RequestApp, user: { email: string; password: string }): Promise<Jar> {
  const jar = createCookieJar()
  const res = await jar.request(
    app,
    '/api/auth/login',
    jsonBody({ email: user.email, password: user.password }),
  )
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`)
  return jar
}

export interface Actor {
  user: UserRow & { password: string }
  jar: Jar
}

/** A validated, signed-in user with the given global role and memberships. */
export async function actor(
  db: AppDatabase,
  app: RequestApp,
  options: {
    role?: GlobalRole
    email?: string
    name?: string
    surname?: string
    memberships?: { companyId: number; role: CompanyRole }[]
  } = {},
): Promise<Actor> {
  const user = await insertUser(db, {
    role: options.role ?? 'INTERNAL_USER',
    ...(options.email ? { email: options.email } : {}),
    ...(options.name ? { name: options.name } : {}),
    ...(options.surname ? { surname: options.surname } : {}),
  })
  for (const m of options.memberships ?? []) await addMember(db, user.id, m.companyId, m.role)
  return { user, jar: await login(app, user) }
}

export const send = (jar: Jar, app: RequestApp, method: string, path: string, body?: unknown) =>
  jar.request(app, `/api${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  })

/** The smallest images of each accepted kind (and their magic bytes). */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')
export const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
  Buffer.alloc(64, 0),
  Buffer.from([0xff, 0xd9]),
])
/** A tiny PDF: enough for the upload checks (they read the first bytes). */
export const TINY_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
)

export function fileForm(
  file: { name: string; data: Uint8Array; type?: string } | null,
  fields: Record<string, string> = {},
): RequestInit {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  if (file) {
    form.append(
      'file',
      new Blob([file.data as Uint8Array<ArrayBuffer>], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    )
  }
  return { method: 'POST', body: form }
}

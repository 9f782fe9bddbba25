/**
 * The authorisation matrix: every route the app registers × eight actors (two of them scripts
 * with a personal API token, which must get what their user gets, except 403 on token
 * management, password, 2FA and `/admin/*`) × (for company-scoped routes) the company_id of A,
 * of B, missing and unknown. Each answer must have the expected
 * status, and no answer to someone outside a company may carry that company's data (every name
 * seeded in B contains BRAVO, in A ALPHA; bodies and headers are searched).
 *
 * The routes and their requests live in route-table.ts: a route without an entry there fails the
 * first test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CompanyRole } from '../../contract/index.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { actor, addMember, createAdminTestApp, fileForm, insertCompany, login, PNG } from './admin-helpers.ts'
import { createCookieJar, insertUser } from './helpers.ts'
import {
  type ActorInfo,
  answerText,
  type CompanyKey,
  createRouteTable,
  type Entry,
  type Expected,
  type Fixtures,
  perform,
  registeredRoutes,
  UNKNOWN_COMPANY,
  type Variant,
} from './route-table.ts'

const ALPHA = 'alpha-secret'
const BRAVO = 'bravo-secret'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createAdminTestApp>>
let companyA: { id: number }
let companyB: { id: number }
const fixtures = {} as Record<CompanyKey, Fixtures>
let actors: ActorInfo[] = []
const {
  entries: ENTRIES,
  freshDocument,
  freshLog,
} = createRouteTable(() => ({
  db: database.db,
  storage: ctx.storage,
}))

function expectedStatus(entry: Entry, a: ActorInfo, variant: Variant | null): Expected | 'skip' {
  if (variant === 'missing' && entry.missing === 'skip') return 'skip'
  const ok = entry.ok ?? '2xx'
  const signedIn = a.credentials !== null
  if (entry.kind === 'public') return ok
  if (!signedIn) return 401
  if (a.bearer && (entry.kind === 'admin' || entry.sessionOnly)) return 403
  if (entry.kind === 'user') return ok
  if (entry.kind === 'admin') {
    if (a.global !== 'SAAS_ADMIN') return 403
    if (variant === 'missing') return entry.missing ?? 400
    if (variant === 'unknown') return entry.unknown ?? 404
    return ok
  }
  // company
  if (variant === 'missing') return entry.missing ?? 400
  if (variant === 'unknown' || variant === null) return entry.unknown ?? 404
  const hasAccess = a.global === 'SAAS_ADMIN' || a.roles[variant] !== undefined
  if (!hasAccess) return 404
  return entry.role?.(a, variant) ?? ok
}

const matches = (status: number, expected: Expected) =>
  expected === '2xx' ? status >= 200 && status < 300 : status === expected

let requests = 0

/** The actor as a script: its requests carry a personal API token of its own and no cookie. */
async function withToken(a: ActorInfo): Promise<ActorInfo> {
  const res = await a.jar.request(ctx.app, '/api/settings/api-tokens', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'matrix' }),
  })
  if (res.status !== 201) throw new Error(`token seed failed: ${res.status}`)
  const { token } = (await res.json()) as { token: string }
  const jar = createCookieJar()
  jar.request = (app, path, init = {}) => {
    const headers = new Headers(init.headers)
    headers.set('Authorization', `Bearer ${token}`)
    return Promise.resolve(app.request(path, { ...init, headers }))
  }
  return { ...a, name: `token of ${a.name}`, jar, bearer: true }
}

beforeAll(async () => {
  database = await createTestDatabase()
  // The bearer actors send a few hundred requests within the minute.
  ctx = await createAdminTestApp(database.db, { API_TOKEN_RATE: '100000' })
  const db = database.db
  companyA = await insertCompany(db, `${ALPHA}-company`, {
    powerbiLink: `https://${ALPHA}.example/bi`,
    invoiceScanner: `scanner@${ALPHA}.example`,
  })
  companyB = await insertCompany(db, `${BRAVO}-company`, {
    powerbiLink: `https://${BRAVO}.example/bi`,
    mondayLink: `https://${BRAVO}.example/board`,
    invoiceScanner: `scanner@${BRAVO}.example`,
  })
  for (const [key, company, marker] of [
    ['A', companyA, ALPHA],
    ['B', companyB, BRAVO],
  ] as const) {
    fixtures[key] = {
      companyId: company.id,
      invoiceId: await freshDocument(company.id, 'invoice', `${marker}-invoice.pdf`),
      expenseId: await freshDocument(company.id, 'expense', `${marker}-expense.pdf`),
      documentId: await freshDocument(company.id, 'document', `${marker}-document.pdf`),
      logId: await freshLog(company.id, `${marker}-log`),
    }
  }
  // A member of B only, whose own name marks B's member lists.
  const bravoMember = await insertUser(db, { email: `member@${BRAVO}.example`, name: `${BRAVO}-name` })
  await addMember(db, bravoMember.id, companyB.id, 'COMPANY_ADMIN')

  const make = async (
    name: string,
    global: 'SAAS_ADMIN' | 'INTERNAL_USER',
    roles: Partial<Record<CompanyKey, CompanyRole>>,
  ): Promise<ActorInfo> => {
    const email = `${name}@${roles.B && !roles.A ? BRAVO : roles.A && !roles.B ? ALPHA : 'matrix'}.example`
    const memberships = Object.entries(roles).map(([k, role]) => ({
      companyId: (k === 'A' ? companyA : companyB).id,
      role: role as CompanyRole,
    }))
    const made = await actor(db, ctx.app, { role: global, email, memberships })
    return { name, global, roles, jar: made.jar, credentials: { email, password: made.user.password } }
  }
  actors = [
    { name: 'anonymous', global: null, roles: {}, jar: createCookieJar(), credentials: null },
    await make('user-of-a', 'INTERNAL_USER', { A: 'COMPANY_USER' }),
    await make('admin-of-a', 'INTERNAL_USER', { A: 'COMPANY_ADMIN' }),
    await make('user-of-b', 'INTERNAL_USER', { B: 'COMPANY_USER' }),
    await make('member-of-a-and-b', 'INTERNAL_USER', { A: 'COMPANY_USER', B: 'COMPANY_ADMIN' }),
    await make('platform-admin', 'SAAS_ADMIN', {}),
  ]
  // The same permissions through a personal API token (a script), for a member and an administrator.
  for (const name of ['member-of-a-and-b', 'platform-admin']) {
    actors.push(await withToken(actors.find((a) => a.name === name)!))
  }
  // Logos for both companies, so fetching one can succeed.
  const admin = actors.find((a) => a.global === 'SAAS_ADMIN')!
  for (const company of [companyA, companyB]) {
    const res = await admin.jar.request(
      ctx.app,
      `/api/companies/company/logo/${company.id}`,
      fileForm({ name: 'logo.png', data: PNG }),
    )
    if (res.status !== 200) throw new Error(`logo seed failed: ${res.status}`)
  }
})

afterAll(async () => {
  console.info(
    `authorization matrix: ${Object.keys(ENTRIES).length} routes × ${actors.length} actors, ${requests} requests`,
  )
  await ctx?.cleanup()
  await database?.close()
})

describe('authorization matrix', () => {
  it('has an entry for every route of the app, and none for a route that no longer exists', () => {
    const registered = registeredRoutes(ctx.app)
    const withoutEntry = registered.filter((key) => !(key in ENTRIES))
    const stale = Object.keys(ENTRIES).filter((key) => !registered.includes(key))
    expect({ withoutEntry, stale }).toEqual({ withoutEntry: [], stale: [] })
  })

  it.each(Object.keys(ENTRIES))('%s', async (key) => {
    const entry = ENTRIES[key]!
    const scoped = entry.kind === 'company' || entry.scoped === true
    const variants: (Variant | null)[] = scoped ? ['A', 'B', 'missing', 'unknown'] : [null]
    const failures: string[] = []
    for (const a of actors) {
      for (const variant of variants) {
        const expected = expectedStatus(entry, a, variant)
        if (expected === 'skip') continue
        const key2: CompanyKey = variant === 'B' ? 'B' : 'A'
        const companyId =
          variant === 'missing'
            ? undefined
            : variant === 'unknown'
              ? UNKNOWN_COMPANY
              : fixtures[key2].companyId
        const req = await entry.build({ variant: variant ?? 'A', companyId, fx: fixtures[key2], actor: a })
        const jar =
          entry.spareSession && a.credentials && !a.bearer ? await login(ctx.app, a.credentials) : a.jar
        const res = await perform(ctx.app, jar, req)
        requests += 1
        const text = `${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${await answerText(res)}`
        const where = `${a.name} × ${variant ?? '-'}`
        if (!matches(res.status, expected)) {
          failures.push(`${where}: expected ${expected}, got ${res.status} ${text.slice(-200)}`)
        }
        if (res.status >= 500) failures.push(`${where}: server error`)
        if (!a.roles.B && a.global !== 'SAAS_ADMIN' && text.toLowerCase().includes(BRAVO)) {
          failures.push(`${where}: company B data in the answer to someone outside B`)
        }
        if (!a.roles.A && a.global !== 'SAAS_ADMIN' && text.toLowerCase().includes(ALPHA)) {
          failures.push(`${where}: company A data in the answer to someone outside A`)
        }
      }
    }
    expect(failures).toEqual([])
  })
})

/**
 * Fuzzing every route the app registers (the table of the authorisation matrix): as a platform
 * administrator and as a company member, hostile path ids, query values, JSON bodies and
 * multipart fields. Whatever comes in, no answer may be a 5xx, every error must be the contract's
 * `{message, detail?}` with no stack trace or file path, and nothing may be logged as an
 * unhandled error. The other doors get the same treatment: hostile XML e-invoices uploaded and
 * processed, and hostile mail sent to the scanner inbox over SMTP (fuzz-doors.ts); there,
 * besides, every document ends at its first attempt and nothing stored breaks the text rule.
 *
 * Reproducible: a seeded generator per route (FUZZ_SEED, FUZZ_CASES override the defaults; a
 * failure names the seed). Runs on PGlite, or on PostgreSQL with TEST_DATABASE_URL.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '../../contract/index.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { actor, createAdminTestApp, insertCompany, type Jar, login } from './admin-helpers.ts'
import { createPipelineApp, memberOf, multipart, waitFor } from './documents-support.ts'
import { hostileInvoices, hostileMails, ruleBreaks } from './fuzz-doors.ts'
import { sendMail, setScanners, startTestInbox } from './mail-support.ts'
import {
  answerText,
  type CompanyKey,
  createRouteTable,
  type Fixtures,
  type Req,
  type Target,
} from './route-table.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_126)
/** Random requests per route and per actor, after the directed ones. */
const CASES = Number(process.env.FUZZ_CASES ?? 8)

/** mulberry32: a small seeded generator, enough to pick cases reproducibly. */
function generator(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick<T>(items: readonly T[]): T {
      return items[Math.floor(next() * items.length)]!
    },
  }
}
type Random = ReturnType<typeof generator>

/** A route's own seed: its cases do not depend on which routes run before it. */
function seedOf(key: string): number {
  let hash = SEED
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

const LONG = 'x'.repeat(20_000)

/** Raw path segments (already URL-encoded where they need to be). */
const PATH_VALUES = [
  '0',
  '-1',
  '2147483647',
  '2147483648',
  '9999999999',
  '1e3',
  '1.5',
  '0x10',
  '00001',
  'abc',
  '%00',
  '1%00',
  '%ff',
  '%ED%A0%80',
  '%E2%80%AE',
  '%20',
  '%25',
  '%2e%2e',
  '..',
  "1'",
  '1%20OR%201%3D1',
  '9'.repeat(400),
  'a'.repeat(3000),
  'null',
  'undefined',
  '__proto__',
  'constructor',
]

const STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[31m',
  '\u007f',
  'line\nbreak',
  '\ttab',
  '%',
  '_',
  '%_\\',
  "'; drop table logs; --",
  '\u202eevil',
  '\ud800',
  '😀',
  'é',
  LONG,
  '-271821-04-20',
  '99999-01-01',
  '+275760-09-13',
  '-000001-01-01',
  '0000-00-00',
  '2024-02-30',
  '1899-12-31',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1.5',
  '1e308',
  '2147483648',
  '9999999999',
  'null',
  'true',
  '[]',
  '{}',
  'date',
  'name',
  'DESC',
  'asc;',
  'all',
  'invoice',
  'COMPANY_ADMIN',
  'SAAS_ADMIN',
  'not-an-email',
  'a@b',
  '__proto__',
]

const QUERY_KEYS = [
  'company_id',
  'limit',
  'offset',
  'page',
  'start_date',
  'end_date',
  'last_days',
  'sort_by',
  'sort_order',
  'search_term',
  'status',
  'element_type',
  'kind',
  'document_ids',
  'user_email',
]

const deeplyNested = (depth: number): unknown => {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = { a: value }
  return value
}

const JSON_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2_147_483_647,
  2_147_483_648,
  9_999_999_999,
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  -1e308,
  ...STRINGS,
  [],
  [1, 2, 3],
  [null],
  ['a\u0000b'],
  {},
  { company_id: 1 },
  deeplyNested(50),
  Array.from({ length: 2000 }, (_, i) => i),
]

/** Bodies that are not (valid) JSON at all, sent as application/json. */
const RAW_BODIES = [
  '',
  '{',
  '{"a":',
  '[',
  '['.repeat(5000),
  'null',
  '"text"',
  '\u0000',
  '{"company_id": 1e999}',
  '{"name": "\\u0000"}',
  '{"a":1,"a":2}',
  '{"__proto__": {"role": "SAAS_ADMIN"}}',
  '{"constructor": {"prototype": {"x": 1}}}',
]

const FIELD_NAMES = ['__proto__', 'constructor', 'role', 'is_admin', 'company_id', 'enabled', 'x'.repeat(500)]
const FILE_NAMES = [
  'a\u0000b.pdf',
  '../../etc/passwd',
  'inv\u202efdp.exe',
  'x'.repeat(5000),
  '',
  '\ud800.pdf',
  '😀.pdf',
]

/** Sets a key even when it is `__proto__`, so JSON.stringify writes it as a plain key. */
function setField(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true })
}

function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value)
  } catch {
    return '%ED%A0%80' // a lone surrogate cannot be encoded: send its bytes as they would arrive
  }
}

/** A hostile request derived from a route's valid one: one part changed at a time. */
interface Case {
  what: string
  method: string
  path: string
  headers?: Record<string, string>
  body?: BodyInit
}

function mutatePath(random: Random, template: string, req: Req, method: string): Case | null {
  const [pathname = '', search = ''] = req.path.split('?')
  const segments = pathname.split('/')
  const templateSegments = template.split('/')
  const params = templateSegments.flatMap((s, i) => (s.startsWith(':') || s === '*' ? [i] : []))
  if (params.length === 0 || templateSegments.length !== segments.length) return null
  const index = random.pick(params)
  const value = random.next() < 0.7 ? random.pick(PATH_VALUES) : encodeSegment(random.pick(STRINGS))
  segments[index] = value
  const path = `${segments.join('/')}${search ? `?${search}` : ''}`
  return { what: `path ${templateSegments[index]}=${value.slice(0, 40)}`, method, path, ...jsonOf(req) }
}

function mutateQuery(random: Random, req: Req, method: string): Case {
  const [pathname = '', search = ''] = req.path.split('?')
  const params = new URLSearchParams(search)
  const keys = [...new Set([...params.keys(), ...QUERY_KEYS])]
  const changed: string[] = []
  for (let n = 1 + random.int(3); n > 0; n--) {
    const key = random.pick(keys)
    const value = random.pick(STRINGS)
    if (random.next() < 0.2) params.append(key, value)
    else params.set(key, value)
    changed.push(key)
  }
  return { what: `query ${changed.join(',')}`, method, path: `${pathname}?${params}`, ...jsonOf(req) }
}

const jsonBody = (body: unknown) => ({
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
})

const jsonOf = (req: Req): Pick<Case, 'headers' | 'body'> =>
  req.json === undefined ? {} : jsonBody(req.json)

function mutateJson(random: Random, req: Req, method: string): Case {
  const base = req.json && typeof req.json === 'object' && !Array.isArray(req.json) ? req.json : {}
  const body: Record<string, unknown> = { ...(base as Record<string, unknown>) }
  const keys = Object.keys(body)
  const choice = random.int(6)
  let what: string
  let text: string
  if (choice === 0 || (choice === 1 && keys.length === 0)) {
    const key = keys.length > 0 && random.next() < 0.7 ? random.pick(keys) : 'company_id'
    setField(body, key, random.pick(JSON_VALUES))
    what = `json ${key}`
    text = JSON.stringify(body)
  } else if (choice === 1) {
    const key = random.pick(keys)
    delete body[key]
    what = `json without ${key}`
    text = JSON.stringify(body)
  } else if (choice === 2) {
    const key = random.pick(FIELD_NAMES)
    setField(body, key, random.pick(JSON_VALUES))
    what = `json extra ${key.slice(0, 20)}`
    text = JSON.stringify(body)
  } else if (choice === 3) {
    for (const key of keys) setField(body, key, random.pick(JSON_VALUES))
    what = 'json every field'
    text = JSON.stringify(body)
  } else if (choice === 4) {
    const value = random.pick(JSON_VALUES)
    what = `json body ${JSON.stringify(value)?.slice(0, 30)}`
    text = JSON.stringify(value)
  } else {
    text = random.pick(RAW_BODIES)
    what = `raw body ${text.slice(0, 30)}`
  }
  return { what, method, path: req.path, headers: { 'Content-Type': 'application/json' }, body: text }
}

/**
 * A copy of a multipart form with `field` set to `value` (where it was, else first), the file
 * renamed or left out. Field order matters: fields before the file are read before it is stored.
 */
function changeForm(
  original: FormData,
  change: { field?: string; value?: string; fileName?: string; noFile?: boolean },
): FormData {
  const form = new FormData()
  const { field, value } = change
  if (field !== undefined && value !== undefined && !original.has(field)) form.append(field, value)
  for (const [key, entry] of original) {
    if (key === 'file') {
      if (change.noFile) continue
      const file = entry as File
      form.append('file', file, change.fileName ?? file.name)
    } else form.append(key, key === field && value !== undefined ? value : entry)
  }
  return form
}

function mutateForm(random: Random, req: Req, method: string): Case {
  const original = req.init?.body as FormData
  const fieldNames = [...new Set([...original.keys()].filter((k) => k !== 'file'))]
  const target = random.pick([...fieldNames, 'company_id', 'file-name', 'no-file'])
  const form =
    target === 'file-name'
      ? changeForm(original, { fileName: random.pick(FILE_NAMES) })
      : target === 'no-file'
        ? changeForm(original, { noFile: true })
        : changeForm(original, { field: target, value: random.pick(STRINGS) })
  return { what: `form ${target}`, method, path: req.path, body: form }
}

/** The same JSON sent with another content type: refused (400/415) or read, never a crash. */
function mutateContentType(random: Random, req: Req, method: string): Case {
  const type = random.pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', ''])
  return {
    what: `content-type ${type || 'none'}`,
    method,
    path: req.path,
    headers: type ? { 'Content-Type': type } : {},
    body: JSON.stringify(req.json ?? {}),
  }
}

function makeCase(random: Random, key: string, req: Req): Case {
  const [, template = ''] = key.split(' ')
  const method = req.method ?? (req.init || req.json !== undefined ? 'POST' : 'GET')
  const hasJson = req.json !== undefined
  const hasForm = req.init?.body instanceof FormData
  const kinds = [
    'path',
    'query',
    ...(hasJson ? ['json', 'json', 'json', 'type'] : []),
    ...(hasForm ? ['form', 'form'] : []),
  ]
  const kind = random.pick(kinds)
  if (kind === 'path') {
    const mutated = mutatePath(random, template, req, method)
    if (mutated) return mutated
  }
  if (kind === 'json') return mutateJson(random, req, method)
  if (kind === 'type') return mutateContentType(random, req, method)
  if (kind === 'form') return mutateForm(random, req, method)
  const mutated = mutateQuery(random, req, method)
  return hasForm ? { ...mutated, body: req.init?.body as FormData } : mutated
}

/** Out-of-range ids, a NUL and a date PostgreSQL cannot hold: the values that once answered 500. */
const KNOWN_BAD_IDS = ['2147483648', '9999999999', '%00']
const KNOWN_BAD_VALUES = ['9999999999', '2147483648', 'a\u0000b']

/**
 * The directed cases every route gets before the random ones: each path parameter, company_id
 * wherever it can travel (query, JSON body, form field), every text of the body and the log
 * filters set to one of the known bad values.
 */
function directedCases(key: string, req: Req): Case[] {
  const [, template = ''] = key.split(' ')
  const method = req.method ?? (req.init || req.json !== undefined ? 'POST' : 'GET')
  const [pathname = '', search = ''] = req.path.split('?')
  const form = req.init?.body instanceof FormData ? req.init.body : null
  const same = { ...jsonOf(req), ...(form ? { body: form } : {}) }
  const cases: Case[] = []
  const segments = pathname.split('/')
  const templateSegments = template.split('/')
  templateSegments.forEach((segment, i) => {
    if (!segment.startsWith(':') || templateSegments.length !== segments.length) return
    for (const value of KNOWN_BAD_IDS) {
      const changed = segments.map((s, j) => (j === i ? value : s)).join('/')
      cases.push({
        what: `path ${segment}=${value}`,
        method,
        path: `${changed}${search ? `?${search}` : ''}`,
        ...same,
      })
    }
  })
  for (const value of KNOWN_BAD_VALUES) {
    const params = new URLSearchParams(search)
    params.set('company_id', value)
    cases.push({ what: `query company_id=${value}`, method, path: `${pathname}?${params}`, ...same })
  }
  const filters = new URLSearchParams(search)
  filters.set('start_date', '-271821-04-20')
  filters.set('end_date', '99999-01-01')
  filters.set('search_term', 'a\u0000b')
  cases.push({ what: 'query dates and search', method, path: `${pathname}?${filters}`, ...same })
  if (req.json !== undefined && typeof req.json === 'object' && req.json !== null) {
    const base = req.json as Record<string, unknown>
    for (const value of KNOWN_BAD_VALUES) {
      const body = { ...base, company_id: /^\d+$/.test(value) ? Number(value) : value }
      cases.push({ what: `json company_id=${value}`, method, path: req.path, ...jsonBody(body) })
    }
    const texts = Object.fromEntries(
      Object.entries(base).map(([k, v]) => [k, typeof v === 'string' ? `${v}\u0000` : v]),
    )
    const withFilters = { ...texts, start_date: '-271821-04-20', search_term: 'a\u0000b' }
    cases.push({ what: 'json texts with NUL', method, path: req.path, ...jsonBody(withFilters) })
  }
  if (form) {
    for (const value of KNOWN_BAD_VALUES) {
      const changed = changeForm(form, { field: 'company_id', value })
      cases.push({ what: `form company_id=${value}`, method, path: req.path, body: changed })
    }
  }
  return cases
}

const STACK_FRAME = /\n\s*at\s|\bat\s+\S+\s+\(|\bat\s+(file:|node:|\/)/
const FILE_PATH = /\/work\/|node_modules|[\w-]+\.(ts|js|mjs):\d+|file:\/\//

/** The contract's error body, and nothing else in it. */
const StrictErrorBody = v.strictObject(ErrorBody.entries)

/** What is wrong with an answer, if anything. */
function problems(status: number, contentType: string, text: string): string[] {
  const found: string[] = []
  if (status >= 500) found.push(`status ${status}`)
  if (status >= 400) {
    if (!contentType.includes('application/json')) found.push(`error body is ${contentType || 'untyped'}`)
    else {
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        found.push('error body is not JSON')
      }
      if (body !== undefined && !v.is(StrictErrorBody, body))
        found.push('error body is not {message, detail?}')
    }
    if (FILE_PATH.test(text)) found.push('file path in the error body')
  }
  // A script the server sends (the API reference viewer's) is program text, not a trace.
  const script = status < 400 && contentType.startsWith('text/javascript')
  if (!script && STACK_FRAME.test(text)) found.push('stack trace in the body')
  return found
}

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createAdminTestApp>>
const fixtures = {} as Record<CompanyKey, Fixtures>
interface FuzzActor {
  name: string
  jar: Jar
  credentials: { email: string; password: string }
  info: Target['actor']
}
let actors: FuzzActor[] = []
let requests = 0
const { entries, freshDocument, freshLog } = createRouteTable(() => ({
  db: database.db,
  storage: ctx.storage,
}))

beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createAdminTestApp(database.db)
  const db = database.db
  for (const key of ['A', 'B'] as const) {
    const company = await insertCompany(db, `Fuzz ${key}`)
    fixtures[key] = {
      companyId: company.id,
      invoiceId: await freshDocument(company.id, 'invoice'),
      expenseId: await freshDocument(company.id, 'expense'),
      documentId: await freshDocument(company.id, 'document'),
      logId: await freshLog(company.id),
    }
  }
  const make = async (name: string, role: 'SAAS_ADMIN' | 'INTERNAL_USER'): Promise<FuzzActor> => {
    const memberships =
      role === 'SAAS_ADMIN' ? [] : [{ companyId: fixtures.A.companyId, role: 'COMPANY_ADMIN' as const }]
    const made = await actor(db, ctx.app, { role, email: `${name}@fuzz.example`, memberships })
    const credentials = { email: made.user.email, password: made.user.password }
    return {
      name,
      jar: made.jar,
      credentials,
      info: {
        name,
        global: role,
        roles: role === 'SAAS_ADMIN' ? {} : { A: 'COMPANY_ADMIN' },
        jar: made.jar,
        credentials,
      },
    }
  }
  actors = [await make('platform-admin', 'SAAS_ADMIN'), await make('company-member', 'INTERNAL_USER')]
})

afterAll(async () => {
  console.info(`fuzz: ${Object.keys(entries).length} routes, ${requests} requests, seed ${SEED}`)
  await ctx?.cleanup()
  await database?.close()
})

describe('the fuzz checks', () => {
  it('flag a 5xx, a body outside the contract, a stack trace and a file path', () => {
    const json = 'application/json'
    expect(problems(400, json, '{"message":"Invalid input","detail":[]}')).toEqual([])
    expect(problems(200, 'application/pdf', '%PDF-1.4')).toEqual([])
    expect(problems(200, 'text/javascript', 'f()\n    at g (h)')).toEqual([])
    expect(problems(500, json, '{"message":"Internal server error"}')).toEqual(['status 500'])
    expect(problems(400, json, '{"error":"x"}')).toEqual(['error body is not {message, detail?}'])
    expect(problems(404, 'text/html', '<h1>Not found</h1>')).toEqual(['error body is text/html'])
    expect(
      problems(400, json, '{"message":"x","stack":"Error: x\\n    at f (/work/main/server/app.ts:1:2)"}'),
    ).toEqual([
      'error body is not {message, detail?}',
      'file path in the error body',
      'stack trace in the body',
    ])
  })
})

describe(`fuzz (seed ${SEED}, ${CASES} cases per route and actor)`, () => {
  it.each(Object.keys(entries))('%s', async (key) => {
    const entry = entries[key]!
    const random = generator(seedOf(key))
    const failures: string[] = []
    for (const who of actors) {
      // One valid request per actor (its records stay: the cases change one part of it each).
      const req = await entry.build({
        variant: 'A',
        companyId: fixtures.A.companyId,
        fx: fixtures.A,
        actor: who.info,
      })
      const cases = [
        ...directedCases(key, req),
        ...Array.from({ length: CASES }, () => makeCase(random, key, req)),
      ]
      let spare: Jar | null = null
      for (const [n, fuzzCase] of cases.entries()) {
        // `..` segments can take the path out of the API (to the app's pages): not this test's concern.
        if (!new URL(fuzzCase.path, 'http://fuzz.test').pathname.startsWith('/api/')) continue
        // A call that ends the session runs on a session of its own, renewed once it has ended,
        // so the actor's other cases stay signed in.
        if (entry.spareSession && !spare?.header()) spare = await login(ctx.app, who.credentials)
        const jar = spare ?? who.jar
        const logged = ctx.logs.length
        const res = await jar.request(ctx.app, fuzzCase.path, {
          method: fuzzCase.method,
          headers: fuzzCase.headers,
          body: fuzzCase.body,
        })
        requests += 1
        const text = await answerText(res)
        const found = problems(res.status, res.headers.get('content-type') ?? '', text)
        const crashes = ctx.logs.slice(logged).filter((line) => Number(line.level) >= 50)
        if (crashes.length > 0) found.push(`logged: ${crashes.map((l) => l.msg).join(', ')}`)
        if (found.length > 0) {
          failures.push(
            `${who.name} case ${n} (${fuzzCase.what}) ${fuzzCase.method} ${fuzzCase.path.slice(0, 120)} → ${res.status}: ${found.join('; ')} ${text.slice(0, 160)}`,
          )
        }
      }
    }
    expect(failures).toEqual([])
  })
})

describe(`fuzz the other doors (seed ${SEED}): hostile XML e-invoices and hostile mail`, () => {
  let root: string
  let doors: Awaited<ReturnType<typeof createPipelineApp>>
  let inbox: Awaited<ReturnType<typeof startTestInbox>>
  let companyId: number
  let member: Awaited<ReturnType<typeof memberOf>>
  const [invoices, expenses] = ['invoices@fuzz.test', 'expenses@fuzz.test']

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'docflow-fuzz-doors-'))
    // A processing budget of real size: the slowest hostile XML takes seconds to parse.
    doors = await createPipelineApp(database.db, root, { queue: { expireInSeconds: 120 } })
    companyId = (await insertCompany(database.db, 'Fuzz doors')).id
    await setScanners(database.db, companyId, { invoiceScanner: invoices, expenseScanner: expenses })
    member = await memberOf(database.db, doors.app, companyId)
    await doors.startWorkers()
    inbox = await startTestInbox({ ...doors, db: database.db })
  }, 60_000)
  afterAll(async () => {
    await inbox?.close()
    await doors?.close()
    if (root) await rm(root, { recursive: true, force: true })
  })

  const get = (path: string) =>
    member.jar.request(doors.app, `${path}${path.includes('?') ? '&' : '?'}company_id=${companyId}`)
  /** Problems of an answer, and of the stored values it carries. */
  async function check(path: string, failures: string[]): Promise<unknown> {
    const res = await get(path)
    const text = await res.text()
    const found = problems(res.status, res.headers.get('content-type') ?? '', text)
    if (found.length > 0) failures.push(`GET ${path} → ${res.status}: ${found.join('; ')}`)
    return res.status === 200 ? JSON.parse(text) : null
  }
  /** Rows and documents of the company that break the rule, and what the workers logged amiss. */
  async function storedProblems(failures: string[], logged: number) {
    for (const row of ((await check('/api/logs?limit=1000', failures)) ?? []) as Record<string, unknown>[])
      for (const problem of ruleBreaks(row)) failures.push(`log ${row.id} (${row.name}): ${problem}`)
    for (const kind of ['invoices', 'expenses'])
      for (const doc of ((await check(`/api/${kind}/company`, failures)) ?? []) as Record<string, unknown>[])
        for (const problem of ruleBreaks(doc)) failures.push(`${kind} ${doc.id}: ${problem}`)
    for (const line of [...doors.logs.slice(logged), ...inbox.logs])
      if (Number(line.level) >= 50 || /will retry|gave up/.test(String(line.msg)))
        failures.push(`logged: ${line.msg} ${String((line.err as { message?: string })?.message ?? '')}`)
  }

  it('takes hostile XML e-invoices without a 5xx, ends each at its first attempt, stores nothing that breaks the rule', {
    timeout: 300_000,
  }, async () => {
    const random = generator(seedOf('einvoices'))
    const logged = doors.logs.length
    const failures: string[] = []
    const ids: number[] = []
    for (const hostile of await hostileInvoices(random, CASES * 2)) {
      const data = new TextEncoder().encode(hostile.xml)
      const form = multipart(
        { documentType: 'invoice', company_id: String(companyId) },
        { name: `${hostile.what}.xml`, data, type: 'application/xml' },
      )
      const res = await member.jar.request(doors.app, '/api/documents/upload', form)
      requests += 1
      const text = await res.text()
      const found = problems(res.status, res.headers.get('content-type') ?? '', text)
      if (found.length > 0) failures.push(`upload ${hostile.what} → ${res.status}: ${found.join('; ')}`)
      else if (res.status === 201) ids.push(JSON.parse(text).id)
    }
    await waitFor(async () => {
      const statuses = (await check(
        `/api/api/documents/status?kind=invoice&document_ids=${ids.join(',')}`,
        failures,
      )) as { status: string }[] | null
      return statuses?.every((s) => s.status !== 'PROCESSING')
    }, 240_000)
    for (const id of ids) await check(`/api/invoices/${id}/quality-data`, failures)
    await storedProblems(failures, logged)
    expect(ids.length).toBeGreaterThan(10)
    expect(failures).toEqual([])
  })

  it('answers hostile mail with a final 250 or a permanent refusal, never a temporary one, and stores nothing that breaks the rule', {
    timeout: 300_000,
  }, async () => {
    const random = generator(seedOf('mail'))
    const logged = doors.logs.length
    const failures: string[] = []
    let sent = 0
    for (const hostile of hostileMails(random, CASES * 2, invoices, expenses)) {
      try {
        await sendMail(inbox.port, hostile.message)
        sent += 1
      } catch (error) {
        const { response, responseCode } = error as { response?: string; responseCode?: number }
        // Refused by the client before it reached the server (an address it cannot write): not a case.
        if (responseCode === undefined) continue
        sent += 1
        // Permanent (5xx: syntax, mailbox, size, content), never temporary (4xx): it would fail again.
        if (
          !/^5\d\d /.test(response ?? '') ||
          STACK_FRAME.test(response ?? '') ||
          FILE_PATH.test(response ?? '')
        )
          failures.push(`${hostile.what} → ${response}`)
      }
    }
    await storedProblems(failures, logged)
    // At most the attachment limit per address and one row for the rest, per message.
    const rows = (await check('/api/logs?limit=1000', failures)) as unknown[]
    expect(rows.length).toBeLessThanOrEqual(sent * 2 * (20 + 1))
    expect(sent).toBeGreaterThan(10)
    expect(failures).toEqual([])
  })
})

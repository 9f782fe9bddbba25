/**
 * Issue 6's figures, in one run (after `npm run bench:bundle`, which prints the dashboard's JS):
 * - status requests the upload queue issues in one (simulated) minute with 50 items processing
 *   and with none (spec: one bulk request per kind every 3 s while anything processes, else none);
 * - the server-side time to filter and sort the logs of a company with 10 000 rows: the whole
 *   GET /logs request through the real app, and the same query alone; p50 / p95, budget p95 ≤ 10 ms.
 *   Embedded PGlite by default; `TEST_DATABASE_URL=postgres://…` measures on a PostgreSQL server.
 */
import { performance } from 'node:perf_hooks'
import { and, asc, desc, eq, gte, ilike, lte, or, type SQL, sql } from 'drizzle-orm'
import { createActor, createMachine, fromPromise, SimulatedClock, waitFor } from 'xstate'
import type { AppDatabase } from '../server/db/client.ts'
import { logs } from '../server/db/schema.ts'
import { POLL_INTERVAL_MS, uploadQueueMachine } from '../src/machines/upload-queue.machine.ts'
import { insertCompany, memberOf } from '../tests/server/documents-support.ts'
import { createTestApp } from '../tests/server/helpers.ts'
import { createTestDatabase } from '../tests/support/db.ts'

async function statusRequestsPerMinute(processing: number): Promise<number> {
  const clock = new SimulatedClock()
  let requests = 0
  const queue = createActor(
    uploadQueueMachine.provide({
      actors: {
        checkStatus: fromPromise(
          async ({
            input,
          }: {
            input: { requests: { kind: string; companyId: number; documentIds: number[] }[] }
          }) =>
            input.requests.map((r) => {
              requests++
              return {
                kind: r.kind,
                companyId: r.companyId,
                statuses: r.documentIds.map((id) => ({ id, status: 'PROCESSING', errors: [] })),
              }
            }),
        ) as never,
        uploadItem: createMachine({}) as never,
      },
    }),
    { clock },
  ).start()
  if (processing > 0) {
    const files = Array.from({ length: processing }, (_, i) => {
      const name = `${i % 2 ? 'receipt' : 'invoice'}-${i}.pdf`
      return {
        file: new File([new Uint8Array([0x25, 0x50, 0x44, 0x46])], name, { type: 'application/pdf' }),
        documentType: i % 2 ? 'expense' : 'invoice',
        category: i % 2 ? 'Expenses' : 'Invoices',
      }
    })
    queue.send({ type: 'uploads.add', files: files as never, companyId: 1, at: 0 })
    let documentId = 1
    for (const u of queue.getSnapshot().context.uploads)
      queue.send({
        type: 'upload.changed',
        id: u.id,
        status: 'processing',
        documentId: documentId++,
        error: null,
        completedAt: null,
        answered: true,
      } as never)
  }
  for (let t = 0; t < 60_000; t += POLL_INTERVAL_MS) {
    clock.increment(POLL_INTERVAL_MS)
    if (processing > 0) await waitFor(queue, (s) => s.matches({ polling: 'waiting' }))
  }
  queue.stop()
  return requests
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

async function logQueryTimes() {
  const db = await createTestDatabase()
  const { app, cleanup } = await createTestApp(db.db)
  try {
    const company = await insertCompany(db.db, 'Bench Company')
    const { jar } = await memberOf(db.db, app, company.id)
    const statuses = ['pending', 'processing', 'completed', 'failed', 'rejected'] as const
    const types = ['Invoice', 'Expense', 'Document'] as const
    const start = Date.now()
    for (let batch = 0; batch < 10; batch++) {
      await db.db.insert(logs).values(
        Array.from({ length: 1000 }, (_, i) => {
          const n = batch * 1000 + i
          return {
            companyId: company.id,
            name: `supplier-${n % 137}-invoice-${n}.pdf`,
            type: types[n % 3]!,
            status: statuses[n % 5]!,
            category: n % 3 === 2 ? 'Administration' : n % 3 === 1 ? 'Expenses' : 'Invoices',
            createdAt: new Date(start - (n % 60) * 86_400_000 - n * 1000),
          }
        }),
      )
    }
    const base = `/api/logs?company_id=${company.id}`
    const queries: [string, string][] = [
      [
        'failed invoices, last 30 days, by name',
        `${base}&status=FAILED&element_type=Invoice&last_days=30&sort_by=name&sort_order=asc`,
      ],
      ['completed, by date desc', `${base}&status=COMPLETED&sort_by=date&sort_order=desc`],
      ['search "supplier-42", by status', `${base}&search_term=supplier-42-&sort_by=status&sort_order=asc`],
      [
        'custom range of 7 days, by type',
        `${base}&start_date=${new Date(start - 14 * 86_400_000).toISOString()}&end_date=${new Date(start - 7 * 86_400_000).toISOString()}&sort_by=type&sort_order=desc`,
      ],
    ]
    // The same filters and orders as the route builds (server/routes/logs.ts), run alone: the query's own time.
    const since = (days: number) => new Date(start - days * 86_400_000)
    const sqlQueries: [string, SQL[], SQL[]][] = [
      [
        'failed invoices, last 30 days, by name',
        [eq(logs.status, 'failed'), eq(logs.type, 'Invoice'), gte(logs.createdAt, since(30))],
        [asc(sql`lower(${logs.name})`), asc(logs.id)],
      ],
      ['completed, by date desc', [eq(logs.status, 'completed')], [desc(logs.createdAt), desc(logs.id)]],
      [
        'search "supplier-42", by status',
        [
          or(
            ilike(logs.name, '%supplier-42-%'),
            ilike(logs.category, '%supplier-42-%'),
            ilike(logs.type, '%supplier-42-%'),
          )!,
        ],
        [asc(logs.status), asc(logs.id)],
      ],
      [
        'custom range of 7 days, by type',
        [gte(logs.createdAt, since(14)), lte(logs.createdAt, since(7))],
        [desc(logs.type), desc(logs.id)],
      ],
    ]
    const queryTimes: { label: string; p50: number; p95: number }[] = []
    for (const [label, where, order] of sqlQueries) {
      const run = () =>
        (db.db as AppDatabase)
          .select()
          .from(logs)
          .where(and(eq(logs.companyId, company.id), ...where))
          .orderBy(...order)
          .limit(1000)
      for (let i = 0; i < 20; i++) await run()
      const times: number[] = []
      for (let i = 0; i < 200; i++) {
        const t0 = performance.now()
        await run()
        times.push(performance.now() - t0)
      }
      times.sort((a, b) => a - b)
      queryTimes.push({ label, p50: percentile(times, 50), p95: percentile(times, 95) })
    }
    const results: { label: string; rows: number; p50: number; p95: number }[] = []
    for (const [label, path] of queries) {
      let rows = 0
      for (let i = 0; i < 20; i++) await jar.request(app, path) // warm-up
      const times: number[] = []
      for (let i = 0; i < 200; i++) {
        const t0 = performance.now()
        const res = await jar.request(app, path)
        const body = (await res.json()) as unknown[]
        times.push(performance.now() - t0)
        rows = body.length
      }
      times.sort((a, b) => a - b)
      results.push({ label, rows, p50: percentile(times, 50), p95: percentile(times, 95) })
    }
    return { results, queryTimes, driver: db.driver }
  } finally {
    await cleanup()
    await db.close()
  }
}

const busy = await statusRequestsPerMinute(50)
const idle = await statusRequestsPerMinute(0)
console.log(
  `status requests in one minute: ${busy} with 50 items processing (expected 40: 2 kinds × 20 polls), ${idle} with none`,
)
const { results, queryTimes, driver } = await logQueryTimes()
console.log(
  'GET /logs on a company with 10 000 rows, whole request (app on PGlite, JSON of up to 1000 rows, 200 runs):',
)
for (const r of results)
  console.log(
    `  ${r.label.padEnd(42)} ${String(r.rows).padStart(5)} rows  p50 ${r.p50.toFixed(2)} ms  p95 ${r.p95.toFixed(2)} ms`,
  )
console.log(`the same filters and orders as database queries alone (${driver}, 200 runs):`)
for (const q of queryTimes)
  console.log(`  ${q.label.padEnd(42)} p50 ${q.p50.toFixed(2)} ms  p95 ${q.p95.toFixed(2)} ms`)
const worst = Math.max(...queryTimes.map((q) => q.p95))
console.log(`log query p95 (worst filter/sort, database query): ${worst.toFixed(2)} ms (budget 10 ms)`)

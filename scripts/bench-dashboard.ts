/**
 * Issue 6's figures, in one run (after `npm run bench:bundle`, which prints the dashboard's JS):
 * - status requests the upload queue issues in one (simulated) minute with 50 items processing
 *   and with none (expected: one bulk request per kind every 3 s while anything processes, else none);
 * - the server-side time to filter and sort the logs of a company with 10 000 rows, for the page
 *   the dashboard asks for (PAGE_SIZE rows) and the summary counts (uploads' rows with their
 *   documents, refused and client-created rows without): the route's query functions
 *   alone (budget p95 ≤ 10 ms), and the whole GET /logs request through the real app.
 *   Embedded PGlite by default; `TEST_DATABASE_URL=postgres://…` measures on a PostgreSQL server.
 */
import { performance } from 'node:perf_hooks'
import { createActor, createMachine, fromPromise, SimulatedClock, waitFor } from 'xstate'
import { refreshStatistics } from '../server/db/client.ts'
import { documents, logs } from '../server/db/schema.ts'
import { listLogs, summarizeLogs } from '../server/services/log-queries.ts'
import { PAGE_SIZE } from '../src/machines/dashboard/dashboard.machine.ts'
import { POLL_INTERVAL_MS, uploadQueueMachine } from '../src/machines/uploads/upload-queue.machine.ts'
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
    const kinds = { Invoice: 'invoice', Expense: 'expense', Document: 'document' } as const
    const start = Date.now()
    for (let batch = 0; batch < 10; batch++) {
      const rows = Array.from({ length: 1000 }, (_, i) => {
        const n = batch * 1000 + i
        return {
          n,
          companyId: company.id,
          name: `supplier-${n % 137}-invoice-${n}.pdf`,
          type: types[n % 3]!,
          status: statuses[n % 5]!,
          category: n % 3 === 2 ? 'Administration' : n % 3 === 1 ? 'Expenses' : 'Invoices',
          createdAt: new Date(start - (n % 60) * 86_400_000 - n * 1000),
        }
      })
      // As the app writes them: an upload's row shows its document's status (processing, completed,
      // failed); a refused file's row (rejected) and a row a client created (pending) have their own.
      const uploads = rows.filter((r) => ['processing', 'completed', 'failed'].includes(r.status))
      const created = await db.db
        .insert(documents)
        .values(
          uploads.map((r) => ({
            companyId: company.id,
            kind: kinds[r.type],
            category: r.category,
            status: r.status.toUpperCase() as 'PROCESSING' | 'COMPLETED' | 'FAILED',
            originalName: r.name,
            contentType: 'application/pdf',
            sizeBytes: 1,
            sha256: String(r.n),
            storageKey: `bench-${r.n}`,
            createdAt: r.createdAt,
            // In the review queue as the document service leaves them: FAILED, or warned (1 in 4).
            needsReview: r.status === 'failed' || (r.status === 'completed' && r.n % 4 === 0),
          })),
        )
        .returning({ id: documents.id })
      const documentOf = new Map(uploads.map((r, i) => [r.n, created[i]!.id]))
      await db.db
        .insert(logs)
        .values(
          rows.map(({ n, status, ...row }) =>
            documentOf.has(n) ? { ...row, documentId: documentOf.get(n)! } : { ...row, status },
          ),
        )
    }
    // Fresh statistics, as PostgreSQL's autovacuum or the embedded database's periodic ANALYZE
    // (server/db/client.ts) give a running server.
    await refreshStatistics(db)
    // The dashboard's own requests: a page of PAGE_SIZE rows under each filter and order.
    const base = `company_id=${company.id}&limit=${PAGE_SIZE}`
    const cases: [string, Record<string, string>][] = [
      [
        'failed invoices, last 30 days, by name',
        { status: 'FAILED', element_type: 'Invoice', last_days: '30', sort_by: 'name', sort_order: 'asc' },
      ],
      ['completed, by date desc', { status: 'COMPLETED', sort_by: 'date', sort_order: 'desc' }],
      ['to review, by date desc', { review: 'needed', sort_by: 'date', sort_order: 'desc' }],
      [
        'search "supplier-42", by status',
        { search_term: 'supplier-42-', sort_by: 'status', sort_order: 'asc' },
      ],
      [
        'custom range of 7 days, by type',
        {
          start_date: new Date(start - 14 * 86_400_000).toISOString(),
          end_date: new Date(start - 7 * 86_400_000).toISOString(),
          sort_by: 'type',
          sort_order: 'desc',
        },
      ],
      ['third page, by date desc', { sort_by: 'date', sort_order: 'desc', offset: String(2 * PAGE_SIZE) }],
    ]
    const time = async (run: () => Promise<unknown>) => {
      for (let i = 0; i < 20; i++) await run() // warm-up
      const times: number[] = []
      for (let i = 0; i < 200; i++) {
        const t0 = performance.now()
        await run()
        times.push(performance.now() - t0)
      }
      times.sort((a, b) => a - b)
      return { p50: percentile(times, 50), p95: percentile(times, 95) }
    }
    const now = new Date()
    // The queries alone: the same functions the route calls (server/services/log-queries.ts).
    const queryTimes: { label: string; rows: number; p50: number; p95: number }[] = []
    for (const [label, filters] of cases) {
      const raw = { ...filters, limit: String(PAGE_SIZE) }
      const { rows } = await listLogs(db.db, company.id, raw, now)
      queryTimes.push({
        label,
        rows: rows.length,
        ...(await time(() => listLogs(db.db, company.id, raw, now))),
      })
    }
    const summary = await summarizeLogs(db.db, company.id)
    queryTimes.push({
      label: `summary counts (${summary.total} rows)`,
      rows: 1,
      ...(await time(() => summarizeLogs(db.db, company.id))),
    })
    // The whole request through the real app (session, membership check, JSON).
    const results: { label: string; rows: number; p50: number; p95: number }[] = []
    for (const [label, filters] of cases) {
      const path = `/api/logs?${base}&${new URLSearchParams(filters)}`
      const rows = ((await (await jar.request(app, path)).json()) as unknown[]).length
      results.push({ label, rows, ...(await time(() => jar.request(app, path).then((r) => r.json()))) })
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
  `GET /logs on a company with 10 000 rows, a page of ${PAGE_SIZE} rows, whole request through the app (${driver}, 200 runs):`,
)
for (const r of results)
  console.log(
    `  ${r.label.padEnd(42)} ${String(r.rows).padStart(5)} rows  p50 ${r.p50.toFixed(2)} ms  p95 ${r.p95.toFixed(2)} ms`,
  )
console.log(`the same queries alone (the route's own functions, ${driver}, 200 runs):`)
for (const q of queryTimes)
  console.log(
    `  ${q.label.padEnd(42)} ${String(q.rows).padStart(5)} rows  p50 ${q.p50.toFixed(2)} ms  p95 ${q.p95.toFixed(2)} ms`,
  )
const worst = Math.max(...queryTimes.map((q) => q.p95))
console.log(`log query p95 (worst filter/sort, database query): ${worst.toFixed(2)} ms (budget 10 ms)`)

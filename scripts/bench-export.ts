/**
 * `npm run bench:export`: exports 100 000 invoices (BENCH_EXPORT_ROWS) as CSV through the API
 * (`GET /api/invoices/export`) of an in-process app on PGlite (or TEST_DATABASE_URL), reading the
 * streamed answer chunk by chunk. Prints the time, the size, the process's RSS growth above the
 * level after seeding and the V8 heap's peak growth (sampled every 20 ms; on PGlite the RSS also
 * holds the database's own memory), and the heap still retained after a GC once the export ends.
 */
import { performance } from 'node:perf_hooks'
import { sql } from 'drizzle-orm'
import { refreshStatistics } from '../server/db/client.ts'
import { insertCompany, memberOf } from '../tests/server/documents-support.ts'
import { createTestApp } from '../tests/server/helpers.ts'
import { createTestDatabase } from '../tests/support/db.ts'

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000)
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)
const gc = (globalThis as { gc?: () => void }).gc

async function main() {
  const database = await createTestDatabase()
  const ctx = await createTestApp(database.db)
  const companyId = (await insertCompany(database.db, 'Bench export')).id
  const { jar } = await memberOf(database.db, ctx.app, companyId)
  const seeded = performance.now()
  await database.db.execute(sql`
    insert into documents (company_id, kind, category, status, original_name, content_type, size_bytes,
      sha256, storage_key, invoice_number, document_date, business_name, business_address, vat_number,
      iban, currency, has_vat, total_charge_excluding_vat, total_vat_amount, total_invoice_including_vat,
      created_at)
    select ${companyId}, 'invoice', 'Invoices', 'COMPLETED', 'bench-' || g || '.pdf', 'application/pdf', 1000,
      md5(g::text), 'bench-key-' || g, 'F-' || g, date '2025-01-01' + (g % 365), 'Supplier ' || (g % 500),
      '1 rue de la Paix; 75002 Paris', 'FR40303265045', 'FR7630006000011234567890189', 'EUR', true,
      100.5, 20.1, 120.6, now() - (g || ' seconds')::interval
    from generate_series(1, ${ROWS}) g`)
  // As the server does at start-up on PGlite (which has no autovacuum): the planner knows the table.
  await refreshStatistics(database)
  console.info(`seeded ${ROWS} invoices in ${((performance.now() - seeded) / 1000).toFixed(1)} s`)

  gc?.()
  const base = process.memoryUsage()
  let peak = base.rss
  let peakHeap = base.heapUsed
  const sampler = setInterval(() => {
    const now = process.memoryUsage()
    peak = Math.max(peak, now.rss)
    peakHeap = Math.max(peakHeap, now.heapUsed)
  }, 20)
  const started = performance.now()
  const res = await jar.request(ctx.app, `/api/invoices/export?company_id=${companyId}&format=csv`)
  if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`)
  let bytes = 0
  let lines = 0
  const reader = res.body.getReader()
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.byteLength
    for (const b of read.value) if (b === 10) lines++
  }
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  gc?.()
  const retained = process.memoryUsage().heapUsed - base.heapUsed
  if (lines !== ROWS + 1) throw new Error(`expected ${ROWS + 1} lines, got ${lines}`)
  console.info(
    `export: ${ROWS} rows, ${mb(bytes)} MB in ${seconds.toFixed(2)} s; ` +
      `RSS growth ${mb(peak - base.rss)} MB (base ${mb(base.rss)} MB, peak ${mb(peak)} MB), ` +
      `V8 heap peak growth ${mb(peakHeap - base.heapUsed)} MB, retained after GC ${mb(retained)} MB${gc ? '' : ' [no --expose-gc]'}`,
  )
  await ctx.cleanup()
  await database.close()
}

await main()

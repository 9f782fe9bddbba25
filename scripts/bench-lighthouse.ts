/**
 * Lighthouse 12 performance scores, mobile (its default: simulated slow 4G and 4× CPU slowdown)
 * and desktop, for /login (signed out) and the dashboard (signed in: a first administrator is
 * seeded at start-up, signed in through the API, and its session cookie sent as an extra header).
 * Runs Debian's Chromium against the built app served by the real server; heavy, so separate from
 * `bench:bundle`. `LH_RUNS=3` takes the median of three runs per page and form factor.
 * Run `npm run build` first (`npm run bench:lighthouse` does). Scores vary with the machine's load.
 * Environment: `LH_RUNS` (runs per page and form factor, median reported), `LH_FORM_FACTORS`
 * (`mobile,desktop` by default), `STATIC_DIR` (another built app to serve, e.g. a copy of an older
 * dist/ to compare), `LH_REPORT_DIR` (writes each run's JSON report there).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse'
import { freePort, startServer } from '../tests/support/server-process'

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
const admin = { email: 'bench@example.com', password: 'Bench1234' }
const runs = Math.max(1, Number(process.env.LH_RUNS ?? 1))
const FORM_FACTORS = ['mobile', 'desktop'] as const
type FormFactor = (typeof FORM_FACTORS)[number]
const formFactors = (process.env.LH_FORM_FACTORS ?? 'mobile,desktop')
  .split(',')
  .map((name) => name.trim())
  .filter((name): name is FormFactor => (FORM_FACTORS as readonly string[]).includes(name))
const reportDir = process.env.LH_REPORT_DIR

async function launchChromium() {
  const port = await freePort()
  const profile = await mkdtemp(join(tmpdir(), 'docflow-lighthouse-'))
  const child: ChildProcess = spawn(
    process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    [...CHROMIUM_FLAGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: 'ignore' },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const deadline = Date.now() + 30_000
  while (
    !(await fetch(`http://127.0.0.1:${port}/json/version`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error('Chromium did not open its debugging port')
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    port,
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM')
        await exited
      }
      await rm(profile, { recursive: true, force: true })
    },
  }
}

/** The session cookie of the seeded administrator, as a `Cookie` header value. */
async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: url },
    body: JSON.stringify(admin),
  })
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`)
  return res.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ')
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
const metric = (lhr: Result, id: string) => lhr.audits[id]?.numericValue ?? Number.NaN

const ATTEMPTS = 3

/**
 * One Lighthouse run in a fresh Chromium (runs sharing a browser fail now and then with
 * NO_NAVSTART); a run that ends in a runtime error is tried again, up to ATTEMPTS times.
 */
async function runOnce(url: string, formFactor: FormFactor, cookie?: string): Promise<Result> {
  let lastError = ''
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const chromium = await launchChromium()
    try {
      const flags: Flags = {
        port: chromium.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
      }
      const outcome = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined)
      if (outcome && !outcome.lhr.runtimeError) {
        // A dashboard run that ended on /login measured the wrong page (the cookie was refused).
        const landed = new URL(outcome.lhr.finalDisplayedUrl).pathname
        if (landed !== new URL(url).pathname) throw new Error(`${url} ended on ${landed}`)
        return outcome.lhr
      }
      lastError = outcome?.lhr.runtimeError?.message ?? 'no result'
    } finally {
      await chromium.close()
    }
  }
  throw new Error(`${url} (${formFactor}): ${lastError}`)
}

async function saveReport(lhr: Result, name: string) {
  if (!reportDir) return
  await mkdir(reportDir, { recursive: true })
  await writeFile(join(reportDir, `${name}.json`), JSON.stringify(lhr))
}

async function measure(url: string, formFactor: FormFactor, cookie?: string) {
  const results: Result[] = []
  for (let i = 0; i < runs; i++) {
    const lhr = await runOnce(url, formFactor, cookie)
    await saveReport(lhr, `${formFactor}-${new URL(url).pathname.replace(/\W/g, '') || 'dashboard'}-${i + 1}`)
    results.push(lhr)
  }
  const score = median(results.map((r) => Math.round((r.categories.performance?.score ?? 0) * 100)))
  const ms = (id: string) => `${Math.round(median(results.map((r) => metric(r, id))))} ms`
  return `${score}  (FCP ${ms('first-contentful-paint')}, LCP ${ms('largest-contentful-paint')}, TBT ${ms('total-blocking-time')}, CLS ${median(results.map((r) => metric(r, 'cumulative-layout-shift'))).toFixed(3)})`
}

const server = await startServer({
  ADMIN_EMAIL: admin.email,
  ADMIN_PASSWORD: admin.password,
  ...(process.env.STATIC_DIR ? { STATIC_DIR: process.env.STATIC_DIR } : {}),
})
try {
  const cookie = await signIn(server.url)
  console.log(
    `Lighthouse performance (median of ${runs} run${runs > 1 ? 's' : ''}; varies with the machine's load)`,
  )
  for (const formFactor of formFactors) {
    console.log(`  ${formFactor.padEnd(7)} /login     ${await measure(`${server.url}/login`, formFactor)}`)
    console.log(`  ${formFactor.padEnd(7)} dashboard  ${await measure(`${server.url}/`, formFactor, cookie)}`)
  }
} finally {
  await server.stop()
}

/**
 * Lighthouse 12 performance scores, mobile (its default: simulated slow 4G and 4× CPU slowdown)
 * and desktop, for /login (signed out) and the dashboard (signed in: a first administrator is
 * seeded at start-up, signed in through the API, and its session cookie sent as an extra header).
 * Runs Debian's Chromium against the built app served by the real server; heavy, so separate from
 * `bench:bundle`. `LH_RUNS=3` takes the median of three runs per page and form factor.
 * Run `npm run build` first (`npm run bench:lighthouse` does). Scores vary with the machine's load.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
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
async function runOnce(url: string, formFactor: 'mobile' | 'desktop', cookie?: string): Promise<Result> {
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

async function measure(url: string, formFactor: 'mobile' | 'desktop', cookie?: string) {
  const results: Result[] = []
  for (let i = 0; i < runs; i++) results.push(await runOnce(url, formFactor, cookie))
  const score = median(results.map((r) => Math.round((r.categories.performance?.score ?? 0) * 100)))
  const ms = (id: string) => `${Math.round(median(results.map((r) => metric(r, id))))} ms`
  return `${score}  (FCP ${ms('first-contentful-paint')}, LCP ${ms('largest-contentful-paint')}, TBT ${ms('total-blocking-time')}, CLS ${median(results.map((r) => metric(r, 'cumulative-layout-shift'))).toFixed(3)})`
}

const server = await startServer({ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password })
try {
  const cookie = await signIn(server.url)
  console.log(
    `Lighthouse performance (median of ${runs} run${runs > 1 ? 's' : ''}; varies with the machine's load)`,
  )
  for (const formFactor of ['mobile', 'desktop'] as const) {
    console.log(`  ${formFactor.padEnd(7)} /login     ${await measure(`${server.url}/login`, formFactor)}`)
    console.log(`  ${formFactor.padEnd(7)} dashboard  ${await measure(`${server.url}/`, formFactor, cookie)}`)
  }
} finally {
  await server.stop()
}

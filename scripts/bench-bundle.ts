/**
 * Prints the gzip size of the JavaScript a browser loads for /login (signed out) and for the
 * dashboard (signed in, cold load of /), measured in Chromium against the real built app.
 * Budgets: tests/support/bundle.ts (tests/e2e/bundle-budget.test.ts holds them in `npm test`).
 * Then the bytes the server sends over the wire for each page's document, JS, CSS and catalog with `Accept-Encoding: br, gzip` (and uncompressed, for comparison).
 * Run `npm run build` first (`npm run bench:bundle` does).
 */
import { launchBrowser } from '../tests/support/browser'
import { BUDGET_KIB, scriptsLoaded as jsLoaded, totalKiB } from '../tests/support/bundle'
import { startServer } from '../tests/support/server-process'
import { printWire, wireSizes } from './bench-wire.ts'

const admin = { email: 'bench@example.com', password: 'Bench1234' }

function print(label: string, files: Map<string, number>, budget: number) {
  const total = totalKiB(files) * 1024
  console.log(`\n${label}: ${files.size} scripts`)
  for (const [name, size] of [...files].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${(size / 1024).toFixed(1).padStart(7)} KiB  ${name}`)
  }
  console.log(`${label} JS (gzip): ${(total / 1024).toFixed(1)} KiB (budget ${budget} KiB)`)
  const over = total / 1024 > budget
  if (over) console.error(`${label} is over its ${budget} KiB budget.`)
  return over
}

// STATIC_DIR: another built app to measure (a copy of an older dist/, to compare).
const server = await startServer({
  ADMIN_EMAIL: admin.email,
  ADMIN_PASSWORD: admin.password,
  ...(process.env.STATIC_DIR ? { STATIC_DIR: process.env.STATIC_DIR } : {}),
})
const browser = await launchBrowser()
let over = false
try {
  const context = await browser.newContext()
  const page = await context.newPage()
  const login = await jsLoaded(page, () => page.goto(`${server.url}/login`), 'Sign in')
  over = print('/login', login, BUDGET_KIB.login) || over

  await page.getByLabel('Email').fill(admin.email)
  await page.getByLabel('Password', { exact: true }).fill(admin.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  // Signed in once the app leaves /login (to the 2FA setup advice or the dashboard).
  await page.waitForURL((url) => url.pathname !== '/login')

  const cold = await context.newPage()
  const dashboard = await jsLoaded(cold, () => cold.goto(`${server.url}/`), 'Welcome back,')
  over = print('dashboard', dashboard, BUDGET_KIB.dashboard) || over

  printWire('/login', await wireSizes(login.assets))
  printWire('dashboard', await wireSizes(dashboard.assets))
} finally {
  await browser.close()
  await server.stop()
}
if (over) process.exit(1)

/**
 * Adds up the vitest JSON reports of `npm test` into one closing line: 'N passed, N failed', and
 * names every failed test (file, title, first line of its error) above it, so the end of a long CI
 * log says what failed without scrolling back through thousands of lines.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const dir = process.argv[2]
let passed = 0
let failed = 0
let skipped = 0
const failures = []
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const run = file.replace('.json', '')
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'))
  passed += report.numPassedTests
  failed += report.numFailedTests
  skipped += report.numPendingTests + report.numTodoTests
  for (const suite of report.testResults ?? []) {
    const path = relative(process.cwd(), suite.name)
    const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === 'failed')
    for (const test of failedTests) {
      const message = (test.failureMessages?.[0] ?? '').split('\n').find((line) => line.trim()) ?? ''
      failures.push(`${run}: ${path} › ${test.fullName}\n    ${message.trim().slice(0, 300)}`)
    }
    if (failedTests.length === 0 && suite.status === 'failed') {
      failures.push(`${run}: ${path} (the file failed: ${(suite.message ?? '').split('\n')[0]})`)
    }
  }
  console.log(`${run}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`)
}
if (failures.length > 0) console.log(`\nfailed:\n${failures.map((f) => `  ${f}`).join('\n')}`)
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)

/**
 * `npm start`: builds the browser app only when what the build reads changed since the last
 * finished build (scripts/build-stamp.ts), saying why it builds or not, then starts the server
 * in this process.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkBuild } from './build-stamp.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

const decision = await checkBuild(root, process.env)
console.log(`start: ${decision.build ? 'building the app' : 'skipping the build'}: ${decision.reason}`)
if (decision.build) {
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], {
    stdio: 'inherit',
    cwd: root,
  })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
await import('../server/main.ts')

/** Runs a local binary from node_modules/.bin (never through npx, whose wrapper outlives kills). */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const root = fileURLToPath(new URL('..', import.meta.url))

export function run(bin, args, options = {}) {
  const result = spawnSync(`${root}node_modules/.bin/${bin}`, args, {
    stdio: 'inherit',
    cwd: root,
    ...options,
  })
  if (result.status !== 0) {
    console.error(`\n✗ ${bin} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`)
    process.exit(result.status ?? 1)
  }
}

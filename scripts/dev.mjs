/** Development: the API server (tsx watch) on API_PORT (3000) and Vite with hot reload on 5173. */
import { spawn } from 'node:child_process'
import { root } from './run.mjs'

const apiPort = process.env.API_PORT ?? '3000'
const children = [
  spawn(`${root}node_modules/.bin/lingui`, ['compile'], { stdio: 'inherit', cwd: root }),
  spawn(`${root}node_modules/.bin/tsx`, ['watch', 'server/main.ts'], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, PORT: apiPort },
  }),
  spawn(`${root}node_modules/.bin/vite`, [], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, API_PORT: apiPort },
  }),
]
const stop = () => {
  for (const child of children) child.kill('SIGTERM')
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)

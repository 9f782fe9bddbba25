/** Production build: Panda styles, compiled message catalogs (every French message required), Vite. */
import { run } from './run.mjs'

run('panda', ['codegen', '--silent'])
run('lingui', ['compile', '--strict'])
run('vite', ['build', '--logLevel', 'warn'])
console.log('build: dist/ and locales/*/common.json are ready')

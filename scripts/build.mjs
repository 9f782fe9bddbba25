/**
 * Production build: Panda styles, compiled message catalogs (every French message required), Vite,
 * then brotli and gzip copies of the built files and catalogs (served as they are), and last the
 * fingerprint of the inputs (dist/.build-stamp.json) that lets `npm start` skip an unneeded build.
 */
import { tsImport } from 'tsx/esm/api'
import { root, run } from './run.mjs'

const stamp = await tsImport('./build-stamp.ts', import.meta.url)
const { precompressDirectory } = await tsImport('./precompress.ts', import.meta.url)
// Taken before building: a source edited during the build makes the next start build again.
const inputs = await stamp.fingerprint(root, process.env)

run('panda', ['codegen', '--silent'])
run('lingui', ['compile', '--strict'])
run('vite', ['build', '--logLevel', 'warn'])
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`
for (const dir of ['dist', 'locales']) {
  const sizes = await precompressDirectory(`${root}${dir}`)
  console.log(
    `build: ${sizes.files} files in ${dir}/ compressed: ${kib(sizes.bytes)} → br ${kib(sizes.brotliBytes)}, gzip ${kib(sizes.gzipBytes)}`,
  )
}
await stamp.writeStamp(root, inputs)
console.log('build: dist/ and locales/*/common.json are ready')

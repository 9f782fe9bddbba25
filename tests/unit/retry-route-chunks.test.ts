// @vitest-environment node
import { expect, it } from 'vitest'
import { wrapRouteImporters } from '../../vite.config.ts'

const HELPER = '/app/src/api/code-chunks.ts'

/** A route module as TanStack's code splitter leaves it (two split importers and other code). */
const route = [
  "import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router'",
  "const $$splitComponentImporter = () => import('./settings.tsx?tsr-split=component')",
  'const $$splitErrorComponentImporter = () => import("./settings.tsx?tsr-split=errorComponent")',
  "const other = () => import('./not-a-route-chunk')",
  "export const Route = createFileRoute('/settings')({ component: lazyRouteComponent($$splitComponentImporter, 'component') })",
].join('\n')

it('wraps each split importer of a route module in retryImport, and nothing else', () => {
  const out = wrapRouteImporters(route, HELPER)
  expect(out).not.toBeNull()
  const lines = out!.code.split('\n')
  expect(lines[0]).toBe(`import { retryImport as $$retryImport } from ${JSON.stringify(HELPER)};`)
  expect(lines).toContain(
    "const $$splitComponentImporter = () => $$retryImport(() => import('./settings.tsx?tsr-split=component'))",
  )
  expect(lines).toContain(
    'const $$splitErrorComponentImporter = () => $$retryImport(() => import("./settings.tsx?tsr-split=errorComponent"))',
  )
  expect(lines).toContain("const other = () => import('./not-a-route-chunk')")
  // The map points the wrapped importer back at its line in the module as the splitter wrote it.
  expect(out!.map.sources).toHaveLength(1)
  expect(out!.map.mappings.split(';')).toHaveLength(lines.length)
})

it('leaves a module without split importers alone', () => {
  expect(wrapRouteImporters("export const x = () => import('./y')", HELPER)).toBeNull()
})

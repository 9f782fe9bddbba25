/**
 * Fails when an import crosses between the browser app and the server: `src/` and `server/` share
 * only the top-level `contract/` (schemas, document kinds, status and error codes, the text rule),
 * and `contract/` imports neither of them. Every import form counts: `import`, `import type`,
 * `export … from`, `import()` and `require()`, written as a relative path or from the repository's
 * root (tsconfig's `baseUrl`).
 *
 *   node --import tsx scripts/check-boundaries.ts
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'

/** The folders checked, and for each the folders it must not import. */
export const FORBIDDEN: Record<string, readonly string[]> = {
  src: ['server'],
  server: ['src'],
  contract: ['src', 'server'],
}

export interface Violation {
  /** The importing file and line, relative to the repository (`server/http/auth.ts:3`). */
  where: string
  /** The import as written. */
  specifier: string
  /** The folder it reaches. */
  target: string
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path)
    return /\.(tsx?|mts|cts|jsx?|mjs|cjs)$/.test(entry.name) ? [path] : []
  })
}

/** The repository's top-level folder an import reaches, or null for a package. */
function targetFolder(root: string, file: string, specifier: string): string | null {
  if (specifier.startsWith('.')) {
    const path = relative(root, resolve(dirname(file), specifier))
    return path.startsWith('..') ? null : (path.split(sep)[0] ?? null)
  }
  // A bare `server/…` or `src/…` resolves from the root through tsconfig's baseUrl.
  const first = specifier.split('/')[0] ?? ''
  return first in FORBIDDEN ? first : null
}

/** Every forbidden import under `root`'s checked folders. */
export function findViolations(root: string): Violation[] {
  const violations: Violation[] = []
  for (const [folder, forbidden] of Object.entries(FORBIDDEN)) {
    for (const file of sourceFiles(join(root, folder))) {
      const text = readFileSync(file, 'utf8')
      const { importedFiles } = ts.preProcessFile(text, true, true)
      for (const imported of importedFiles) {
        const target = targetFolder(root, file, imported.fileName)
        if (target === null || !forbidden.includes(target)) continue
        const line = text.slice(0, imported.pos).split('\n').length
        violations.push({
          where: `${relative(root, file).split(sep).join('/')}:${line}`,
          specifier: imported.fileName,
          target,
        })
      }
    }
  }
  return violations
}

if (import.meta.filename === process.argv[1]) {
  const violations = findViolations(join(import.meta.dirname, '..'))
  for (const v of violations) console.error(`${v.where}  imports ${v.specifier} (${v.target}/)`)
  if (violations.length > 0) {
    console.error(
      `${violations.length} import(s) across the boundary: src/ and server/ share only contract/, which imports neither`,
    )
    process.exit(1)
  }
  console.log('no import between src/ and server/ other than through contract/')
}

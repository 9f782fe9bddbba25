/**
 * Whether the browser app must be built again: a fingerprint (a SHA-256 per file) of everything
 * the build reads, stored in dist/ after each build and compared by `npm start`, which then
 * skips the 30 s build when nothing changed. The build's own environment (the API prefix baked
 * into the bundle) is part of the fingerprint.
 */
import { createHash } from 'node:crypto'
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import * as v from 'valibot'
import { LANGUAGES } from '../contract/index.ts'

/** What the build reads: folders (every file under them) and files, relative to the repository. */
export const BUILD_INPUTS = [
  'src',
  'contract',
  'locales',
  'public',
  'index.html',
  'vite.config.ts',
  'panda.config.ts',
  'lingui.config.ts',
  'postcss.config.cjs',
  'tsconfig.json',
  'package-lock.json',
  'scripts/build.mjs',
  'scripts/run.mjs',
  'scripts/precompress.ts',
  'server/http/compression.ts',
  'scripts/build-stamp.ts',
] as const

/** Environment variables vite.config.ts bakes into the bundle. */
export const BUILD_ENV = ['VITE_API_BASE_URL', 'API_PREFIX'] as const

/** Files the build itself writes among its inputs: the compiled catalogs and their copies. */
const GENERATED = /^locales\/[^/]+\/[^/]+\.json(?:\.br|\.gz)?$/

export const STAMP_FILE = join('dist', '.build-stamp.json')

/** Input name (a path with '/' or `env:NAME`) → a digest of its content or value. */
export type Fingerprint = Record<string, string>

export interface BuildDecision {
  build: boolean
  reason: string
}

const digest = (data: Buffer | string) => createHash('sha256').update(data).digest('hex').slice(0, 32)

async function filesOf(root: string, input: string): Promise<string[]> {
  const path = join(root, input)
  const info = await stat(path).catch(() => null)
  if (!info) return []
  if (info.isFile()) return [input]
  const entries = await readdir(path, { withFileTypes: true, recursive: true })
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
}

/** The fingerprint of the build's inputs under `root` and of its environment. */
export async function fingerprint(
  root: string,
  env: Record<string, string | undefined>,
): Promise<Fingerprint> {
  const files = (await Promise.all(BUILD_INPUTS.map((input) => filesOf(root, input))))
    .flat()
    .filter((file) => !GENERATED.test(file))
    .sort()
  const result: Fingerprint = {}
  for (const file of files) result[file] = digest(await readFile(join(root, file)))
  for (const name of BUILD_ENV) result[`env:${name}`] = digest(env[name] ?? '')
  return result
}

/** What `npm start` needs from a build: the app's page and every compiled catalog. */
export async function missingOutputs(root: string): Promise<string[]> {
  const outputs = ['dist/index.html', ...LANGUAGES.map((lng) => `locales/${lng}/common.json`)]
  const present = await Promise.all(
    outputs.map((file) =>
      stat(join(root, file)).then(
        (s) => s.isFile(),
        () => false,
      ),
    ),
  )
  return outputs.filter((_, i) => !present[i])
}

function listChanges(previous: Fingerprint, current: Fingerprint): string[] {
  const names = new Set([...Object.keys(previous), ...Object.keys(current)])
  const changes: string[] = []
  for (const name of [...names].sort()) {
    if (!(name in previous)) changes.push(`${name} (new)`)
    else if (!(name in current)) changes.push(`${name} (removed)`)
    else if (previous[name] !== current[name]) changes.push(name)
  }
  return changes
}

const SHOWN_CHANGES = 5

/** Build when outputs are missing, when no build finished before, or when any input changed. */
export function decideBuild(
  previous: Fingerprint | null,
  current: Fingerprint,
  missing: readonly string[],
): BuildDecision {
  if (missing.length > 0) return { build: true, reason: `not built yet (${missing.join(', ')} missing)` }
  if (!previous) return { build: true, reason: `no record of a finished build (${STAMP_FILE} missing)` }
  const changes = listChanges(previous, current)
  if (changes.length === 0) {
    return {
      build: false,
      reason: `the ${Object.keys(current).length} inputs are unchanged since the last build`,
    }
  }
  const shown = changes.slice(0, SHOWN_CHANGES).join(', ')
  const more = changes.length > SHOWN_CHANGES ? ` and ${changes.length - SHOWN_CHANGES} more` : ''
  return { build: true, reason: `changed since the last build: ${shown}${more}` }
}

const Stamp = v.object({ builtAt: v.string(), inputs: v.record(v.string(), v.string()) })

/** The fingerprint stored by the last finished build; null when absent or unreadable. */
export async function readStamp(root: string): Promise<Fingerprint | null> {
  const text = await readFile(join(root, STAMP_FILE), 'utf8').catch(() => null)
  if (text === null) return null
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return null
  }
  const stamp = v.safeParse(Stamp, json)
  return stamp.success ? stamp.output.inputs : null
}

export async function writeStamp(root: string, inputs: Fingerprint): Promise<void> {
  await writeFile(
    join(root, STAMP_FILE),
    `${JSON.stringify({ builtAt: new Date().toISOString(), inputs }, null, 1)}\n`,
  )
}

/** The decision for the repository at `root` in environment `env`. */
export async function checkBuild(
  root: string,
  env: Record<string, string | undefined>,
): Promise<BuildDecision> {
  const [previous, current, missing] = await Promise.all([
    readStamp(root),
    fingerprint(root, env),
    missingOutputs(root),
  ])
  return decideBuild(previous, current, missing)
}

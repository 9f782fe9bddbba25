/**
 * `npm start` builds only when the build's inputs changed: the decision from a stored and a
 * current fingerprint, and the fingerprint of a small repository laid out in a temporary folder.
 */
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkBuild, decideBuild, fingerprint, STAMP_FILE, writeStamp } from '../../scripts/build-stamp.ts'

describe('decideBuild', () => {
  const built = { 'src/main.tsx': 'a1', 'index.html': 'b2', 'env:API_PREFIX': 'c3' }

  it('skips the build when every input is unchanged', () => {
    const decision = decideBuild(built, { ...built }, [])
    expect(decision.build).toBe(false)
    expect(decision.reason).toContain('3 inputs are unchanged')
  })

  it('builds when an output is missing, even with unchanged inputs', () => {
    const decision = decideBuild(built, { ...built }, ['dist/index.html'])
    expect(decision).toEqual({ build: true, reason: 'not built yet (dist/index.html missing)' })
  })

  it('builds when no build finished before', () => {
    const decision = decideBuild(null, built, [])
    expect(decision.build).toBe(true)
    expect(decision.reason).toContain(STAMP_FILE)
  })

  it('builds and names what changed, was added or removed', () => {
    const { 'index.html': _removed, ...rest } = built
    const current = { ...rest, 'src/main.tsx': 'zz', 'src/new.ts': 'd4' }
    const decision = decideBuild(built, current, [])
    expect(decision.build).toBe(true)
    expect(decision.reason).toBe(
      'changed since the last build: index.html (removed), src/main.tsx, src/new.ts (new)',
    )
  })

  it('builds when the API prefix baked into the bundle changed', () => {
    const decision = decideBuild(built, { ...built, 'env:API_PREFIX': 'other' }, [])
    expect(decision).toEqual({ build: true, reason: 'changed since the last build: env:API_PREFIX' })
  })

  it('names five changes and counts the others', () => {
    const many = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`src/f${i}.ts`, 'x']))
    const decision = decideBuild({}, many, [])
    expect(decision.reason).toMatch(/src\/f4\.ts \(new\) and 3 more$/)
  })
})

describe('fingerprint and checkBuild on a repository', () => {
  let root: string
  const put = async (path: string, content: string) => {
    await mkdir(join(root, path, '..'), { recursive: true })
    await writeFile(join(root, path), content)
  }
  const builtOutputs = async () => {
    await put('dist/index.html', '<html></html>')
    await put('locales/en/common.json', '{}')
    await put('locales/fr/common.json', '{}')
  }

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'docflow-build-stamp-'))
    await put('src/main.tsx', 'render()')
    await put('src/ui/view.tsx', 'export const View = 1')
    await put('locales/en/common.po', 'msgid "a"')
    await put('index.html', '<html></html>')
    await put('package-lock.json', '{}')
    await put('server/app.ts', 'server code')
  })
  afterEach(() => rm(root, { recursive: true, force: true }))

  it('covers the sources and the environment, not the server nor the compiled catalogs', async () => {
    await put('locales/en/common.json', '{}')
    const prints = await fingerprint(root, { API_PREFIX: '/api' })
    expect(Object.keys(prints).sort()).toEqual([
      'env:API_PREFIX',
      'env:VITE_API_BASE_URL',
      'index.html',
      'locales/en/common.po',
      'package-lock.json',
      'src/main.tsx',
      'src/ui/view.tsx',
    ])
    expect((await fingerprint(root, { API_PREFIX: '/backend' }))['env:API_PREFIX']).not.toBe(
      prints['env:API_PREFIX'],
    )
  })

  it('builds a fresh clone, then skips until a source changes', async () => {
    const env = {}
    expect(await checkBuild(root, env)).toMatchObject({
      build: true,
      reason: expect.stringContaining('not built yet'),
    })

    await builtOutputs()
    expect(await checkBuild(root, env)).toMatchObject({
      build: true,
      reason: expect.stringContaining(STAMP_FILE),
    })

    await writeStamp(root, await fingerprint(root, env))
    expect((await checkBuild(root, env)).build).toBe(false)

    // A touched file with the same content (a checkout, a save without edit) is no change.
    await utimes(join(root, 'src/main.tsx'), new Date(), new Date(Date.now() + 60_000))
    await put('server/app.ts', 'another server')
    expect((await checkBuild(root, env)).build).toBe(false)

    await put('src/ui/view.tsx', 'export const View = 2')
    expect(await checkBuild(root, env)).toEqual({
      build: true,
      reason: 'changed since the last build: src/ui/view.tsx',
    })
  })

  it('builds again when the stamp is unreadable', async () => {
    await builtOutputs()
    await put(STAMP_FILE, '{"inputs": 3}')
    expect((await checkBuild(root, {})).build).toBe(true)
    await put(STAMP_FILE, 'not json')
    expect((await checkBuild(root, {})).build).toBe(true)
  })
})

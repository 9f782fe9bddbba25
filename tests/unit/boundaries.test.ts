/**
 * The import boundary of `npm run lint` (scripts/check-boundaries.ts): the browser app and the
 * server share only contract/. Checked on a small repository laid out in a temporary folder, then
 * on this one.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { findViolations } from '../../scripts/check-boundaries.ts'

describe('findViolations', () => {
  let root: string
  const put = async (path: string, content: string) => {
    await mkdir(join(root, path, '..'), { recursive: true })
    await writeFile(join(root, path), content)
  }

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'docflow-boundaries-'))
    await put('contract/index.ts', "import * as v from 'valibot'\nexport const Id = v.number()\n")
    await put('src/api/http.ts', "import { Id } from '../../contract/index.ts'\nexport const id = Id\n")
    await put('src/ui/view.tsx', "import { id } from '../api/http.ts'\nexport const View = id\n")
    await put('server/http/errors.ts', "import { Id } from '../../contract/index.ts'\nexport { Id }\n")
  })
  afterEach(() => rm(root, { recursive: true, force: true }))

  it('accepts imports through the contract and within each side', () => {
    expect(findViolations(root)).toEqual([])
  })

  it('flags the server importing the browser app, in every import form', async () => {
    await put(
      'server/routes/bad.ts',
      [
        "import { Id } from '../../contract/index.ts'",
        "import type { View } from '../../src/ui/view.tsx'",
        "export { id } from '../../src/api/http.ts'",
        "const lazy = () => import('../../src/ui/view.tsx')",
        "import { other } from 'src/api/http'",
      ].join('\n'),
    )
    expect(findViolations(root)).toEqual([
      { where: 'server/routes/bad.ts:2', specifier: '../../src/ui/view.tsx', target: 'src' },
      { where: 'server/routes/bad.ts:3', specifier: '../../src/api/http.ts', target: 'src' },
      { where: 'server/routes/bad.ts:4', specifier: '../../src/ui/view.tsx', target: 'src' },
      { where: 'server/routes/bad.ts:5', specifier: 'src/api/http', target: 'src' },
    ])
  })

  it('flags the browser app importing the server', async () => {
    await put('src/api/documents.ts', "import { Id } from '../../server/http/errors.ts'\nexport { Id }\n")
    expect(findViolations(root)).toEqual([
      { where: 'src/api/documents.ts:1', specifier: '../../server/http/errors.ts', target: 'server' },
    ])
  })

  it('flags the contract importing either side', async () => {
    await put(
      'contract/labels.ts',
      "import { View } from '../src/ui/view.tsx'\nimport { Id } from '../server/http/errors.ts'\n",
    )
    expect(findViolations(root)).toEqual([
      { where: 'contract/labels.ts:1', specifier: '../src/ui/view.tsx', target: 'src' },
      { where: 'contract/labels.ts:2', specifier: '../server/http/errors.ts', target: 'server' },
    ])
  })
})

it('finds no import across the boundary in this repository', () => {
  expect(findViolations(join(import.meta.dirname, '../..'))).toEqual([])
})

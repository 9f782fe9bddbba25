import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { indexScriptSources, inlineScriptHashes } from '../../server/http/inline-scripts'

let dir: string | undefined
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
  dir = undefined
})

describe('inline script hashes for the CSP', () => {
  it("gives the sha256 of each inline script's exact text, and none for external scripts", () => {
    const html =
      '<head><script>var a = 1\n</script><script type="module" src="/x.js"></script><script>b()</script>'
    // Known digests: printf 'var a = 1\n' | openssl dgst -sha256 -binary | base64 (and 'b()').
    expect(inlineScriptHashes(html)).toEqual([
      "'sha256-mYzqqcqkC8ZN85J9Q/1Myg9CRwSQok8UpTIsvI0hD3o='",
      "'sha256-cf242PFc/kb7xD0Qzhsmd9vvRkc+cWFmbi+k+YvtdKc='",
    ])
  })

  it("answers 'self' alone without index.html or inline scripts, and follows a rebuilt file", async () => {
    dir = await mkdtemp(join(tmpdir(), 'docflow-csp-'))
    const sources = indexScriptSources(dir)
    expect(sources()).toBe("'self'")
    await writeFile(join(dir, 'index.html'), '<html><body></body></html>')
    expect(sources()).toBe("'self'")
    await writeFile(join(dir, 'index.html'), '<script>b()</script>')
    // A later modification time, as a rebuild gives (without waiting for the clock).
    await utimes(join(dir, 'index.html'), new Date(), new Date(Date.now() + 60_000))
    expect(sources()).toBe("'self' 'sha256-cf242PFc/kb7xD0Qzhsmd9vvRkc+cWFmbi+k+YvtdKc='")
  })
})

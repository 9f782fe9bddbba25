/**
 * Where uploaded files live. Routes and jobs only see this interface, so an S3-compatible
 * store can replace the local directory without touching them. Keys are random ids chosen by
 * the server; a client's file name never reaches a path.
 */
import { randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

export interface FileStorage {
  /** A new random key. */
  newKey(): string
  /** Streams `source` into the store under `key`; nothing is left behind when it fails. */
  put(key: string, source: Readable): Promise<{ size: number }>
  get(key: string): Promise<Readable>
  read(key: string): Promise<Buffer>
  stat(key: string): Promise<{ size: number } | null>
  delete(key: string): Promise<void>
  /**
   * Removes partial files (uploads cut by a crash or a stalled client) older than `maxAgeMs`
   * that no upload of this process is writing; answers how many went.
   */
  sweepPartials(maxAgeMs: number): Promise<number>
}

/** Partial files older than this are left-overs: a live upload writes to its file constantly. */
export const PARTIAL_MAX_AGE_MS = 60 * 60 * 1000

const KEY = /^[a-f0-9-]{36}$/

/** Files under `root` (DATA_DIR/files), spread over 256 sub-directories by key prefix. */
export function createLocalStorage(root: string): FileStorage {
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error('Invalid storage key')
    return join(root, key.slice(0, 2), key)
  }
  const tmpDir = join(root, '.tmp')
  // Partial files being written by this process: a periodic sweep must not pull one away.
  const writing = new Set<string>()
  // Directories known to exist: an upload makes no mkdir calls once its directories are there
  // (two per upload were measurable work on the web thread during a burst). One removed from
  // outside is made again: at once for a file's directory, on the next upload for .tmp.
  const made = new Set<string>()
  const ensureDir = async (dir: string) => {
    if (made.has(dir)) return
    await mkdir(dir, { recursive: true })
    made.add(dir)
  }
  const retryingMissingDir = async (dir: string, action: () => Promise<unknown>) => {
    try {
      await action()
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !made.has(dir)) throw error
      made.delete(dir)
      await ensureDir(dir)
      await action()
    }
  }
  return {
    newKey: () => randomUUID(),
    async put(key, source) {
      const target = pathOf(key)
      await ensureDir(tmpDir)
      // Written under .tmp (same file system) and renamed: a reader never sees half a file.
      const partial = join(tmpDir, `${key}.part`)
      let size = 0
      source.on('data', (chunk: Buffer) => {
        size += chunk.length
      })
      writing.add(partial)
      const sink = createWriteStream(partial, { flags: 'wx' })
      try {
        // `pipeline` destroys the write stream (closing its handle) when the source fails.
        await pipeline(source, sink).catch((error) => {
          // .tmp removed from outside: this upload fails, the next one makes it again.
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') made.delete(tmpDir)
          throw error
        })
        const dir = join(root, key.slice(0, 2))
        await ensureDir(dir)
        await retryingMissingDir(dir, () => rename(partial, target))
      } catch (error) {
        // A source refused on its first bytes can fail before the file is even opened: the open
        // still completes (creating the file) and only then closes. Remove it once it is closed.
        if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()))
        await rm(partial, { force: true })
        throw error
      } finally {
        writing.delete(partial)
      }
      return { size }
    },
    async get(key) {
      const path = pathOf(key)
      await stat(path)
      return createReadStream(path)
    },
    read: (key) => readFile(pathOf(key)),
    async stat(key) {
      try {
        const s = await stat(pathOf(key))
        return { size: s.size }
      } catch {
        return null
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true })
    },
    async sweepPartials(maxAgeMs) {
      const names = await readdir(tmpDir).catch(() => [] as string[])
      const before = Date.now() - maxAgeMs
      let removed = 0
      for (const name of names) {
        const path = join(tmpDir, name)
        if (!name.endsWith('.part') || writing.has(path)) continue
        const info = await stat(path).catch(() => null)
        if (!info?.isFile() || info.mtimeMs >= before) continue
        await rm(path, { force: true })
        removed += 1
      }
      return removed
    },
  }
}

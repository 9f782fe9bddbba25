/**
 * The browser's storage of queued files until the server has answered for them (IndexedDB, which
 * keeps `File`s as they are): after a reload, the upload queue offers again what was never sent.
 * Each file is kept under its upload's idempotency key, with the user who queued it, so that only
 * that user is offered it. Where IndexedDB is missing or refuses (private windows, a full disk),
 * nothing is kept and the uploads go on as before: the storage is a safety net, never a gate.
 *
 * Several tabs share the storage. A tab claims each file it keeps or lists (a Web Lock named after
 * its key, held until the file is forgotten or the tab closes), so a tab opened or reloaded beside
 * one that is sending a file does not offer it as unsent. It waits instead for that tab to let go:
 * a file still kept then (the tab closed before the server answered) is offered after all.
 */
import type { DocumentKind } from '../../contract'

type KeptUpload = {
  key: string
  userId: number
  companyId: number
  documentType: DocumentKind
  category: string
  createdAt: number
  file: File
}

export type UnsentUploads = {
  /** Keeps the files, claimed by this tab. */
  keep(uploads: readonly KeptUpload[]): Promise<void>
  /** Drops the files and this tab's claims on them. */
  forget(keys: readonly string[]): Promise<void>
  /**
   * The user's kept files that no other tab holds, oldest first, now claimed by this tab. Each file
   * another tab holds is given to `freed` later, claimed, if that tab lets go of it unsent.
   */
  list(userId: number, freed?: Freed, signal?: AbortSignal): Promise<KeptUpload[]>
}

type Freed = (upload: KeptUpload) => void

/** The Web Lock a tab holds on a kept file while it sends or offers it. */
const claimName = (key: string) => `docflow-upload:${key}`

/**
 * How long a file waits in the browser for the user to send it again: a week. Financial papers
 * do not stay in a browser's storage for good; an older file is dropped the next time the list is read.
 */
export const KEEP_UNSENT_MS = 7 * 24 * 60 * 60 * 1000

/** Whether a kept file has waited past its week. */
export const isExpired = (upload: Pick<KeptUpload, 'createdAt'>, now: number) =>
  now - upload.createdAt > KEEP_UNSENT_MS

const DATABASE = 'docflow-uploads'
const STORE = 'unsent'

const done = (request: IDBRequest | IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    if ('oncomplete' in request) {
      request.oncomplete = () => resolve()
      request.onerror = () => reject(request.error)
      request.onabort = () => reject(request.error)
    } else {
      request.onsuccess = () => resolve()
      request.onerror = () => reject(request.error)
    }
  })

function open(factory: IDBFactory): Promise<IDBDatabase> {
  const request = factory.open(DATABASE, 1)
  request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key' })
  return done(request).then(() => request.result)
}

/**
 * This tab's claims on kept files (Web Locks; without them, as in old browsers, every tab offers
 * every file it finds, and the idempotency key still keeps a file sent twice from being filed twice).
 */
function tabClaims(locks: LockManager | undefined) {
  const held = new Map<string, () => void>()
  /** Holds the lock from `granted` on: until `release(key)`, or the tab closes. */
  const hold = (key: string) => new Promise<void>((resolve) => held.set(key, resolve))
  return {
    /** Claims `key` at once unless another tab holds it: whether this tab now holds it. */
    take(key: string): Promise<boolean> {
      if (!locks || held.has(key)) return Promise.resolve(true)
      return new Promise<boolean>((answer) => {
        locks
          .request(claimName(key), { ifAvailable: true }, (lock) => {
            answer(lock !== null)
            return lock ? hold(key) : undefined
          })
          .catch(() => answer(true))
      })
    },
    /** Once the tab holding `key` lets go: claims it if `stillWanted()` says so. */
    after(key: string, stillWanted: () => Promise<boolean>, signal?: AbortSignal) {
      locks
        ?.request(claimName(key), { signal }, async () => {
          if (!held.has(key) && (await stillWanted())) return hold(key)
        })
        .catch(() => undefined)
    },
    release(key: string) {
      held.get(key)?.()
      held.delete(key)
    },
  }
}

export function openUnsentUploads(
  factory: IDBFactory | undefined = globalThis.indexedDB,
  locks: LockManager | undefined = globalThis.navigator?.locks,
): UnsentUploads {
  let database: Promise<IDBDatabase> | undefined
  const claims = tabClaims(locks)
  const write = async (change: (store: IDBObjectStore) => void) => {
    if (!factory) return
    database ??= open(factory)
    const tx = (await database).transaction(STORE, 'readwrite')
    change(tx.objectStore(STORE))
    await done(tx)
  }
  const read = async (key: string) => {
    database ??= open(factory!)
    const request = (await database).transaction(STORE).objectStore(STORE).get(key)
    await done(request)
    return request.result as KeptUpload | undefined
  }
  return {
    keep: async (uploads) => {
      for (const u of uploads) await claims.take(u.key)
      await write((store) => {
        for (const u of uploads) store.put(u)
      })
    },
    forget: async (keys) => {
      await write((store) => {
        for (const k of keys) store.delete(k)
      })
      for (const k of keys) claims.release(k)
    },
    list: async (userId, freed, signal) => {
      if (!factory) return []
      database ??= open(factory)
      const request = (await database).transaction(STORE).objectStore(STORE).getAll()
      await done(request)
      const now = Date.now()
      const all = request.result as KeptUpload[]
      const expired = all.filter((u) => isExpired(u, now))
      if (expired.length > 0)
        await write((store) => {
          for (const u of expired) store.delete(u.key)
        })
      const mine = all
        .filter((u) => u.userId === userId && !isExpired(u, now))
        .sort((a, b) => a.createdAt - b.createdAt)
      const offered: KeptUpload[] = []
      for (const u of mine) {
        if (await claims.take(u.key)) offered.push(u)
        else if (freed)
          claims.after(
            u.key,
            async () => {
              const kept = await read(u.key)
              if (kept) freed(kept)
              return kept !== undefined
            },
            signal,
          )
      }
      return offered
    },
  }
}

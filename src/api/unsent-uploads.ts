/**
 * The browser's storage of queued files until the server has answered for them (IndexedDB, which
 * keeps `File`s as they are): after a reload, the upload queue offers again what was never sent.
 * Each file is kept under its upload's idempotency key, with the user who queued it, so that only
 * that user is offered it. Where IndexedDB is missing or refuses (private windows, a full disk),
 * nothing is kept and the uploads go on as before: the storage is a safety net, never a gate.
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
  keep(uploads: readonly KeptUpload[]): Promise<void>
  forget(keys: readonly string[]): Promise<void>
  /** The user's kept files, oldest first. */
  list(userId: number): Promise<KeptUpload[]>
}

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

export function openUnsentUploads(factory: IDBFactory | undefined = globalThis.indexedDB): UnsentUploads {
  let database: Promise<IDBDatabase> | undefined
  const write = async (change: (store: IDBObjectStore) => void) => {
    if (!factory) return
    database ??= open(factory)
    const tx = (await database).transaction(STORE, 'readwrite')
    change(tx.objectStore(STORE))
    await done(tx)
  }
  return {
    keep: (uploads) =>
      write((store) => {
        for (const u of uploads) store.put(u)
      }),
    forget: (keys) =>
      write((store) => {
        for (const k of keys) store.delete(k)
      }),
    list: async (userId) => {
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
      return all
        .filter((u) => u.userId === userId && !isExpired(u, now))
        .sort((a, b) => a.createdAt - b.createdAt)
    },
  }
}

/**
 * PGlite in a worker thread (pglite-thread.js), behind the same interface as an in-process
 * PGlite (`query`, `exec`, `transaction`, `listen`, `close`), which is all drizzle and pg-boss use.
 *
 * Why: PGlite executes each statement synchronously (WASM, synchronous file I/O) on the thread
 * that holds it. In the web process that thread also answers HTTP: during a burst of uploads the
 * queries of 200 transactions stopped it for up to 700 ms at a time, and `/api/health` with it.
 *
 * How: the protocol layer of PGlite (`BasePGlite`: building Parse/Bind/Execute messages,
 * serialising parameters, parsing rows with the caller's parsers, transactions as BEGIN…COMMIT)
 * stays here; only protocol messages and their backend messages cross to the thread. The locks that make a transaction exclusive live here too, as in
 * PGlite, so every statement of a transaction reaches the single backend in order and nothing
 * else comes between them.
 */
import { Worker } from 'node:worker_threads'
import { Mutex, messages, type PGliteInterface, type Transaction } from '@electric-sql/pglite'
import { PGliteWorker } from '@electric-sql/pglite/worker'

type BackendMessage = Awaited<ReturnType<PGliteInterface['execProtocolStream']>>[number]

type Base = Pick<PGliteInterface, 'query' | 'sql' | 'exec' | 'transaction'> & {
  _initArrayTypes(options?: { force?: boolean }): Promise<void>
}
/**
 * PGlite's protocol layer, which PGlite and PGliteWorker both extend; PGliteWorker itself needs
 * a browser (BroadcastChannel leader election, Web Locks), so only its base is borrowed.
 */
const BasePGlite = Object.getPrototypeOf(PGliteWorker) as abstract new () => Base

type ThreadError = { database: boolean; message: string; fields?: Record<string, unknown> }
type Reply = { id: number; result?: unknown; error?: ThreadError }
type Signal =
  | { type: 'ready' }
  | { type: 'failed'; error: ThreadError }
  | { type: 'notification'; channel: string; payload: string }

// Frontend message types (first byte), and Describe's target (after the 4-byte length).
const SYNC = 0x53 // 'S'
const DESCRIBE = 0x44 // 'D'
const STATEMENT = 0x53 // 'S'

const THREAD_ENTRY = new URL('./pglite-thread.js', import.meta.url)

function rebuild(error: ThreadError): Error {
  if (!error.database) return new Error(error.message)
  // The same class the protocol layer tests for (`instanceof`), with SQLSTATE and details.
  const { length, name, ...fields } = error.fields ?? {}
  return Object.assign(new messages.DatabaseError(error.message, Number(length ?? 0), 'error'), fields)
}

export class ThreadedPGlite extends BasePGlite {
  readonly debug = 0 as const
  readonly #worker: Worker
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  readonly #queryMutex = new Mutex()
  readonly #transactionMutex = new Mutex()
  readonly #listeners = new Map<string, Set<(payload: string) => void>>()
  #sequence = 0
  #held: Uint8Array[] = []
  #stopped: Error | null = null
  #closing: Promise<void> | null = null

  private constructor(dataDir: string | undefined) {
    super()
    this.#worker = new Worker(THREAD_ENTRY, { workerData: { dataDir } })
    // Like an in-process PGlite, an idle database does not keep the process alive.
    this.#worker.unref()
    this.#worker.on('message', (message: Reply | Signal) => {
      if ('id' in message) this.#settle(message)
      else if (message.type === 'notification') this.#notify(message.channel, message.payload)
    })
    const stop = (error: Error) => {
      this.#stopped ??= error
      for (const { reject } of this.#pending.values()) reject(this.#stopped)
      this.#pending.clear()
    }
    this.#worker.on('error', (error) => stop(new Error(`database thread failed: ${error.message}`)))
    this.#worker.on('exit', () => stop(new Error('database thread stopped')))
  }

  /** Opens the database in a new thread; `dataDir` undefined gives an in-memory database. */
  static async create(dataDir?: string): Promise<ThreadedPGlite> {
    const instance = new ThreadedPGlite(dataDir)
    const worker = instance.#worker
    worker.ref()
    try {
      await new Promise<void>((resolve, reject) => {
        const onSignal = (message: Reply | Signal) => {
          if ('id' in message) return
          if (message.type === 'ready') resolve()
          else if (message.type === 'failed') reject(rebuild(message.error))
          else return
          worker.off('message', onSignal)
        }
        worker.on('message', onSignal)
        worker.once('exit', () => reject(instance.#stopped ?? new Error('database thread stopped')))
        worker.once('error', reject)
      })
    } catch (error) {
      await worker.terminate()
      throw error
    } finally {
      worker.unref()
    }
    await instance._initArrayTypes()
    return instance
  }

  #call<T>(method: string, fields: Record<string, unknown> = {}): Promise<T> {
    if (this.#stopped) return Promise.reject(this.#stopped)
    const id = ++this.#sequence
    // A call in flight keeps the process alive until its answer, as an in-process query would.
    if (this.#pending.size === 0) this.#worker.ref()
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      this.#worker.postMessage({ id, method, ...fields })
    })
  }

  #settle(reply: Reply) {
    const call = this.#pending.get(reply.id)
    if (!call) return
    this.#pending.delete(reply.id)
    if (this.#pending.size === 0) this.#worker.unref()
    if (reply.error) call.reject(rebuild(reply.error))
    else call.resolve(reply.result)
  }

  #notify(channel: string, payload: string) {
    for (const callback of this.#listeners.get(channel) ?? []) queueMicrotask(() => callback(payload))
  }

  /**
   * The protocol layer's primitive: one frontend message in, its backend messages out. A query
   * is Parse, Describe (statement), Bind, Describe (portal), Execute, Sync, each awaited in turn;
   * only the statement's Describe (its parameter types serialise the Bind) and the Sync need an
   * answer. The others are held back and sent with the next of those two: two round trips to
   * the thread per query instead of six. Their backend messages arrive, in order, with the
   * answer to the message they travelled with, where the protocol layer reads them (it parses
   * the concatenation of all of them); an error in one of them is thrown there too.
   */
  async execProtocolStream(
    message: Uint8Array,
    options: { syncToFs?: boolean } = {},
  ): Promise<BackendMessage[]> {
    this.#held.push(message)
    const answerNeeded = message[0] === SYNC || (message[0] === DESCRIBE && message[5] === STATEMENT)
    if (!answerNeeded) return []
    const messages = this.#held
    this.#held = []
    return this.#call<BackendMessage[]>('execProtocolStream', {
      messages,
      syncToFs: options.syncToFs ?? true,
    })
  }
  async execProtocol(message: Uint8Array, options: { syncToFs?: boolean } = {}) {
    return { messages: await this.execProtocolStream(message, options), data: new Uint8Array(0) }
  }
  async execProtocolRaw(): Promise<Uint8Array> {
    throw new Error('execProtocolRaw is not available on the threaded database')
  }
  async execProtocolRawStream(): Promise<void> {
    throw new Error('execProtocolRawStream is not available on the threaded database')
  }
  /**
   * Nothing to do, and no round trip to the thread after every statement: the thread's file
   * systems (a directory through Node's fs, or memory) write through, PGlite's own syncToFs does
   * nothing for them.
   */
  async syncToFs(): Promise<void> {}
  // COPY … TO/FROM '/dev/blob' is not used: no blobs to hand over.
  async _handleBlob(): Promise<void> {}
  async _getWrittenBlob(): Promise<undefined> {
    return undefined
  }
  async _cleanupBlob(): Promise<void> {}
  async _checkReady(): Promise<void> {
    if (this.#closing) throw new Error('PGlite is closed')
    if (this.#stopped) throw this.#stopped
  }
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T> {
    return this.#queryMutex.runExclusive(fn)
  }
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.#transactionMutex.runExclusive(fn)
  }

  /** LISTEN on `channel`; the thread forwards every notification the backend delivers. */
  async listen(
    channel: string,
    callback: (payload: string) => void,
    tx?: Transaction,
  ): Promise<(tx?: Transaction) => Promise<void>> {
    const name = channel.toLowerCase()
    let callbacks = this.#listeners.get(name)
    if (!callbacks) {
      callbacks = new Set()
      this.#listeners.set(name, callbacks)
    }
    callbacks.add(callback)
    await (tx ?? this).exec(`LISTEN ${channel}`)
    return async (unlistenTx?: Transaction) => {
      callbacks.delete(callback)
      if (callbacks.size === 0 && this.#listeners.get(name) === callbacks) {
        this.#listeners.delete(name)
        if (!this.#closing && !this.#stopped) await (unlistenTx ?? this).exec(`UNLISTEN ${channel}`)
      }
    }
  }

  get closed(): boolean {
    return this.#closing !== null
  }

  /** Waits for the statement running, closes the database (flushing it) and ends the thread. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (!this.#stopped) {
        await this.#transactionMutex.runExclusive(() =>
          this.#queryMutex.runExclusive(() => this.#call('close').catch(() => {})),
        )
      }
      await this.#worker.terminate()
    })()
    return this.#closing
  }
}

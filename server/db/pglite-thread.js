/**
 * The embedded database's thread (started by pglite-threaded.ts). PGlite runs PostgreSQL compiled
 * to WASM, synchronously, with synchronous file I/O: on the web process's main thread every query
 * would stop the HTTP server for its whole duration. Here it runs beside it; the main thread only
 * builds the protocol messages and parses the answers.
 *
 * Plain JavaScript: a worker thread does not get the tsx loader of its process.
 *
 * Messages in: `{ id, method: 'execProtocolStream', messages, syncToFs }` (protocol messages run
 * in order; after one fails only Sync messages run, as a backend discards the rest until Sync) and
 * `{ id, method: 'close' }`. Out: `{ type: 'ready' }` or `{ type: 'failed', error }` once,
 * `{ id, result }` or `{ id, error }` per call, `{ type: 'notification', channel, payload }`.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { messages, PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'

const SYNC = 0x53 // 'S'

/** A DatabaseError keeps its SQLSTATE, constraint, detail…: the main thread rebuilds it. */
function describeError(error) {
  if (error instanceof messages.DatabaseError) {
    return { database: true, message: error.message, fields: { ...error } }
  }
  return { database: false, message: error instanceof Error ? error.message : String(error) }
}

let db
try {
  // pg_trgm backs the dashboard search's index (migration 0003).
  db = await PGlite.create(workerData.dataDir, { extensions: { pg_trgm } })
} catch (error) {
  parentPort.postMessage({ type: 'failed', error: describeError(error) })
  parentPort.close()
}

if (db) {
  db.onNotification((channel, payload) => {
    parentPort.postMessage({ type: 'notification', channel, payload })
  })
  parentPort.on('message', async (call) => {
    try {
      let result
      if (call.method === 'execProtocolStream') {
        result = []
        let failure = null
        for (const message of call.messages) {
          if (failure && message[0] !== SYNC) continue
          try {
            result.push(...(await db.execProtocolStream(message, { syncToFs: call.syncToFs })))
          } catch (error) {
            failure ??= error
          }
        }
        if (failure) throw failure
      } else if (call.method === 'close') {
        await db.close()
      } else {
        throw new Error(`unknown call ${call.method}`)
      }
      parentPort.postMessage({ id: call.id, result })
      if (call.method === 'close') parentPort.close()
    } catch (error) {
      parentPort.postMessage({ id: call.id, error: describeError(error) })
    }
  })
  parentPort.postMessage({ type: 'ready' })
}

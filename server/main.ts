/**
 * The process: configuration → database (migrated) → first administrator → HTTP server.
 * Run with `node --import tsx server/main.ts`.
 */
import { mkdir } from 'node:fs/promises'
import type { Server } from 'node:http'
import { join } from 'node:path'
import { createAdaptorServer } from '@hono/node-server'
import { createApp } from './app.ts'
import { type Config, loadConfig } from './config.ts'
import { type DatabaseHandle, migrateDatabase, openDatabase, refreshStatistics } from './db/client.ts'
import { createJobQueue } from './jobs/queue.ts'
import { startWorkers } from './jobs/runner.ts'
import { createLogger } from './logger.ts'
import { ensureFirstAdmin } from './services/bootstrap.ts'
import { type MailInbox, startMailInbox } from './services/documents/mail-inbox.ts'
import { createLocalStorage, PARTIAL_MAX_AGE_MS } from './services/storage/index.ts'

const SHUTDOWN_GRACE_MS = 10_000

async function start(): Promise<void> {
  let config: Config | undefined
  let database: DatabaseHandle | undefined
  try {
    config = loadConfig()
    const logger = createLogger(config)
    await mkdir(config.dataDir, { recursive: true })
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
    await migrateDatabase(database)
    if (database.driver === 'pglite') await refreshStatistics(database)
    await ensureFirstAdmin(database.db, config, logger)
    const storage = createLocalStorage(join(config.dataDir, 'files'))
    // Partial files of uploads cut by a crash or a stalled client: at start-up, then every 15 min.
    const sweepPartials = () =>
      storage
        .sweepPartials(PARTIAL_MAX_AGE_MS)
        .then((removed) => removed > 0 && logger.info({ removed }, 'stale partial uploads removed'))
        .catch((error: Error) => logger.warn({ err: error }, 'partial upload sweep failed'))
    await sweepPartials()
    setInterval(sweepPartials, PARTIAL_MAX_AGE_MS / 4).unref()
    const queue = createJobQueue(database.db, logger, {
      retryLimit: config.jobRetries,
      expireInSeconds: config.jobTimeoutSeconds,
      heartbeatSeconds: config.jobHeartbeatSeconds,
      leaseSeconds: config.jobLeaseSeconds,
    })
    await queue.start()
    const app = createApp({ db: database.db, config, logger, storage, queue })
    const server = createAdaptorServer({ fetch: app.fetch }) as Server
    await listen(server, config.port)
    logger.info(
      { url: `http://localhost:${config.port}`, publicUrl: config.publicUrl, driver: database.driver },
      'listening',
    )
    // The scanner addresses' SMTP listener (SMTP_IN_PORT=0: none).
    const inbox: MailInbox | null =
      config.smtpIn.port > 0
        ? await startMailInbox({
            db: database.db,
            storage,
            queue,
            logger,
            config: config.smtpIn,
            maxAttachmentBytes: config.maxUploadMb * 1024 * 1024,
          })
        : null
    const workers =
      config.workers > 0
        ? await startWorkers({
            db: database.db,
            driver: database.driver,
            config,
            logger,
            storage,
            queue,
            concurrency: config.workers,
          })
        : null
    const db = database
    let stopping = false
    const stop = (signal: string) => {
      if (stopping) return
      stopping = true
      logger.info({ signal }, 'shutting down')
      setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref()
      // Messages still in DATA are answered 421 and leave nothing; those committing finish.
      const inboxClosed = inbox
        ?.close()
        .catch((error: Error) => logger.error({ err: error }, 'closing smtp failed'))
      app.closeStreams()
      server.close(async () => {
        await inboxClosed
        await workers?.stop().catch((error: Error) => logger.error({ err: error }, 'stopping workers failed'))
        await queue.stop().catch(() => {})
        // A password reset answers before its mail is sent: let those mails go out first.
        await app.settled().catch(() => {})
        await db.close().catch((error: Error) => logger.error({ err: error }, 'closing the database failed'))
        process.exit(0)
      })
      server.closeIdleConnections()
    }
    process.once('SIGINT', () => stop('SIGINT'))
    process.once('SIGTERM', () => stop('SIGTERM'))
  } catch (error) {
    const err = error as Error
    if (config?.logLevel === 'debug' || config?.logLevel === 'trace') console.error(err)
    else console.error(`docflow: cannot start: ${err.message.split('\n')[0]}`)
    await database?.close().catch(() => {})
    process.exit(1)
  }
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${port} is already in use (set PORT)`) : error)
    }
    server.once('error', onError)
    server.listen(port, () => {
      server.off('error', onError)
      resolve()
    })
  })
}

await start()

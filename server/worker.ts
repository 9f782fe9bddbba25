/**
 * A document worker process (`npm run worker`): processes jobs from the same PostgreSQL database
 * as the server, so processing scales by starting more of these. Set WORKERS=0 on the server to
 * leave all processing to them.
 */

import { join } from 'node:path'
import { loadConfig } from './config.ts'
import { migrateDatabase, openDatabase } from './db/client.ts'
import { createJobQueue } from './jobs/queue.ts'
import { startWorkers } from './jobs/runner.ts'
import { createLogger } from './logger.ts'
import { createLocalStorage } from './services/storage/index.ts'

const config = loadConfig()
const logger = createLogger(config)
if (!config.databaseUrl) {
  console.error(
    'docflow worker: DATABASE_URL is required (the embedded database belongs to the server process)',
  )
  process.exit(1)
}
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
await migrateDatabase(database)
const queue = createJobQueue(database.db, logger, {
  retryLimit: config.jobRetries,
  expireInSeconds: config.jobTimeoutSeconds,
  heartbeatSeconds: config.jobHeartbeatSeconds,
  leaseSeconds: config.jobLeaseSeconds,
})
const workers = await startWorkers({
  db: database.db,
  driver: database.driver,
  config,
  logger,
  storage: createLocalStorage(join(config.dataDir, 'files')),
  queue,
  concurrency: Math.max(1, config.workers),
})
let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  setTimeout(() => process.exit(1), 20_000).unref()
  await workers.stop().catch((error) => logger.error({ err: error }, 'stopping workers failed'))
  await database.close().catch(() => {})
  process.exit(0)
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)

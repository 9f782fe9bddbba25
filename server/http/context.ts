import type { Logger } from 'pino'
import type { Config } from '../config.ts'
import type { AppDatabase } from '../db/client.ts'
import type { SessionRow, UserRow } from '../db/schema.ts'
import type { LoginRateLimiter } from '../services/rate-limit.ts'
import type { SessionService } from '../services/sessions.ts'

/** What every route factory receives: createApp's deps with defaults filled in. */
export interface RouteDeps {
  db: AppDatabase
  config: Config
  logger: Logger
  clock: () => Date
  rateLimiter: LoginRateLimiter
  sessions: SessionService
}

export type AppEnv = {
  Variables: {
    requestId: string
    /** Set by `requireUser`. */
    user: UserRow
    session: SessionRow
  }
}

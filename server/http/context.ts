import type { Logger } from 'pino'
import type { Config } from '../config.ts'
import type { AppDatabase } from '../db/client.ts'
import type { SessionRow, UserRow } from '../db/schema.ts'
import type { AccountService } from '../services/accounts.ts'
import type { ApiTokenService } from '../services/api-tokens.ts'
import type { Mailer } from '../services/mail.ts'
import type { LoginRateLimiter } from '../services/rate-limit.ts'
import type { SessionService } from '../services/sessions.ts'
import type { TwoFactorService } from '../services/two-factor.ts'

/** What every route factory receives: createApp's deps with defaults filled in. */
export interface RouteDeps {
  db: AppDatabase
  config: Config
  logger: Logger
  clock: () => Date
  rateLimiter: LoginRateLimiter
  sessions: SessionService
  mailer: Mailer
  /** Activation and reset mails; `accounts.sendInvitation(user)` for the invite call. */
  accounts: AccountService
  twoFactor: TwoFactorService
  apiTokens: ApiTokenService
}

export type AppEnv = {
  Variables: {
    requestId: string
    /** Set by `requireUser` (or, for a bearer request, by `authenticateBearer`). */
    user: UserRow
    /** Set by `requireUser` for a request signed in by its cookie; unset for a bearer request. */
    session: SessionRow
    /** Set by `authenticateBearer`: the request acts with this personal API token. */
    apiToken?: { id: number }
  }
}

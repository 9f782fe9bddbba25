/**
 * Builds the whole HTTP application from injected dependencies: the API under
 * `config.apiPrefix` (one sub-app per resource) and, outside it, the catalogs, the built
 * browser app and its SPA fallback.
 */
import { join } from 'node:path'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { requestId } from 'hono/request-id'
import type { Logger } from 'pino'
import type { Config } from './config.ts'
import type { AppDatabase } from './db/client.ts'
import { authenticateBearer } from './http/bearer.ts'
import { compressJson } from './http/compression.ts'
import type { AppEnv, RouteDeps } from './http/context.ts'
import { requireContentType, requireTrustedOrigin } from './http/csrf.ts'
import { errorHandler, notFoundHandler } from './http/errors.ts'
import { securityHeaders } from './http/security-headers.ts'
import { liveSession, publicRoutes } from './http/static.ts'
import { createJobQueue, type JobQueue } from './jobs/queue.ts'
import { accountRoutes } from './routes/account/account.routes.ts'
import { adminRoutes } from './routes/admin/admin.routes.ts'
import { apiTokenRoutes } from './routes/api-tokens/api-tokens.routes.ts'
import { authRoutes } from './routes/auth/auth.routes.ts'
import { companyRoutes } from './routes/companies/companies.routes.ts'
import { docsRoutes } from './routes/docs/docs.routes.ts'
import { documentPageRoutes } from './routes/document-pages/document-pages.routes.ts'
import { documentReviewRoutes } from './routes/document-review/document-review.routes.ts'
import { documentRoutes } from './routes/documents/documents.routes.ts'
import { eventRoutes } from './routes/events/events.routes.ts'
import { healthRoutes } from './routes/health/health.routes.ts'
import { logRoutes } from './routes/logs/logs.routes.ts'
import { settingsRoutes } from './routes/settings/settings.routes.ts'
import { twoFactorRoutes } from './routes/two-factor/two-factor.routes.ts'
import { createAccountService } from './services/accounts.ts'
import { createApiTokenService } from './services/api-tokens.ts'
import { createMailer, type Mailer } from './services/mail.ts'
import { createLoginRateLimiter, type LoginRateLimiter } from './services/rate-limit.ts'
import { createSessionService } from './services/sessions.ts'
import { createLocalStorage, type FileStorage } from './services/storage/index.ts'
import { createTwoFactorService } from './services/two-factor.ts'

/** Largest non-multipart API request body. */
const JSON_BODY_LIMIT = 1024 * 1024

export interface AppDeps {
  db: AppDatabase
  config: Config
  logger: Logger
  clock?: () => Date
  rateLimiter?: LoginRateLimiter
  /** Default: SMTP when SMTP_URL is set, else `.eml` files in DATA_DIR/outbox. */
  mailer?: Mailer
  /** Uploaded files; default: the local directory DATA_DIR/files. */
  storage?: FileStorage
  /** Document processing jobs; default: pg-boss on `db` (workers are started by main/worker). */
  queue?: JobQueue
}

export function createApp(deps: AppDeps) {
  const clock = deps.clock ?? (() => new Date())
  const { config, logger } = deps
  const mailer = deps.mailer ?? createMailer(config, logger)
  const routeDeps: RouteDeps = {
    db: deps.db,
    config,
    logger,
    clock,
    rateLimiter: deps.rateLimiter ?? createLoginRateLimiter({ clock }),
    sessions: createSessionService({ db: deps.db, config, clock }),
    mailer,
    accounts: createAccountService({ db: deps.db, config, clock, mailer, logger }),
    twoFactor: createTwoFactorService({ db: deps.db, sessionSecret: config.sessionSecret, clock }),
    apiTokens: createApiTokenService({ db: deps.db, secret: config.apiTokens.secret, clock }),
  }
  const prefix = config.apiPrefix

  const app = new Hono<AppEnv>()
  app.onError(errorHandler(logger))
  app.notFound(notFoundHandler)

  app.use(requestId())
  app.use(async (c, next) => {
    const started = performance.now()
    await next()
    // Method, path (no query: it may carry tokens), status and time only: never bodies or cookies.
    logger.info(
      {
        reqId: c.var.requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        // Which personal API token acted (its id, never the token), for the owner's audit.
        ...(c.var.apiToken ? { apiTokenId: c.var.apiToken.id } : {}),
      },
      'request',
    )
  })
  app.use(securityHeaders(config))

  const api = new Hono<AppEnv>()
  // Outermost, so it sees every answer as sent, errors included: JSON above 1 KiB in br or gzip.
  api.use(compressJson())
  api.use(async (c, next) => {
    await next()
    c.header('Cache-Control', 'no-store')
  })
  // `Authorization: Bearer` (http/bearer.ts): the request acts as the token's owner and its cookie
  // is never read, so the origin check, which protects the cookie, does not apply to it.
  api.use(
    authenticateBearer({
      apiTokens: routeDeps.apiTokens,
      ratePerMinute: config.apiTokens.ratePerMinute,
      trustProxy: config.trustProxy,
      clock,
    }),
  )
  // CSRF (see http/csrf.ts): a trusted Origin, then JSON bodies only (a page can send those to
  // another origin only after a CORS preflight, which this server never grants), multipart on uploads.
  const trustedOrigin = requireTrustedOrigin(config)
  api.use((c, next) => (c.var.apiToken ? next() : trustedOrigin(c, next)))
  const uploadPath = new RegExp(
    `^${prefix.replace(/[.]/g, '\\.')}/(documents/upload|expenses/upload|companies/company/logo/[^/]+)$`,
  )
  api.use(requireContentType((c) => uploadPath.test(c.req.path)))
  // JSON bodies are small; uploads (multipart) are streamed and limited by their own routes.
  const jsonLimit = bodyLimit({
    maxSize: JSON_BODY_LIMIT,
    onError: (c) => c.json({ message: 'Request body too large' }, 413),
  })
  api.use((c, next) =>
    c.req.header('content-type')?.toLowerCase().startsWith('multipart/form-data')
      ? next()
      : jsonLimit(c, next),
  )
  api.route('/', healthRoutes(deps.db))
  api.route('/', authRoutes(routeDeps))
  api.route('/', twoFactorRoutes(routeDeps))
  api.route('/', accountRoutes(routeDeps))
  api.route('/', settingsRoutes(routeDeps))
  api.route('/', apiTokenRoutes(routeDeps))
  const storage = deps.storage ?? createLocalStorage(join(config.dataDir, 'files'))
  // Before the document calls: `/invoices/export` is not `/invoices/:id`.
  api.route('/', documentReviewRoutes(routeDeps))
  api.route('/', documentPageRoutes(routeDeps))
  api.route(
    '/',
    documentRoutes({
      ...routeDeps,
      storage,
      queue: deps.queue ?? createJobQueue(deps.db, logger),
      maxUploadBytes: config.maxUploadMb * 1024 * 1024,
    }),
  )
  api.route('/', logRoutes(routeDeps))
  const events = eventRoutes(routeDeps)
  api.route('/', events)
  api.route('/', adminRoutes({ ...routeDeps, storage }))
  api.route('/', companyRoutes({ ...routeDeps, storage }))
  api.route(
    '/',
    docsRoutes(prefix, () => app as unknown as Hono<never>),
  )
  api.all('*', notFoundHandler)

  app.route(prefix, api)
  app.route('/', publicRoutes(config, liveSession(routeDeps.sessions)))
  // `settled`: resolves once the mails sent after the answer (password resets) have gone out;
  // `closeStreams`: ends the open event streams, which would otherwise hold up a graceful stop.
  return Object.assign(app, { settled: () => routeDeps.accounts.settled(), closeStreams: events.close })
}

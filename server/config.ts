import { createHmac, randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
type LogLevel = (typeof LOG_LEVELS)[number]

export interface Config {
  port: number
  dataDir: string
  databaseUrl: string | undefined
  publicUrl: string
  apiPrefix: string
  smtpUrl: string | undefined
  mailFrom: string
  adminEmail: string | undefined
  adminPassword: string | undefined
  sessionSecret: string
  sessionTtlHours: number
  /**
   * Personal API tokens: the key of their stored HMAC (API_TOKEN_SECRET, else derived from the
   * session secret) and the requests one token may make per minute (API_TOKEN_RATE).
   */
  apiTokens: { secret: string; ratePerMinute: number }
  /** Trust the last X-Forwarded-For hop (one reverse proxy in front) for the client address. */
  trustProxy: boolean
  /**
   * Origins besides PUBLIC_URL's (and the server's own) whose pages may send state-changing API
   * requests (TRUSTED_ORIGINS, comma-separated): a browser app served elsewhere (VITE_API_BASE_URL).
   */
  trustedOrigins: string[]
  logLevel: LogLevel
  staticDir: string
  localesDir: string
  /** Document pipeline: largest upload (MAX_UPLOAD_MB), in-process workers (WORKERS, 0 = none). */
  maxUploadMb: number
  workers: number
  ocrWorkers: number
  jobRetries: number
  jobTimeoutSeconds: number
  /**
   * Crash recovery: a running job's heartbeat (JOB_HEARTBEAT_SECONDS) and the lease after which
   * a job whose process stopped beating is retried elsewhere (JOB_LEASE_SECONDS).
   */
  jobHeartbeatSeconds: number
  jobLeaseSeconds: number
  /** Live events (`GET /api/events`): the seconds between keep-alive comments (EVENTS_HEARTBEAT_SECONDS, at most 30). */
  eventsHeartbeatSeconds: number
  /**
   * The scanner addresses' SMTP listener: SMTP_IN_PORT (0 = off), SMTP_IN_HOST, STARTTLS offered
   * only with both SMTP_IN_TLS_KEY and SMTP_IN_TLS_CERT (PEM file paths), and its limits: message
   * size (SMTP_IN_MAX_MESSAGE_MB), recipients (SMTP_IN_MAX_RECIPIENTS) and attachments
   * (SMTP_IN_MAX_ATTACHMENTS) per message, messages per sender per minute (SMTP_IN_SENDER_RATE)
   * and per scanner address per minute (SMTP_IN_RECIPIENT_RATE).
   * Each attachment is limited like an upload (MAX_UPLOAD_MB).
   */
  smtpIn: SmtpInConfig
  /** Extraction sandbox (child processes) and the limits checked before decoding a file. */
  extraction: {
    limits: { maxPixels: number; maxPages: number; maxOcrPages: number }
    documentTimeoutMs: number
    pageTimeoutMs: number
    memoryMb: number
    recycleMb: number
  }
}

export interface SmtpInConfig {
  port: number
  host: string
  tls: { key: string; cert: string } | null
  maxMessageBytes: number
  maxRecipients: number
  maxAttachments: number
  senderRatePerMinute: number
  /** Messages per scanner address (recipient) per minute, whoever sends them. */
  recipientRatePerMinute: number
}

type Env = Record<string, string | undefined>

/** Reads the settings from the environment. The only side effect is the generated session secret file. */
export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 1, 65535)
  const dataDir = resolve(nonEmpty(env.DATA_DIR) ?? './data')
  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port}`).replace(/\/+$/, '')
  const jobHeartbeatSeconds = integer(env, 'JOB_HEARTBEAT_SECONDS', 5, 1, 3600)
  const jobLeaseSeconds = integer(env, 'JOB_LEASE_SECONDS', 20, 2, 86_400)
  // A lease shorter than two beats takes jobs from live processes whose beat is a little late.
  if (jobLeaseSeconds < 2 * jobHeartbeatSeconds) {
    throw invalid(
      'JOB_LEASE_SECONDS',
      String(jobLeaseSeconds),
      `at least twice JOB_HEARTBEAT_SECONDS (${jobHeartbeatSeconds}), i.e. ${2 * jobHeartbeatSeconds} or more`,
    )
  }
  const secret = sessionSecret(env, dataDir)
  return {
    port,
    dataDir,
    databaseUrl: databaseUrl(env),
    publicUrl,
    apiPrefix: apiPrefix(env),
    smtpUrl: nonEmpty(env.SMTP_URL),
    mailFrom: nonEmpty(env.MAIL_FROM) ?? 'DocFlow <no-reply@localhost>',
    adminEmail: nonEmpty(env.ADMIN_EMAIL),
    adminPassword: nonEmpty(env.ADMIN_PASSWORD),
    sessionSecret: secret,
    sessionTtlHours: integer(env, 'SESSION_TTL_HOURS', 12, 1, 24 * 365),
    apiTokens: {
      secret: apiTokenSecret(env, secret),
      ratePerMinute: integer(env, 'API_TOKEN_RATE', 600, 1, 1_000_000),
    },
    trustProxy: boolean(env, 'TRUST_PROXY', false),
    trustedOrigins: origins(env, 'TRUSTED_ORIGINS'),
    logLevel: logLevel(env),
    staticDir: resolve(nonEmpty(env.STATIC_DIR) ?? join(REPO_ROOT, 'dist')),
    localesDir: join(REPO_ROOT, 'locales'),
    maxUploadMb: integer(env, 'MAX_UPLOAD_MB', 50, 1, 10_240),
    workers: integer(env, 'WORKERS', 1, 0, 64),
    ocrWorkers: integer(env, 'OCR_WORKERS', 1, 1, 16),
    jobRetries: integer(env, 'JOB_RETRIES', 2, 0, 20),
    jobTimeoutSeconds: integer(env, 'JOB_TIMEOUT_SECONDS', 600, 10, 86_400),
    jobHeartbeatSeconds,
    jobLeaseSeconds,
    eventsHeartbeatSeconds: integer(env, 'EVENTS_HEARTBEAT_SECONDS', 25, 1, 30),
    smtpIn: smtpIn(env),
    // Reasons for each default: server/services/extraction/limits.ts and sandbox.ts.
    extraction: {
      limits: {
        maxPixels: integer(env, 'MAX_IMAGE_MEGAPIXELS', 40, 1, 1000) * 1_000_000,
        maxPages: integer(env, 'MAX_PDF_PAGES', 500, 1, 100_000),
        maxOcrPages: integer(env, 'MAX_OCR_PAGES', 20, 1, 10_000),
      },
      documentTimeoutMs: integer(env, 'EXTRACTION_TIMEOUT_SECONDS', 240, 1, 86_400) * 1000,
      pageTimeoutMs: integer(env, 'EXTRACTION_PAGE_TIMEOUT_SECONDS', 90, 1, 86_400) * 1000,
      memoryMb: integer(env, 'EXTRACTION_MEMORY_MB', 1536, 128, 1_048_576),
      recycleMb: integer(env, 'EXTRACTION_RECYCLE_MB', 512, 64, 1_048_576),
    },
  }
}

function smtpIn(env: Env): SmtpInConfig {
  const key = nonEmpty(env.SMTP_IN_TLS_KEY)
  const cert = nonEmpty(env.SMTP_IN_TLS_CERT)
  if ((key === undefined) !== (cert === undefined)) {
    throw new Error('Invalid SMTP_IN_TLS_KEY/SMTP_IN_TLS_CERT: set both (PEM files) or neither')
  }
  return {
    port: integer(env, 'SMTP_IN_PORT', 2525, 0, 65535),
    host: nonEmpty(env.SMTP_IN_HOST) ?? '127.0.0.1',
    tls: key && cert ? { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') } : null,
    maxMessageBytes: integer(env, 'SMTP_IN_MAX_MESSAGE_MB', 75, 1, 10_240) * 1024 * 1024,
    maxRecipients: integer(env, 'SMTP_IN_MAX_RECIPIENTS', 10, 1, 1000),
    maxAttachments: integer(env, 'SMTP_IN_MAX_ATTACHMENTS', 20, 1, 1000),
    senderRatePerMinute: integer(env, 'SMTP_IN_SENDER_RATE', 30, 1, 1_000_000),
    recipientRatePerMinute: integer(env, 'SMTP_IN_RECIPIENT_RATE', 60, 1, 1_000_000),
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed ? trimmed : undefined
}

function invalid(name: string, value: string, expected: string): Error {
  return new Error(`Invalid ${name}=${JSON.stringify(value)}: expected ${expected}`)
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env[name])
  if (raw === undefined) return fallback
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw invalid(name, raw, `an integer from ${min} to ${max}`)
  }
  return value
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = nonEmpty(env[name])
  if (raw === undefined) return fallback
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false
  throw invalid(name, raw, '1/true/yes or 0/false/no')
}

function url(env: Env, name: string, fallback: string): string {
  const raw = nonEmpty(env[name])
  if (raw === undefined) return fallback
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw invalid(name, raw, 'an absolute http(s) URL')
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalid(name, raw, 'an absolute http(s) URL')
  }
  return raw
}

/** A comma-separated list of http(s) origins, each normalised as browsers send it (no path, no default port). */
function origins(env: Env, name: string): string[] {
  const raw = nonEmpty(env[name])
  if (raw === undefined) return []
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      let parsed: URL
      try {
        parsed = new URL(item)
      } catch {
        throw invalid(name, item, 'comma-separated http(s) origins such as https://app.example.com')
      }
      if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.pathname !== '/') {
        throw invalid(name, item, 'comma-separated http(s) origins such as https://app.example.com')
      }
      return parsed.origin
    })
}

function databaseUrl(env: Env): string | undefined {
  const raw = nonEmpty(env.DATABASE_URL)
  if (raw === undefined) return undefined
  // Never echo the URL back: it may carry a password.
  let protocol: string
  try {
    protocol = new URL(raw).protocol
  } catch {
    throw new Error('Invalid DATABASE_URL: expected postgres://user[:password]@host[:port]/database')
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new Error('Invalid DATABASE_URL: expected a postgres:// or postgresql:// URL')
  }
  return raw
}

function apiPrefix(env: Env): string {
  const raw = nonEmpty(env.API_PREFIX)
  if (raw === undefined) return '/api'
  const prefix = raw.replace(/\/+$/, '')
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(prefix)) {
    throw invalid('API_PREFIX', raw, 'a path such as /api (not / alone)')
  }
  return prefix
}

function logLevel(env: Env): LogLevel {
  const raw = nonEmpty(env.LOG_LEVEL)?.toLowerCase()
  if (raw === undefined) return 'info'
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw invalid('LOG_LEVEL', raw, LOG_LEVELS.join('|'))
  return raw as LogLevel
}

function sessionSecret(env: Env, dataDir: string): string {
  const raw = nonEmpty(env.SESSION_SECRET)
  if (raw === undefined) return sessionSecretFile(dataDir)
  if (raw.length < 32) throw new Error('Invalid SESSION_SECRET: expected at least 32 characters')
  return raw
}

/**
 * The key of the API tokens' stored hashes. Derived from the session secret by default (a key of
 * its own, so a token hash is useless for anything else); API_TOKEN_SECRET sets it apart, so the
 * session secret can change without voiding every token.
 */
function apiTokenSecret(env: Env, sessionKey: string): string {
  const raw = nonEmpty(env.API_TOKEN_SECRET)
  if (raw === undefined) return createHmac('sha256', sessionKey).update('docflow/api-tokens/v1').digest('hex')
  if (raw.length < 32) throw new Error('Invalid API_TOKEN_SECRET: expected at least 32 characters')
  return raw
}

/** A generated secret kept in DATA_DIR so sessions survive restarts without configuration. */
function sessionSecretFile(dataDir: string): string {
  const file = join(dataDir, 'session-secret')
  try {
    const existing = readFileSync(file, 'utf8').trim()
    if (existing.length < 32)
      throw new Error(`Invalid ${file}: the session secret must be at least 32 characters`)
    return existing
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const secret = randomBytes(32).toString('hex')
  mkdirSync(dataDir, { recursive: true })
  writeFileSync(file, `${secret}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return secret
}

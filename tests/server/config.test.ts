import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/config.ts'

const dirs: string[] = []
async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'docflow-config-'))
  dirs.push(dir)
  return dir
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

describe('loadConfig', () => {
  it('applies the documented defaults', async () => {
    const dataDir = await tempDir()
    const config = loadConfig({ DATA_DIR: dataDir })
    expect(config).toMatchObject({
      port: 3000,
      dataDir,
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
      apiPrefix: '/api',
      mailFrom: 'DocFlow <no-reply@localhost>',
      sessionTtlHours: 12,
      trustProxy: false,
      logLevel: 'info',
      jobHeartbeatSeconds: 5,
      jobLeaseSeconds: 20,
      smtpIn: {
        port: 2525,
        host: '127.0.0.1',
        tls: null,
        maxMessageBytes: 75 * 1024 * 1024,
        maxRecipients: 10,
        maxAttachments: 20,
        senderRatePerMinute: 30,
        recipientRatePerMinute: 60,
      },
    })
    expect(config.staticDir).toMatch(/\/dist$/)
    expect(config.localesDir).toMatch(/\/locales$/)
  })

  it('derives PUBLIC_URL from PORT and resolves DATA_DIR to an absolute path', () => {
    const config = loadConfig({ PORT: '4100', DATA_DIR: 'relative/data', SESSION_SECRET: 'x'.repeat(32) })
    expect(config.publicUrl).toBe('http://localhost:4100')
    expect(config.dataDir).toBe(join(process.cwd(), 'relative/data'))
  })

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['SESSION_TTL_HOURS', '-1'],
    ['PUBLIC_URL', 'not a url'],
    ['API_PREFIX', '/'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'maybe'],
    ['DATABASE_URL', 'mysql://x@y/z'],
    ['SESSION_SECRET', 'short'],
    ['TRUSTED_ORIGINS', 'ftp://files.example.com'],
    ['TRUSTED_ORIGINS', 'https://app.example.com/app, not a url'],
    ['JOB_HEARTBEAT_SECONDS', '0'],
    ['JOB_LEASE_SECONDS', '1.5'],
    ['JOB_LEASE_SECONDS', '9'],
    ['SMTP_IN_PORT', 'smtp'],
    ['SMTP_IN_MAX_MESSAGE_MB', '0'],
    ['SMTP_IN_TLS_KEY', '/etc/ssl/key.pem'],
  ])('throws an error naming %s for %j', async (name, value) => {
    const dataDir = await tempDir()
    expect(() => loadConfig({ DATA_DIR: dataDir, [name]: value })).toThrow(new RegExp(`Invalid ${name}`))
  })

  it('takes a job heartbeat and lease from the environment, the lease at least two beats long', async () => {
    const dataDir = await tempDir()
    const config = loadConfig({ DATA_DIR: dataDir, JOB_HEARTBEAT_SECONDS: '2', JOB_LEASE_SECONDS: '4' })
    expect(config).toMatchObject({ jobHeartbeatSeconds: 2, jobLeaseSeconds: 4 })
    expect(() => loadConfig({ DATA_DIR: dataDir, JOB_HEARTBEAT_SECONDS: '30' })).toThrow(
      /Invalid JOB_LEASE_SECONDS="20": expected at least twice JOB_HEARTBEAT_SECONDS \(30\)/,
    )
  })

  it('reads TRUSTED_ORIGINS as origins written as browsers send them', async () => {
    const dataDir = await tempDir()
    expect(loadConfig({ DATA_DIR: dataDir }).trustedOrigins).toEqual([])
    const config = loadConfig({
      DATA_DIR: dataDir,
      TRUSTED_ORIGINS: ' https://App.Example.com:443/ ,http://localhost:5173,,',
    })
    expect(config.trustedOrigins).toEqual(['https://app.example.com', 'http://localhost:5173'])
  })

  it('generates a session secret in DATA_DIR with mode 0600 and reuses it', async () => {
    const dataDir = await tempDir()
    const first = loadConfig({ DATA_DIR: dataDir }).sessionSecret
    expect(first).toMatch(/^[0-9a-f]{64}$/)
    const file = join(dataDir, 'session-secret')
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect((await readFile(file, 'utf8')).trim()).toBe(first)
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(first)
  })

  it('prefers SESSION_SECRET and then writes no file', async () => {
    const dataDir = await tempDir()
    const secret = 's'.repeat(40)
    expect(loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: secret }).sessionSecret).toBe(secret)
    await expect(stat(join(dataDir, 'session-secret'))).rejects.toThrow()
  })

  it('keys API token hashes apart from sessions, or with API_TOKEN_SECRET', () => {
    const base = { SESSION_SECRET: 's'.repeat(40) }
    const derived = loadConfig(base).apiTokens
    expect(derived.secret).toMatch(/^[0-9a-f]{64}$/)
    expect(derived.secret).not.toBe(base.SESSION_SECRET)
    expect(derived.ratePerMinute).toBe(600)
    const own = loadConfig({ ...base, API_TOKEN_SECRET: 't'.repeat(32), API_TOKEN_RATE: '60' }).apiTokens
    expect(own).toEqual({ secret: 't'.repeat(32), ratePerMinute: 60 })
    expect(() => loadConfig({ ...base, API_TOKEN_SECRET: 'short' })).toThrow(/API_TOKEN_SECRET/)
    expect(() => loadConfig({ ...base, API_TOKEN_RATE: '0' })).toThrow(/API_TOKEN_RATE/)
  })

  it('drops a trailing slash from PUBLIC_URL', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://docs.example.com/', SESSION_SECRET: 'x'.repeat(32) })
    expect(config.publicUrl).toBe('https://docs.example.com')
  })
})

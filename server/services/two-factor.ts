/**
 * Two-factor authentication: TOTP (RFC 6238 through otpauth: SHA-1, 6 digits, 30 s, ±1 step)
 * and ten single-use backup codes. A setup is pending until a code from its secret is
 * verified. Every code is accepted at most once: a TOTP code moves `last_step` forward through
 * a conditional UPDATE (a second submission of the same step matches no row, even when both
 * race), a backup code is consumed by a DELETE … RETURNING. Secrets are stored sealed (AES-256-GCM
 * with a key derived from SESSION_SECRET, bound to their user), so a copy of the database alone
 * cannot produce codes.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'
import { and, eq, lt } from 'drizzle-orm'
import { Secret, TOTP } from 'otpauth'
import type { AppDatabase } from '../db/client.ts'
import { backupCodes, type UserRow, users, userTwoFactor } from '../db/schema.ts'

const TOTP_ISSUER = 'DocFlow'
const TOTP_PERIOD_SECONDS = 30
const TOTP_DIGITS = 6
/** Steps of clock drift accepted either way. */
const TOTP_WINDOW = 1
const BACKUP_CODE_COUNT = 10
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

interface TwoFactorSetup {
  /** Base32, for manual entry. */
  secret: string
  /** `otpauth://totp/DocFlow:<email>?secret=…&issuer=DocFlow…`, for the QR code. */
  uri: string
  /** Shown once; only their HMACs are stored. */
  backupCodes: string[]
}

interface SecondFactor {
  token: string
  useBackupCode: boolean
}

export interface TwoFactorService {
  /** Replaces the pending secret and pending backup codes of the user. */
  beginSetup(user: Pick<UserRow, 'id' | 'email'>): Promise<TwoFactorSetup>
  /** Activates the pending secret when `token` is a current code from it. */
  completeSetup(userId: number, token: string): Promise<boolean>
  /** Checks (and consumes) a code of the active secret or an active backup code. */
  verify(userId: number, factor: SecondFactor): Promise<boolean>
  /** Turns 2FA off: secrets and every backup code are removed. */
  disable(userId: number): Promise<void>
}

function totp(secret: string, label = 'user'): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  })
}

/** The time-step `token` belongs to within ±TOTP_WINDOW of `now`, or null when it matches none. */
function matchTotpStep(secret: string, token: string, now: Date): number | null {
  const code = token.replace(/\s+/g, '')
  if (!/^\d{6}$/.test(code)) return null
  const generator = totp(secret)
  const timestamp = now.getTime()
  const delta = generator.validate({ token: code, timestamp, window: TOTP_WINDOW })
  return delta === null ? null : generator.counter({ timestamp }) + delta
}

/** Ten base32 characters (50 bits) shown as `XXXXX-XXXXX`; 32 divides 256, so no modulo bias. */
function generateBackupCode(): string {
  const chars = [...randomBytes(10)].map((byte) => BASE32[byte & 31]).join('')
  return `${chars.slice(0, 5)}-${chars.slice(5)}`
}

/** Upper-case, without spaces or dashes; null when it cannot be a backup code. */
function normaliseBackupCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]+/g, '')
  return /^[A-Z2-7]{10}$/.test(code) ? code : null
}

const SEALED = 'v1:'

/**
 * Seals and opens TOTP secrets for storage. The user id is authenticated data: a sealed secret
 * moved to another user's row does not open. A row written before sealing existed (plain base32)
 * still opens, and is sealed at its next accepted code.
 */
function createSecretBox(sessionSecret: string) {
  const key = createHmac('sha256', sessionSecret).update('docflow/totp-secrets/v1').digest()
  return {
    seal(userId: number, secret: string): string {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      cipher.setAAD(Buffer.from(`user:${userId}`))
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
      return `${SEALED}${[iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.')}`
    },
    /** The secret, or null when it cannot be opened (another user's row, another SESSION_SECRET). */
    open(userId: number, stored: string): string | null {
      if (!stored.startsWith(SEALED)) return stored
      const [iv, tag, body] = stored
        .slice(SEALED.length)
        .split('.')
        .map((p) => Buffer.from(p, 'base64url'))
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv!)
        decipher.setAAD(Buffer.from(`user:${userId}`))
        decipher.setAuthTag(tag!)
        return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8')
      } catch {
        return null
      }
    },
    isSealed: (stored: string) => stored.startsWith(SEALED),
  }
}

/** Uses (deletes) one of the user's active backup codes; whether it was one. */
async function spendBackupCode(db: AppDatabase, userId: number, codeHash: string): Promise<boolean> {
  const used = await db
    .delete(backupCodes)
    .where(
      and(eq(backupCodes.userId, userId), eq(backupCodes.codeHash, codeHash), eq(backupCodes.pending, false)),
    )
    .returning({ id: backupCodes.id })
  return used.length === 1
}

/** Makes the pending secret and backup codes the active ones; false when another request got there first. */
function activatePending(
  db: AppDatabase,
  setup: { userId: number; pending: string; secret: string; step: number; now: Date },
): Promise<boolean> {
  const { userId, pending, secret, step, now } = setup
  return db.transaction(async (tx) => {
    // Conditional on the same pending secret and a later step: a concurrent verify or a
    // new generate-2fa in between makes this match no row.
    const activated = await tx
      .update(userTwoFactor)
      .set({
        secret,
        pendingSecret: null,
        pendingCreatedAt: null,
        lastStep: step,
        enabledAt: now,
        updatedAt: now,
      })
      .where(
        and(
          eq(userTwoFactor.userId, userId),
          eq(userTwoFactor.pendingSecret, pending),
          lt(userTwoFactor.lastStep, step),
        ),
      )
      .returning({ userId: userTwoFactor.userId })
    if (activated.length === 0) return false
    await tx.delete(backupCodes).where(and(eq(backupCodes.userId, userId), eq(backupCodes.pending, false)))
    await tx.update(backupCodes).set({ pending: false }).where(eq(backupCodes.userId, userId))
    await tx.update(users).set({ is2faEnabled: true, updatedAt: now }).where(eq(users.id, userId))
    return true
  })
}

export function createTwoFactorService(deps: {
  db: AppDatabase
  sessionSecret: string
  clock: () => Date
}): TwoFactorService {
  const { db, clock } = deps
  // A key of its own, derived from the server secret, so backup-code hashes are useless to
  // anyone who has a copy of the database but not the secret.
  const key = createHmac('sha256', deps.sessionSecret).update('docflow/backup-codes/v1').digest()
  const hashCode = (userId: number, code: string) =>
    createHmac('sha256', key).update(`${userId}:${code}`).digest('hex')
  const box = createSecretBox(deps.sessionSecret)

  return {
    async beginSetup(user) {
      const now = clock()
      const secret = new Secret({ size: 20 }).base32
      const sealed = box.seal(user.id, secret)
      const uri = totp(secret, user.email).toString()
      const codes = Array.from({ length: BACKUP_CODE_COUNT }, generateBackupCode)
      await db.transaction(async (tx) => {
        await tx
          .insert(userTwoFactor)
          .values({ userId: user.id, pendingSecret: sealed, pendingCreatedAt: now, updatedAt: now })
          .onConflictDoUpdate({
            target: userTwoFactor.userId,
            set: { pendingSecret: sealed, pendingCreatedAt: now, updatedAt: now },
          })
        await tx
          .delete(backupCodes)
          .where(and(eq(backupCodes.userId, user.id), eq(backupCodes.pending, true)))
        await tx.insert(backupCodes).values(
          codes.map((code) => ({
            userId: user.id,
            codeHash: hashCode(user.id, normaliseBackupCode(code)!),
            pending: true,
            createdAt: now,
          })),
        )
      })
      return { secret, uri, backupCodes: codes }
    },

    async completeSetup(userId, token) {
      const now = clock()
      const [row] = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId))
      const pending = row?.pendingSecret
      if (!pending) return false
      const opened = box.open(userId, pending)
      if (opened === null) return false
      const step = matchTotpStep(opened, token, now)
      if (step === null) return false
      const secret = box.isSealed(pending) ? pending : box.seal(userId, pending)
      return activatePending(db, { userId, pending, secret, step, now })
    },

    async verify(userId, { token, useBackupCode }) {
      const now = clock()
      const [row] = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId))
      const secret = row?.secret
      if (!secret) return false
      if (useBackupCode) {
        const code = normaliseBackupCode(token)
        return code ? spendBackupCode(db, userId, hashCode(userId, code)) : false
      }
      const opened = box.open(userId, secret)
      if (opened === null) return false
      const step = matchTotpStep(opened, token, now)
      if (step === null) return false
      const accepted = await db
        .update(userTwoFactor)
        // A secret stored before sealing existed is sealed now.
        .set({
          lastStep: step,
          updatedAt: now,
          secret: box.isSealed(secret) ? secret : box.seal(userId, opened),
        })
        .where(
          and(
            eq(userTwoFactor.userId, userId),
            eq(userTwoFactor.secret, secret),
            lt(userTwoFactor.lastStep, step),
          ),
        )
        .returning({ userId: userTwoFactor.userId })
      return accepted.length === 1
    },

    async disable(userId) {
      const now = clock()
      await db.transaction(async (tx) => {
        // The row (and its last accepted step) stays: a later setup still refuses older steps.
        await tx
          .update(userTwoFactor)
          .set({ secret: null, pendingSecret: null, pendingCreatedAt: null, enabledAt: null, updatedAt: now })
          .where(eq(userTwoFactor.userId, userId))
        await tx.delete(backupCodes).where(eq(backupCodes.userId, userId))
        await tx.update(users).set({ is2faEnabled: false, updatedAt: now }).where(eq(users.id, userId))
      })
    },
  }
}

/**
 * Personal API tokens. A token is `dft_` and 256 random bits (base64url), given to its owner once;
 * the table keeps HMAC-SHA256(API token key, token), so a copy of the table gives no usable token
 * and a lookup is one indexed equality. A bearer request resolves its token to the enabled owner;
 * `last_used_at` is written at most once a minute per token (a conditional UPDATE), so a busy
 * script does not turn every read into a write.
 */
import { createHmac, randomBytes } from 'node:crypto'
import { and, asc, count, eq, isNull, lt, or } from 'drizzle-orm'
import type { AppDatabase } from '../db/client.ts'
import { type ApiTokenRow, apiTokens, type UserRow, users } from '../db/schema.ts'

const TOKEN_PREFIX = 'dft_'
const TOKEN_PATTERN = /^dft_[A-Za-z0-9_-]{43}$/
/** `last_used_at` moves at most this often. */
const TOUCH_AFTER_MS = 60 * 1000
/** Tokens one user may hold at once (expired ones count until revoked). */
const MAX_API_TOKENS_PER_USER = 50

type ApiTokenResolution =
  | { outcome: 'valid'; token: ApiTokenRow; user: UserRow }
  | { outcome: 'expired' }
  | { outcome: 'invalid' }

export interface ApiTokenService {
  /** A new token for the user; null when the user already holds the most tokens allowed. */
  issue(userId: number, name: string, expiresAt: Date): Promise<{ row: ApiTokenRow; token: string } | null>
  list(userId: number): Promise<ApiTokenRow[]>
  /** Deletes the user's token; false when the user has no token with this id. */
  revoke(userId: number, id: number): Promise<boolean>
  /** The token's owner when the token exists, has not expired and its owner is enabled. */
  resolve(token: string): Promise<ApiTokenResolution>
}

export function hashApiToken(secret: string, token: string): string {
  return createHmac('sha256', secret).update(token).digest('hex')
}

export function createApiTokenService(deps: {
  db: AppDatabase
  secret: string
  clock: () => Date
}): ApiTokenService {
  const { db, secret, clock } = deps

  return {
    async issue(userId, name, expiresAt) {
      const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`
      return db.transaction(async (tx) => {
        // The owner's row locked: two concurrent creations cannot both pass the count.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update')
        const [held] = await tx.select({ n: count() }).from(apiTokens).where(eq(apiTokens.userId, userId))
        if ((held?.n ?? 0) >= MAX_API_TOKENS_PER_USER) return null
        const [row] = await tx
          .insert(apiTokens)
          .values({ userId, name, tokenHash: hashApiToken(secret, token), createdAt: clock(), expiresAt })
          .returning()
        return { row: row!, token }
      })
    },

    list: (userId) =>
      db.select().from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(asc(apiTokens.id)),

    async revoke(userId, id) {
      const deleted = await db
        .delete(apiTokens)
        .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)))
        .returning({ id: apiTokens.id })
      return deleted.length > 0
    },

    async resolve(token) {
      if (!TOKEN_PATTERN.test(token)) return { outcome: 'invalid' }
      const [row] = await db
        .select({ token: apiTokens, user: users })
        .from(apiTokens)
        .innerJoin(users, eq(users.id, apiTokens.userId))
        .where(eq(apiTokens.tokenHash, hashApiToken(secret, token)))
      if (!row?.user.enabled) return { outcome: 'invalid' }
      const now = clock()
      if (row.token.expiresAt.getTime() <= now.getTime()) return { outcome: 'expired' }
      const stale = new Date(now.getTime() - TOUCH_AFTER_MS)
      if (row.token.lastUsedAt === null || row.token.lastUsedAt < stale) {
        await db
          .update(apiTokens)
          .set({ lastUsedAt: now })
          .where(
            and(
              eq(apiTokens.id, row.token.id),
              or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, stale)),
            ),
          )
      }
      return { outcome: 'valid', token: row.token, user: row.user }
    },
  }
}

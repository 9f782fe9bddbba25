/**
 * Single-use account tokens (activation, password reset): 256 random bits given to the user
 * once (in an e-mail link), stored as SHA-256 only, expiring, and consumed by a conditional
 * UPDATE so two submissions of one token cannot both succeed. A plain hash is enough here:
 * unlike a password or a backup code, 256 random bits cannot be guessed from their hash.
 */
import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, isNull } from 'drizzle-orm'
import type { AppDatabase } from '../db/client.ts'
import { type AccountTokenPurpose, accountTokens } from '../db/schema.ts'

const HOUR = 60 * 60 * 1000
const TOKEN_TTL_MS: Record<AccountTokenPurpose, number> = {
  activation: 72 * HOUR,
  reset: 1 * HOUR,
}
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

type Db = Pick<AppDatabase, 'select' | 'insert' | 'update' | 'delete'>

export function hashAccountToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** A new token for the user; earlier unused tokens of the same purpose stop working. */
export async function issueAccountToken(
  db: AppDatabase,
  userId: number,
  purpose: AccountTokenPurpose,
  now: Date,
): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  await db.transaction(async (tx) => {
    await tx
      .update(accountTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(accountTokens.userId, userId),
          eq(accountTokens.purpose, purpose),
          isNull(accountTokens.usedAt),
        ),
      )
    await tx.insert(accountTokens).values({
      userId,
      purpose,
      tokenHash: hashAccountToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + TOKEN_TTL_MS[purpose]),
    })
  })
  return token
}

const usable = (token: string, userId: number, purpose: AccountTokenPurpose, now: Date) =>
  and(
    eq(accountTokens.tokenHash, hashAccountToken(token)),
    eq(accountTokens.userId, userId),
    eq(accountTokens.purpose, purpose),
    isNull(accountTokens.usedAt),
    gt(accountTokens.expiresAt, now),
  )

/** Whether the token is currently usable, without using it (to skip needless work). */
export async function isAccountTokenUsable(
  db: Db,
  token: string,
  userId: number,
  purpose: AccountTokenPurpose,
  now: Date,
): Promise<boolean> {
  if (!TOKEN_PATTERN.test(token)) return false
  const [row] = await db
    .select({ id: accountTokens.id })
    .from(accountTokens)
    .where(usable(token, userId, purpose, now))
  return row !== undefined
}

/** Marks the token used; true for exactly one caller, and only while it is unused and unexpired. */
export async function consumeAccountToken(
  db: Db,
  token: string,
  userId: number,
  purpose: AccountTokenPurpose,
  now: Date,
): Promise<boolean> {
  if (!TOKEN_PATTERN.test(token)) return false
  const rows = await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(usable(token, userId, purpose, now))
    .returning({ id: accountTokens.id })
  return rows.length === 1
}

/** When the user's newest reset token was issued, if one is still unused. */
export async function latestUnusedToken(
  db: Db,
  userId: number,
  purpose: AccountTokenPurpose,
): Promise<Date | null> {
  const rows = await db
    .select({ createdAt: accountTokens.createdAt })
    .from(accountTokens)
    .where(
      and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)),
    )
  return rows.reduce<Date | null>((max, r) => (max === null || r.createdAt > max ? r.createdAt : max), null)
}

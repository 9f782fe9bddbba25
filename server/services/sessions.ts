/**
 * Server-side sessions. The browser holds a random token in the `sid` cookie; the table holds
 * only HMAC(sessionSecret, token), so a copy of the table does not give usable cookies.
 */
import { createHmac, randomBytes } from 'node:crypto'
import { and, eq, lt, ne } from 'drizzle-orm'
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { Config } from '../config.ts'
import type { AppDatabase } from '../db/client.ts'
import { type SessionRow, sessions, type UserRow, users } from '../db/schema.ts'

const SESSION_COOKIE = 'sid'
/** Sliding expiry writes at most once a minute per session. */
const TOUCH_AFTER_MS = 60 * 1000
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

interface ResolvedSession {
  session: SessionRow
  user: UserRow
  /** The expiry moved: the cookie should be sent again with a fresh Max-Age. */
  renewed: boolean
}

export interface SessionService {
  /** A new session for the user; returns the cookie token (never stored as such). */
  create(userId: number): Promise<string>
  /** The live session and its enabled user for a cookie token, sliding its expiry; null otherwise. */
  resolve(token: string): Promise<ResolvedSession | null>
  end(token: string): Promise<void>
  readCookie(c: Context): string | undefined
  /**
   * The live session of the request's cookie (its expiry slid, and the cookie sent again when it
   * moved); null for a cookie that names none (expired, ended, its user disabled, made up);
   * undefined without a cookie.
   */
  resolveCookie(c: Context): Promise<ResolvedSession | null | undefined>
  writeCookie(c: Context, token: string): void
  clearCookie(c: Context): void
}

export function hashSessionToken(secret: string, token: string): string {
  return createHmac('sha256', secret).update(token).digest('hex')
}

/** Ends every session of a user (disable, password change, …). */
export async function endSessionsOfUser(db: Pick<AppDatabase, 'delete'>, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId))
}

/** Ends every session of a user except `keepId` (the one changing the password). */
export async function endOtherSessionsOfUser(
  db: Pick<AppDatabase, 'delete'>,
  userId: number,
  keepId: string,
): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)))
}

export function createSessionService(deps: {
  db: AppDatabase
  config: Pick<Config, 'sessionSecret' | 'sessionTtlHours' | 'publicUrl'>
  clock: () => Date
}): SessionService {
  const { db, config, clock } = deps
  const ttlMs = config.sessionTtlHours * 60 * 60 * 1000
  const secure = config.publicUrl.startsWith('https:')
  const idOf = (token: string) => hashSessionToken(config.sessionSecret, token)

  const service: SessionService = {
    async create(userId) {
      const now = clock()
      const token = randomBytes(32).toString('base64url')
      await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, now)))
      await db.insert(sessions).values({
        id: idOf(token),
        userId,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + ttlMs),
      })
      return token
    },

    async resolve(token) {
      if (!TOKEN_PATTERN.test(token)) return null
      const id = idOf(token)
      const [row] = await db
        .select({ session: sessions, user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(eq(sessions.id, id))
      if (!row) return null
      const now = clock()
      if (row.session.expiresAt.getTime() <= now.getTime()) {
        await db.delete(sessions).where(eq(sessions.id, id))
        return null
      }
      if (!row.user.enabled) return null
      if (now.getTime() - row.session.lastSeenAt.getTime() <= TOUCH_AFTER_MS) {
        return { ...row, renewed: false }
      }
      const expiresAt = new Date(now.getTime() + ttlMs)
      await db.update(sessions).set({ lastSeenAt: now, expiresAt }).where(eq(sessions.id, id))
      return { session: { ...row.session, lastSeenAt: now, expiresAt }, user: row.user, renewed: true }
    },

    async end(token) {
      if (TOKEN_PATTERN.test(token)) await db.delete(sessions).where(eq(sessions.id, idOf(token)))
    },

    readCookie(c) {
      // A bearer request is authenticated by its token alone (http/bearer.ts): its cookie is never read.
      if (c.get('apiToken' as never)) return undefined
      return getCookie(c, SESSION_COOKIE)
    },

    async resolveCookie(c) {
      const token = service.readCookie(c)
      if (token === undefined) return undefined
      const resolved = await service.resolve(token)
      // Sliding expiry: keep the browser's cookie lifetime in step with the server's.
      if (resolved?.renewed) service.writeCookie(c, token)
      return resolved
    },

    writeCookie(c, token) {
      setCookie(c, SESSION_COOKIE, token, {
        httpOnly: true,
        sameSite: 'Lax',
        path: '/',
        secure,
        maxAge: Math.floor(ttlMs / 1000),
      })
    },

    clearCookie(c) {
      deleteCookie(c, SESSION_COOKIE, { httpOnly: true, sameSite: 'Lax', path: '/', secure })
    },
  }
  return service
}

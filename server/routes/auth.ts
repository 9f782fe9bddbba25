import { type Context, Hono } from 'hono'
import {
  Complete2faInput,
  CreateFirstAdminInput,
  contractMessages,
  LoginInput,
  type LoginResult,
  type MessageResult,
  type SessionAnswer,
} from '../../contract/index.ts'
import { requireUser } from '../http/auth.ts'
import type { AppEnv, RouteDeps } from '../http/context.ts'
import { HttpError, parse, readJson } from '../http/errors.ts'
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../services/passwords.ts'
import { createFirstAdmin, findUserByEmail, hasSaasAdmin, toUserView } from '../services/users.ts'
import { attemptGuard } from './auth-guard.ts'

const INVALID_CREDENTIALS = 'Invalid email or password'
const INVALID_SECOND_STEP = contractMessages.invalidCredentials

export function authRoutes(deps: RouteDeps) {
  const { db, logger, sessions, twoFactor } = deps
  /** Never reuse a presented cookie: a fresh session id on every sign-in (no fixation). */
  const startSession = async (c: Context<AppEnv>, userId: number) => {
    const previous = sessions.readCookie(c)
    if (previous) await sessions.end(previous)
    sessions.writeCookie(c, await sessions.create(userId))
  }
  return new Hono<AppEnv>()
    .post('/auth/login', async (c) => {
      const { email, password } = parse(LoginInput, await readJson(c))
      const guard = attemptGuard(c, deps, email, 'sign-in')
      guard.check()

      const user = await findUserByEmail(db, email)
      // Always one argon2 verification, whatever is wrong, so timing reveals nothing either.
      const passwordOk = user?.passwordHash
        ? await verifyPassword(user.passwordHash, password)
        : await verifyAgainstDummy(password)
      if (!user || !passwordOk || !user.enabled || !user.validated) {
        guard.failed()
        throw new HttpError(401, INVALID_CREDENTIALS)
      }

      if (user.is2faEnabled) {
        // The second step (POST /auth/complete-2fa-login) issues the session.
        return c.json({ requires_2fa: true, should_setup_2fa: false } satisfies LoginResult)
      }
      guard.succeeded()
      await startSession(c, user.id)
      return c.json({
        requires_2fa: false,
        should_setup_2fa: !user.is2faEnabled && user.twoFactorAdvice,
      } satisfies LoginResult)
    })

    .post('/auth/complete-2fa-login', async (c) => {
      const input = parse(Complete2faInput, await readJson(c))
      const guard = attemptGuard(c, deps, input.email, 'sign-in')
      guard.check()

      const user = await findUserByEmail(db, input.email)
      const passwordOk = user?.passwordHash
        ? await verifyPassword(user.passwordHash, input.password)
        : await verifyAgainstDummy(input.password)
      // The code is checked (and consumed) only behind a right password, and one answer
      // covers every failure: it never says which factor was wrong.
      const ok =
        user !== undefined &&
        passwordOk &&
        user.enabled &&
        user.validated &&
        user.is2faEnabled &&
        (await twoFactor.verify(user.id, { token: input.token, useBackupCode: input.use_backup_code }))
      if (!ok) {
        guard.failed()
        throw new HttpError(401, INVALID_SECOND_STEP)
      }
      guard.succeeded()
      await startSession(c, user.id)
      logger.info(
        { reqId: c.var.requestId, userId: user.id, backupCode: input.use_backup_code },
        'signed in with 2FA',
      )
      return c.json({ message: 'Login successful' } satisfies MessageResult)
    })

    .post('/auth/logout', async (c) => {
      const token = sessions.readCookie(c)
      if (token) await sessions.end(token)
      sessions.clearCookie(c)
      return c.json({ message: 'Logged out' })
    })

    .get('/auth/logged-in', requireUser(sessions), async (c) => c.json(await toUserView(db, c.var.user)))

    .get('/auth/session', async (c) => {
      // The app's start-up check: public, so that a signed-out visitor's browser logs no 401.
      const token = sessions.readCookie(c)
      const resolved = token ? await sessions.resolve(token) : null
      if (token && resolved?.renewed) sessions.writeCookie(c, token)
      const user = resolved ? await toUserView(db, resolved.user) : null
      return c.json({ user } satisfies SessionAnswer)
    })

    .get('/auth/setup-status', async (c) => c.json({ needs_first_admin: !(await hasSaasAdmin(db)) }))

    .post('/auth/create-first-saas-admin', async (c) => {
      const input = parse(CreateFirstAdminInput, await readJson(c))
      // Cheap refusal before the deliberate cost of hashing; the transaction re-checks under a lock.
      if (await hasSaasAdmin(db)) throw new HttpError(409, contractMessages.adminExists)
      const outcome = await createFirstAdmin(
        db,
        {
          email: input.email,
          name: input.name,
          surname: input.surname,
          passwordHash: await hashPassword(input.password),
        },
        'no-admin',
      )
      if (outcome === 'admin-exists') throw new HttpError(409, contractMessages.adminExists)
      if (outcome === 'email-taken') throw new HttpError(409, contractMessages.emailInUse)
      logger.info({ reqId: c.var.requestId, email: input.email }, 'first administrator created')
      return c.json({ message: 'Administrator created' }, 201)
    })
}

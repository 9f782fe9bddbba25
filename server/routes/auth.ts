import { Hono } from 'hono'
import { CreateFirstAdminInput, LoginInput, type LoginResult } from '../../src/api/schemas.ts'
import { requireUser } from '../http/auth.ts'
import { clientAddress } from '../http/client-address.ts'
import type { AppEnv, RouteDeps } from '../http/context.ts'
import { HttpError, parse, readJson } from '../http/errors.ts'
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../services/passwords.ts'
import { createFirstAdmin, findUserByEmail, hasSaasAdmin, toUserView } from '../services/users.ts'

const INVALID_CREDENTIALS = 'Invalid email or password'

export function authRoutes({ db, config, logger, rateLimiter, sessions }: RouteDeps) {
  return new Hono<AppEnv>()
    .post('/auth/login', async (c) => {
      const { email, password } = parse(LoginInput, await readJson(c))
      const client = clientAddress(c, config.trustProxy)
      const limit = rateLimiter.check(email, client)
      if (limit.limited) {
        logger.warn({ reqId: c.var.requestId, client }, 'sign-in throttled')
        throw new HttpError(429, 'Too many attempts. Try again later.', undefined, {
          'Retry-After': String(limit.retryAfterSeconds),
        })
      }

      const user = await findUserByEmail(db, email)
      // Always one argon2 verification, whatever is wrong, so timing reveals nothing either.
      const passwordOk = user?.passwordHash
        ? await verifyPassword(user.passwordHash, password)
        : await verifyAgainstDummy(password)
      if (!user || !passwordOk || !user.enabled || !user.validated) {
        rateLimiter.recordFailure(email, client)
        throw new HttpError(401, INVALID_CREDENTIALS)
      }

      if (user.is2faEnabled) {
        // The second step (POST /auth/complete-2fa-login) issues the session.
        return c.json({ requires_2fa: true, should_setup_2fa: false } satisfies LoginResult)
      }
      rateLimiter.recordSuccess(email)
      // Never reuse a presented cookie: a fresh session id on every sign-in (no fixation).
      const previous = sessions.readCookie(c)
      if (previous) await sessions.end(previous)
      sessions.writeCookie(c, await sessions.create(user.id))
      return c.json({ requires_2fa: false, should_setup_2fa: !user.is2faEnabled } satisfies LoginResult)
    })

    .post('/auth/logout', async (c) => {
      const token = sessions.readCookie(c)
      if (token) await sessions.end(token)
      sessions.clearCookie(c)
      return c.json({ message: 'Logged out' })
    })

    .get('/auth/logged-in', requireUser(sessions), async (c) => c.json(await toUserView(db, c.var.user)))

    .get('/auth/setup-status', async (c) => c.json({ needs_first_admin: !(await hasSaasAdmin(db)) }))

    .post('/auth/create-first-saas-admin', async (c) => {
      const input = parse(CreateFirstAdminInput, await readJson(c))
      // Cheap refusal before the deliberate cost of hashing; the transaction re-checks under a lock.
      if (await hasSaasAdmin(db)) throw new HttpError(409, 'A platform administrator already exists')
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
      if (outcome === 'admin-exists') throw new HttpError(409, 'A platform administrator already exists')
      if (outcome === 'email-taken') throw new HttpError(409, 'A user with this e-mail already exists')
      logger.info({ reqId: c.var.requestId, email: input.email }, 'first administrator created')
      return c.json({ message: 'Administrator created' }, 201)
    })
}

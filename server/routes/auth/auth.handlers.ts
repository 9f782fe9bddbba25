/**
 * Sign-in (with its 2FA step), sign-out, the session and the first administrator. A failed
 * sign-in spends the attempt budget of the account and the client (`http/attempt-guard.ts`).
 */
import type { Context } from 'hono'
import type * as v from 'valibot'
import {
  type Complete2faInput,
  type CreateFirstAdminInput,
  contractMessages,
  type LoginInput,
  type LoginResult,
  type MessageResult,
  type SessionAnswer,
} from '../../../contract/index.ts'
import { attemptGuard } from '../../http/attempt-guard.ts'
import type { AppEnv, RouteDeps } from '../../http/context.ts'
import { HttpError } from '../../http/errors.ts'
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../services/passwords.ts'
import { createFirstAdmin, findUserByEmail, hasSaasAdmin, toUserView } from '../../services/users.ts'

const INVALID_CREDENTIALS = 'Invalid email or password'
const INVALID_SECOND_STEP = contractMessages.invalidCredentials

type Json<S extends v.GenericSchema> = Context<AppEnv, string, { out: { json: v.InferOutput<S> } }>

/** Never reuse a presented cookie: a fresh session id on every sign-in (no fixation). */
async function startSession({ sessions }: RouteDeps, c: Context<AppEnv>, userId: number) {
  const previous = sessions.readCookie(c)
  if (previous) await sessions.end(previous)
  sessions.writeCookie(c, await sessions.create(userId))
}

/** Always one argon2 verification, whatever is wrong, so timing reveals nothing either. */
const passwordMatches = (user: { passwordHash: string | null } | undefined, password: string) =>
  user?.passwordHash ? verifyPassword(user.passwordHash, password) : verifyAgainstDummy(password)

export async function login(deps: RouteDeps, c: Json<typeof LoginInput>) {
  const { email, password } = c.req.valid('json')
  const guard = attemptGuard(c, deps, email, 'sign-in')
  guard.check()
  const user = await findUserByEmail(deps.db, email)
  const passwordOk = await passwordMatches(user, password)
  if (!user || !passwordOk || !user.enabled || !user.validated) {
    guard.failed()
    throw new HttpError(401, INVALID_CREDENTIALS)
  }
  // The second step (POST /auth/complete-2fa-login) issues the session.
  if (user.is2faEnabled) {
    return c.json({ requires_2fa: true, should_setup_2fa: false } satisfies LoginResult)
  }
  guard.succeeded()
  await startSession(deps, c, user.id)
  return c.json({
    requires_2fa: false,
    should_setup_2fa: !user.is2faEnabled && user.twoFactorAdvice,
  } satisfies LoginResult)
}

export async function completeTwoFactorLogin(deps: RouteDeps, c: Json<typeof Complete2faInput>) {
  const input = c.req.valid('json')
  const guard = attemptGuard(c, deps, input.email, 'sign-in')
  guard.check()
  const user = await findUserByEmail(deps.db, input.email)
  const passwordOk = await passwordMatches(user, input.password)
  // The code is checked (and consumed) only behind a right password, and one answer
  // covers every failure: it never says which factor was wrong.
  const ok =
    user !== undefined &&
    passwordOk &&
    user.enabled &&
    user.validated &&
    user.is2faEnabled &&
    (await deps.twoFactor.verify(user.id, { token: input.token, useBackupCode: input.use_backup_code }))
  if (!ok) {
    guard.failed()
    throw new HttpError(401, INVALID_SECOND_STEP)
  }
  guard.succeeded()
  await startSession(deps, c, user.id)
  deps.logger.info(
    { reqId: c.var.requestId, userId: user.id, backupCode: input.use_backup_code },
    'signed in with 2FA',
  )
  return c.json({ message: 'Login successful' } satisfies MessageResult)
}

export async function logout({ sessions }: RouteDeps, c: Context<AppEnv>) {
  const token = sessions.readCookie(c)
  if (token) await sessions.end(token)
  sessions.clearCookie(c)
  return c.json({ message: 'Logged out' })
}

/** The app's start-up check: public, so that a signed-out visitor's browser logs no 401. */
export async function session({ db, sessions }: RouteDeps, c: Context<AppEnv>) {
  const token = sessions.readCookie(c)
  const resolved = token ? await sessions.resolve(token) : null
  if (token && resolved?.renewed) sessions.writeCookie(c, token)
  const user = resolved ? await toUserView(db, resolved.user) : null
  return c.json({ user } satisfies SessionAnswer)
}

export async function createFirstSaasAdmin({ db, logger }: RouteDeps, c: Json<typeof CreateFirstAdminInput>) {
  const input = c.req.valid('json')
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
}

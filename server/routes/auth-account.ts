/**
 * Passwords by e-mail link and in settings: activation of an invited account, reset request
 * and confirmation, and change by the signed-in user.
 */
import { eq } from 'drizzle-orm'
import { Hono } from 'hono'
import {
  ChangePasswordInput,
  contractMessages,
  type MessageResult,
  ResetConfirmInput,
  ResetRequestInput,
  ValidateMailInput,
} from '../../contract/index.ts'
import { users } from '../db/schema.ts'
import { requireUser } from '../http/auth.ts'
import { refuseApiToken } from '../http/bearer.ts'
import type { AppEnv, RouteDeps } from '../http/context.ts'
import { HttpError, parse, readJson } from '../http/errors.ts'
import { hashPassword, verifyPassword } from '../services/passwords.ts'
import { endOtherSessionsOfUser } from '../services/sessions.ts'
import { attemptGuard } from './auth-guard.ts'

const RESET_REQUESTED_MESSAGE =
  'If an account exists for this e-mail address, a password reset link has been sent to it.'

export function accountRoutes(deps: RouteDeps) {
  const { db, logger, sessions, accounts, clock } = deps

  return new Hono<AppEnv>()
    .post('/auth/validate-mail', async (c) => {
      const input = parse(ValidateMailInput, await readJson(c))
      const ok = await accounts.activate({
        email: input.email,
        token: input.validation_token,
        password: input.password,
      })
      if (!ok) throw new HttpError(400, contractMessages.invalidValidationLink)
      logger.info({ reqId: c.var.requestId }, 'account validated')
      return c.json({ message: 'Account validated successfully' } satisfies MessageResult)
    })

    .post('/auth/password/reset', async (c) => {
      const { email } = parse(ResetRequestInput, await readJson(c))
      // Nothing is looked up before answering: same answer, same timing, for any e-mail.
      accounts.requestPasswordReset(email)
      return c.json({ message: RESET_REQUESTED_MESSAGE } satisfies MessageResult)
    })

    .post('/auth/password/reset/confirm', async (c) => {
      const input = parse(ResetConfirmInput, await readJson(c))
      const ok = await accounts.confirmReset({
        email: input.email,
        token: input.token,
        password: input.new_password,
      })
      if (!ok) throw new HttpError(400, contractMessages.invalidResetLink)
      // A new password proves this client is the owner: its own sign-in failures are forgiven
      // (other addresses' failures stay counted).
      attemptGuard(c, deps, input.email, 'sign-in').succeeded()
      logger.info({ reqId: c.var.requestId }, 'password reset')
      return c.json({ message: 'Password reset successfully' } satisfies MessageResult)
    })

    .post('/auth/password/change', requireUser(sessions), refuseApiToken, async (c) => {
      const input = parse(ChangePasswordInput, await readJson(c))
      const { user, session } = c.var
      const guard = attemptGuard(c, deps, user.email, 'signed-in')
      guard.check()
      if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.current_password))) {
        guard.failed()
        throw new HttpError(
          401,
          contractMessages.currentPasswordIncorrect,
          contractMessages.currentPasswordIncorrect,
        )
      }
      const passwordHash = await hashPassword(input.new_password)
      await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, updatedAt: clock() }).where(eq(users.id, user.id))
        await endOtherSessionsOfUser(tx, user.id, session.id)
      })
      logger.info({ reqId: c.var.requestId, userId: user.id }, 'password changed')
      return c.json({ message: 'Password changed successfully' } satisfies MessageResult)
    })
}

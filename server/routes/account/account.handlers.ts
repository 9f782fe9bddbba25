/**
 * Passwords by e-mail link and in settings: activation of an invited account, reset request
 * and confirmation, and change by the signed-in user.
 */
import type { Context } from 'hono'
import type * as v from 'valibot'
import {
  type ChangePasswordInput,
  contractMessages,
  type MessageResult,
  type ResetConfirmInput,
  type ResetRequestInput,
  type ValidateMailInput,
} from '../../../contract/index.ts'
import { attemptGuard } from '../../http/attempt-guard.ts'
import type { AppEnv, RouteDeps } from '../../http/context.ts'
import { HttpError } from '../../http/errors.ts'
import { hashPassword, verifyPassword } from '../../services/passwords.ts'
import { replacePassword } from './account.queries.ts'

const RESET_REQUESTED_MESSAGE =
  'If an account exists for this e-mail address, a password reset link has been sent to it.'

type Json<S extends v.GenericSchema> = Context<AppEnv, string, { out: { json: v.InferOutput<S> } }>

export async function validateMail({ accounts, logger }: RouteDeps, c: Json<typeof ValidateMailInput>) {
  const input = c.req.valid('json')
  const ok = await accounts.activate({
    email: input.email,
    token: input.validation_token,
    password: input.password,
  })
  if (!ok) throw new HttpError(400, contractMessages.invalidValidationLink)
  logger.info({ reqId: c.var.requestId }, 'account validated')
  return c.json({ message: 'Account validated successfully' } satisfies MessageResult)
}

/** Nothing is looked up before answering: same answer, same timing, for any e-mail. */
export function requestReset({ accounts }: RouteDeps, c: Json<typeof ResetRequestInput>) {
  accounts.requestPasswordReset(c.req.valid('json').email)
  return c.json({ message: RESET_REQUESTED_MESSAGE } satisfies MessageResult)
}

export async function confirmReset(deps: RouteDeps, c: Json<typeof ResetConfirmInput>) {
  const input = c.req.valid('json')
  const ok = await deps.accounts.confirmReset({
    email: input.email,
    token: input.token,
    password: input.new_password,
  })
  if (!ok) throw new HttpError(400, contractMessages.invalidResetLink)
  // A new password proves this client is the owner: its own sign-in failures are forgiven
  // (other addresses' failures stay counted).
  attemptGuard(c, deps, input.email, 'sign-in').succeeded()
  deps.logger.info({ reqId: c.var.requestId }, 'password reset')
  return c.json({ message: 'Password reset successfully' } satisfies MessageResult)
}

export async function changePassword(deps: RouteDeps, c: Json<typeof ChangePasswordInput>) {
  const input = c.req.valid('json')
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
  await replacePassword(deps.db, { id: user.id, sessionId: session.id }, passwordHash, deps.clock())
  deps.logger.info({ reqId: c.var.requestId, userId: user.id }, 'password changed')
  return c.json({ message: 'Password changed successfully' } satisfies MessageResult)
}

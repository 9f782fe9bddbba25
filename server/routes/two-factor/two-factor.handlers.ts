/**
 * 2FA setup and removal for the signed-in user: generate (a pending secret, its QR code and
 * ten backup codes), verify (activates the pending secret) and disable (password or code).
 */
import type { Context } from 'hono'
import QRCode from 'qrcode'
import type * as v from 'valibot'
import {
  contractMessages,
  type Disable2faInput,
  type Generate2faInput,
  type MessageResult,
  type Verify2faInput,
} from '../../../contract/index.ts'
import { attemptGuard } from '../../http/attempt-guard.ts'
import type { AppEnv, RouteDeps } from '../../http/context.ts'
import { HttpError } from '../../http/errors.ts'
import { verifyPassword } from '../../services/passwords.ts'

const EXPOSED_HEADERS = 'X-Backup-Codes, X-TOTP-Secret'

type Json<S extends v.GenericSchema> = Context<AppEnv, string, { out: { json: v.InferOutput<S> } }>

const ownEmail = (email: string | undefined, userEmail: string) => {
  if (email !== undefined && email !== userEmail) {
    throw new HttpError(403, 'The e-mail does not match the signed-in user')
  }
}

export async function generate({ logger, twoFactor }: RouteDeps, c: Json<typeof Generate2faInput>) {
  const { email } = c.req.valid('json')
  const user = c.var.user
  ownEmail(email, user.email)
  // Replacing an active secret must go through disable-2fa, which asks for the password
  // or a code: a borrowed session alone cannot move the second factor to another phone.
  if (user.is2faEnabled) {
    throw new HttpError(409, contractMessages.twoFactorAlreadyEnabled)
  }
  const setup = await twoFactor.beginSetup(user)
  const png = await QRCode.toBuffer(setup.uri, {
    type: 'png',
    errorCorrectionLevel: 'M',
    margin: 2,
    width: 256,
  })
  logger.info({ reqId: c.var.requestId, userId: user.id }, '2FA setup started')
  c.header('Content-Type', 'image/png')
  c.header('X-Backup-Codes', JSON.stringify(setup.backupCodes))
  c.header('X-TOTP-Secret', setup.secret)
  c.header('Access-Control-Expose-Headers', EXPOSED_HEADERS)
  return c.body(new Uint8Array(png), 200)
}

export async function verify(deps: RouteDeps, c: Json<typeof Verify2faInput>) {
  const input = c.req.valid('json')
  const user = c.var.user
  ownEmail(input.email, user.email)
  const guard = attemptGuard(c, deps, user.email, 'signed-in')
  guard.check()
  // The password is optional here (the session already proves who this is), but a wrong
  // one is still a failure. Setup is confirmed with the authenticator app, never a backup code.
  const passwordOk = input.password === '' || (await verifyPassword(user.passwordHash ?? '', input.password))
  const ok =
    passwordOk && !input.use_backup_code && (await deps.twoFactor.completeSetup(user.id, input.token))
  if (!ok) {
    guard.failed()
    throw new HttpError(400, contractMessages.invalidVerificationCode)
  }
  deps.logger.info({ reqId: c.var.requestId, userId: user.id }, '2FA enabled')
  return c.json({ message: 'Two-factor authentication enabled' } satisfies MessageResult)
}

export async function disable(deps: RouteDeps, c: Json<typeof Disable2faInput>) {
  const input = c.req.valid('json')
  const user = c.var.user
  if (input.password === '' && input.token === '') {
    throw new HttpError(400, contractMessages.invalidInput, [
      { field: 'password', message: contractMessages.twoFactorDisableNeedsProof },
    ])
  }
  const guard = attemptGuard(c, deps, user.email, 'signed-in')
  guard.check()
  const ok =
    input.password !== ''
      ? await verifyPassword(user.passwordHash ?? '', input.password)
      : user.is2faEnabled &&
        (await deps.twoFactor.verify(user.id, { token: input.token, useBackupCode: input.use_backup_code }))
  if (!ok) {
    guard.failed()
    throw new HttpError(401, contractMessages.invalidPasswordOrCode)
  }
  await deps.twoFactor.disable(user.id)
  deps.logger.info({ reqId: c.var.requestId, userId: user.id }, '2FA disabled')
  return c.json({ message: 'Two-factor authentication disabled' } satisfies MessageResult)
}

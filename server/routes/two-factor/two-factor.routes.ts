/** 2FA setup and removal for the signed-in user (`/auth/generate-2fa`, `verify-2fa`, `disable-2fa`). */
import { Hono } from 'hono'
import { every } from 'hono/combine'
import { Disable2faInput, Generate2faInput, MessageResult, Verify2faInput } from '../../../contract/index.ts'
import { requireUser } from '../../http/auth.ts'
import { refuseApiToken } from '../../http/bearer.ts'
import type { AppEnv, RouteDeps } from '../../http/context.ts'
import { binary, describe, json, validate } from '../../http/openapi.ts'
import { disable, generate, verify } from './two-factor.handlers.ts'

const tags = ['Two-factor authentication']

export function twoFactorRoutes(deps: RouteDeps) {
  // 2FA belongs to the person at the keyboard: never set up or removed with an API token.
  const signedIn = every(requireUser(deps.sessions), refuseApiToken)
  return new Hono<AppEnv>()
    .post(
      '/auth/generate-2fa',
      describe({
        tags,
        summary:
          'Starts 2FA setup: a QR code; the backup codes in X-Backup-Codes, the secret in X-TOTP-Secret',
        responses: { 200: binary('image/png', 'The QR code of the otpauth:// URI') },
      }),
      signedIn,
      validate('json', Generate2faInput),
      (c) => generate(deps, c),
    )
    .post(
      '/auth/verify-2fa',
      describe({
        tags,
        summary: 'Activates 2FA with a code from the app',
        responses: { 200: json(MessageResult) },
      }),
      signedIn,
      validate('json', Verify2faInput),
      (c) => verify(deps, c),
    )
    .post(
      '/auth/disable-2fa',
      describe({ tags, summary: 'Removes 2FA (password or code)', responses: { 200: json(MessageResult) } }),
      signedIn,
      validate('json', Disable2faInput),
      (c) => disable(deps, c),
    )
}

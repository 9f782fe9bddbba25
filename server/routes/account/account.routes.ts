/** Account activation, password reset by e-mail link, and password change (`/auth/…`). */
import { Hono } from 'hono'
import {
  ChangePasswordInput,
  MessageResult,
  ResetConfirmInput,
  ResetRequestInput,
  ValidateMailInput,
} from '../../../contract/index.ts'
import { requireUser } from '../../http/auth.ts'
import { refuseApiToken } from '../../http/bearer.ts'
import type { AppEnv, RouteDeps } from '../../http/context.ts'
import { describe, json, validate } from '../../http/openapi.ts'
import { changePassword, confirmReset, requestReset, validateMail } from './account.handlers.ts'

const tags = ['Account']
const message = { 200: json(MessageResult) }

export function accountRoutes(deps: RouteDeps) {
  return new Hono<AppEnv>()
    .post(
      '/auth/validate-mail',
      describe({ tags, summary: 'Activates an invited account and sets its password', responses: message }),
      validate('json', ValidateMailInput),
      (c) => validateMail(deps, c),
    )
    .post(
      '/auth/password/reset',
      describe({
        tags,
        summary: 'Sends a password reset link (the same answer for any e-mail)',
        responses: message,
      }),
      validate('json', ResetRequestInput),
      (c) => requestReset(deps, c),
    )
    .post(
      '/auth/password/reset/confirm',
      describe({ tags, summary: 'Sets a new password with a reset link', responses: message }),
      validate('json', ResetConfirmInput),
      (c) => confirmReset(deps, c),
    )
    .post(
      '/auth/password/change',
      describe({
        tags,
        summary: "Changes the signed-in user's password (ends their other sessions)",
        responses: message,
      }),
      requireUser(deps.sessions),
      refuseApiToken,
      validate('json', ChangePasswordInput),
      (c) => changePassword(deps, c),
    )
}

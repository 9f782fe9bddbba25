/** The signed-in user's settings (`/settings/me`, `/settings/two-factor-advice`). */
import { Hono } from 'hono'
import { TwoFactorAdvice, UserSettings } from '../../../contract/index.ts'
import { requireUser } from '../../http/auth.ts'
import type { AppEnv, RouteDeps } from '../../http/context.ts'
import { describe, json, validate } from '../../http/openapi.ts'
import { changeLanguage, changeTwoFactorAdvice } from './settings.handlers.ts'

const tags = ['Settings']

export function settingsRoutes(deps: RouteDeps) {
  return new Hono<AppEnv>()
    .use('/settings/*', requireUser(deps.sessions))
    .get(
      '/settings/me',
      describe({ tags, summary: "The user's language", responses: { 200: json(UserSettings) } }),
      (c) => c.json({ language: c.var.user.language }),
    )
    .put(
      '/settings/me',
      describe({ tags, summary: "Changes the user's language", responses: { 200: json(UserSettings) } }),
      validate('json', UserSettings),
      (c) => changeLanguage(deps, c),
    )
    .put(
      '/settings/two-factor-advice',
      describe({
        tags,
        summary: 'Whether to keep advising 2FA setup at sign-in',
        responses: { 200: json(TwoFactorAdvice) },
      }),
      validate('json', TwoFactorAdvice),
      (c) => changeTwoFactorAdvice(deps, c),
    )
}

/** Sign-in, sign-out, the session and the first platform administrator (`/auth/*`). */
import { Hono } from 'hono'
import {
  Complete2faInput,
  CreateFirstAdminInput,
  LoginInput,
  LoginResult,
  MessageResult,
  SessionAnswer,
  SetupStatus,
  User,
} from '../../../contract/index.ts'
import { requireUser } from '../../http/auth.ts'
import type { AppEnv, RouteDeps } from '../../http/context.ts'
import { describe, json, validate } from '../../http/openapi.ts'
import { hasSaasAdmin, toUserView } from '../../services/users.ts'
import { completeTwoFactorLogin, createFirstSaasAdmin, login, logout, session } from './auth.handlers.ts'

const tags = ['Authentication']
const message = { 200: json(MessageResult) }

export function authRoutes(deps: RouteDeps) {
  const { db, sessions } = deps
  return new Hono<AppEnv>()
    .post(
      '/auth/login',
      describe({
        tags,
        summary: 'Signs in (the session cookie unless a second step is needed)',
        responses: { 200: json(LoginResult) },
      }),
      validate('json', LoginInput),
      (c) => login(deps, c),
    )
    .post(
      '/auth/complete-2fa-login',
      describe({ tags, summary: 'Signs in with the second factor', responses: message }),
      validate('json', Complete2faInput),
      (c) => completeTwoFactorLogin(deps, c),
    )
    .post('/auth/logout', describe({ tags, summary: 'Signs out', responses: message }), (c) =>
      logout(deps, c),
    )
    .get(
      '/auth/logged-in',
      describe({ tags, summary: 'The signed-in user (401 otherwise)', responses: { 200: json(User) } }),
      requireUser(sessions),
      async (c) => c.json(await toUserView(db, c.var.user)),
    )
    .get(
      '/auth/session',
      describe({ tags, summary: 'The signed-in user, or null', responses: { 200: json(SessionAnswer) } }),
      (c) => session(deps, c),
    )
    .get(
      '/auth/setup-status',
      describe({
        tags,
        summary: 'Whether the first administrator is still to be created',
        responses: { 200: json(SetupStatus) },
      }),
      async (c) => c.json({ needs_first_admin: !(await hasSaasAdmin(db)) }),
    )
    .post(
      '/auth/create-first-saas-admin',
      describe({
        tags,
        summary: 'Creates the first platform administrator',
        responses: { 201: json(MessageResult, 'Created') },
      }),
      validate('json', CreateFirstAdminInput),
      (c) => createFirstSaasAdmin(deps, c),
    )
}

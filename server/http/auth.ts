import { createMiddleware } from 'hono/factory'
import { contractMessages } from '../../contract/index.ts'
import type { SessionService } from '../services/sessions.ts'
import type { AppEnv } from './context.ts'
import { HttpError } from './errors.ts'

/**
 * Loads the session and its (enabled) user into `c.var`; 401 otherwise. A bearer request was
 * authenticated by its token already (`http/bearer.ts`): its cookie, if any, is not read.
 */
export function requireUser(sessions: SessionService) {
  return createMiddleware<AppEnv>(async (c, next) => {
    // Already authenticated: by a bearer token, or by an outer `requireUser` on the same path.
    if (c.var.apiToken || c.var.user) return next()
    const resolved = await sessions.resolveCookie(c)
    if (!resolved) throw new HttpError(401, contractMessages.notAuthenticated)
    c.set('user', resolved.user)
    c.set('session', resolved.session)
    await next()
  })
}

const SAAS_ADMIN_ONLY = 'Only a platform administrator (SAAS_ADMIN) can do this'

/** After `requireUser`: 403 unless the user is a platform administrator. */
export const requireSaasAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.user.role !== 'SAAS_ADMIN') throw new HttpError(403, SAAS_ADMIN_ONLY)
  await next()
})

import { eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { TwoFactorAdvice, UserSettings } from '../../contract/index.ts'
import { users } from '../db/schema.ts'
import { requireUser } from '../http/auth.ts'
import type { AppEnv, RouteDeps } from '../http/context.ts'
import { parse, readJson } from '../http/errors.ts'

export function settingsRoutes({ db, sessions, clock }: RouteDeps) {
  return new Hono<AppEnv>()
    .use('/settings/*', requireUser(sessions))
    .get('/settings/me', (c) => c.json({ language: c.var.user.language }))
    .put('/settings/me', async (c) => {
      const { language } = parse(UserSettings, await readJson(c))
      await db.update(users).set({ language, updatedAt: clock() }).where(eq(users.id, c.var.user.id))
      return c.json({ language })
    })
    .put('/settings/two-factor-advice', async (c) => {
      const { advice } = parse(TwoFactorAdvice, await readJson(c))
      await db
        .update(users)
        .set({ twoFactorAdvice: advice, updatedAt: clock() })
        .where(eq(users.id, c.var.user.id))
      return c.json({ advice })
    })
}

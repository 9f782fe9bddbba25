/** The signed-in user's language and whether the app still advises setting up 2FA. */
import type { Context } from 'hono'
import type * as v from 'valibot'
import type { TwoFactorAdvice, UserSettings } from '../../../contract/index.ts'
import type { AppEnv, RouteDeps } from '../../http/context.ts'
import { setLanguage, setTwoFactorAdvice } from './settings.queries.ts'

type Json<S extends v.GenericSchema> = Context<AppEnv, string, { out: { json: v.InferOutput<S> } }>

export async function changeLanguage({ db, clock }: RouteDeps, c: Json<typeof UserSettings>) {
  const { language } = c.req.valid('json')
  await setLanguage(db, c.var.user.id, language, clock())
  return c.json({ language })
}

export async function changeTwoFactorAdvice({ db, clock }: RouteDeps, c: Json<typeof TwoFactorAdvice>) {
  const { advice } = c.req.valid('json')
  await setTwoFactorAdvice(db, c.var.user.id, advice, clock())
  return c.json({ advice })
}

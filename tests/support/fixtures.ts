/** Values several machine and view tests share. */
import type { LoginResult, User } from '../../contract'

export const ada: User = {
  id: 1,
  email: 'ada@example.com',
  name: 'Ada',
  surname: 'Lovelace',
  role: 'SAAS_ADMIN',
  validated: true,
  enabled: true,
  is_2fa_enabled: false,
  company_id: null,
  company_role: null,
  companies: [],
  two_factor_advice: true,
}

/** An error as the API client raises it. */
export const failure = (status: number, message: string) => Object.assign(new Error(message), { status })

export const loginResult = (r: Partial<LoginResult>): LoginResult => ({
  requires_2fa: false,
  should_setup_2fa: false,
  ...r,
})

/** The done / error events of an invoked actor, as the graph walks them. */
export const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output })
export const error = (id: string, e: unknown) => ({ type: `xstate.error.actor.${id}`, error: e })

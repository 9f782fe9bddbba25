import type { Http } from './http'
import {
  type CreateFirstAdminInput,
  type LoginInput,
  LoginResult,
  MessageResult,
  SetupStatus,
  User,
} from './schemas'

export function createAuthApi(http: Http) {
  return {
    login: (input: LoginInput) => http.json('auth/login', LoginResult, { method: 'post', json: input }),
    logout: () => http.send('auth/logout', { method: 'post', json: {} }),
    loggedIn: () => http.json('auth/logged-in', User),
    setupStatus: () => http.json('auth/setup-status', SetupStatus),
    createFirstAdmin: (input: CreateFirstAdminInput) =>
      http.json('auth/create-first-saas-admin', MessageResult, { method: 'post', json: input }),
  }
}
export type AuthApi = ReturnType<typeof createAuthApi>

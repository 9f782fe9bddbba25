import * as v from 'valibot'
import {
  BackupCodes,
  type CreateFirstAdminInput,
  type LoginInput,
  LoginResult,
  MessageResult,
  SessionAnswer,
  SetupStatus,
  User,
} from '../../contract'
import { ApiError, type Http } from './http'

/** What /auth/generate-2fa gives: the QR (PNG, as a data URL), ten backup codes and the secret. */
export type TwoFactorEnrollment = { qrDataUrl: string; backupCodes: string[]; secret: string }

async function toDataUrl(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer())
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return `data:${blob.type || 'image/png'};base64,${btoa(binary)}`
}

export function createAuthApi(http: Http) {
  const post = (path: string, json: unknown) => http.json(path, MessageResult, { method: 'post', json })
  return {
    login: (input: LoginInput) => http.json('auth/login', LoginResult, { method: 'post', json: input }),
    logout: () => http.send('auth/logout', { method: 'post', json: {} }),
    loggedIn: () => http.json('auth/logged-in', User),
    /** Public: the user or null, so that a signed-out visitor's console shows no 401. */
    session: () => http.json('auth/session', SessionAnswer),
    setupStatus: () => http.json('auth/setup-status', SetupStatus),
    createFirstAdmin: (input: CreateFirstAdminInput) => post('auth/create-first-saas-admin', input),

    completeTwoFactorLogin: (input: LoginInput & { token: string; useBackupCode: boolean }) =>
      post('auth/complete-2fa-login', {
        email: input.email,
        password: input.password,
        token: input.token,
        use_backup_code: input.useBackupCode,
      }),
    async generateTwoFactor(email: string): Promise<TwoFactorEnrollment> {
      const response = await http.raw('auth/generate-2fa', { method: 'post', json: { email } })
      const codes = v.safeParse(BackupCodes, JSON.parse(response.headers.get('x-backup-codes') ?? 'null'))
      const secret = response.headers.get('x-totp-secret')
      if (!codes.success || !secret) throw new ApiError(500, 'Failed to generate 2FA QR code')
      return { qrDataUrl: await toDataUrl(await response.blob()), backupCodes: codes.output, secret }
    },
    verifyTwoFactor: (input: { email: string; token: string }) =>
      post('auth/verify-2fa', {
        email: input.email,
        password: '',
        token: input.token,
        use_backup_code: false,
      }),
    disableTwoFactor: (input: { password?: string; token?: string; useBackupCode?: boolean }) =>
      post('auth/disable-2fa', {
        ...(input.password ? { password: input.password } : {}),
        ...(input.token ? { token: input.token, use_backup_code: input.useBackupCode ?? false } : {}),
      }),

    validateMail: (input: { email: string; token: string; password: string }) =>
      post('auth/validate-mail', {
        email: input.email,
        validation_token: input.token,
        password: input.password,
      }),
    requestPasswordReset: (input: { email: string }) => post('auth/password/reset', { email: input.email }),
    confirmPasswordReset: (input: { email: string; token: string; password: string }) =>
      post('auth/password/reset/confirm', {
        email: input.email,
        token: input.token,
        new_password: input.password,
      }),
    changePassword: (input: { currentPassword: string; newPassword: string }) =>
      post('auth/password/change', {
        current_password: input.currentPassword,
        new_password: input.newPassword,
      }),
  }
}

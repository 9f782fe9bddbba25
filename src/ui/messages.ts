/**
 * Translations of the codes machines and schemas carry: notices (toasts) and validation messages.
 * Schemas keep the specification's English text as the message; this table translates it.
 */

import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { SessionNotice } from '../machines/session.machine'
import { i18n } from './i18n'

export const sessionNotices: Record<
  SessionNotice,
  { kind: 'success' | 'error' | 'info'; message: MessageDescriptor }
> = {
  loggedIn: { kind: 'success', message: msg`Logged in successfully` },
  loggedOut: { kind: 'success', message: msg`Logged out successfully` },
  logoutFailed: { kind: 'error', message: msg`Logout failed` },
  twoFactorRequired: { kind: 'info', message: msg`2FA verification required` },
  twoFactorAdvised: {
    kind: 'info',
    message: msg`For enhanced security, we recommend setting up two-factor authentication`,
  },
  userFetchFailed: { kind: 'error', message: msg`Authentication successful but failed to get user data` },
  sessionExpired: { kind: 'info', message: msg`Your session has ended. Please sign in again.` },
}

const known: Record<string, MessageDescriptor> = {
  'Please enter a valid email address': msg`Please enter a valid email address`,
  'Password is required': msg`Password is required`,
  'Password is too long': msg`Password is too long`,
  'Password must be at least 8 characters': msg`Password must be at least 8 characters`,
  'Password must be at most 128 characters': msg`Password must be at most 128 characters`,
  'Password must contain at least one uppercase letter': msg`Password must contain at least one uppercase letter`,
  'Password must contain at least one lowercase letter': msg`Password must contain at least one lowercase letter`,
  'Password must contain at least one number': msg`Password must contain at least one number`,
  "Passwords don't match": msg`Passwords don't match`,
  'Name must be at least 2 characters': msg`Name must be at least 2 characters`,
  'Surname must be at least 2 characters': msg`Surname must be at least 2 characters`,
  // Server messages the UI may show as they come.
  'Too many attempts. Try again later.': msg`Too many attempts. Try again later.`,
  'Request timeout': msg`Request timeout`,
  'Request failed': msg`Request failed`,
  'Unknown error occurred': msg`Unknown error occurred`,
  'Internal server error': msg`Internal server error`,
  'Failed to fetch': msg`Cannot reach the server. Check your connection.`,
  'A platform administrator already exists': msg`A platform administrator already exists`,
}

/** Translates a schema or server message when it is one we know, else shows it as it is. */
export function translateMessage(message: string): string {
  const descriptor = known[message]
  return descriptor ? i18n._(descriptor) : message
}

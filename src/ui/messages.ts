/**
 * Translations of the flows' notices (toasts), by notice code.
 */

import type { MessageDescriptor } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'
import type { TwoFactorSetupNotice } from '../machines/account/two-factor-setup.machine'
import type { DashboardNotice } from '../machines/dashboard/row-actions.machine'
import type { SessionNotice } from '../machines/session/session.machine'
import type { AccountNotice, AdminNotice, UploadNoticeParams } from '../machines/shared/deps'
import type { CompanySelectionNotice } from '../machines/shell/company-selection.machine'
import { i18n } from './i18n'
import { codeText, messageText } from './message-texts'

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

type Notice = { kind: 'success' | 'error' | 'info'; message: MessageDescriptor }

export const twoFactorSetupNotices: Record<TwoFactorSetupNotice, Notice> = {
  setupSkipped: {
    kind: 'info',
    message: msg`Two-factor authentication was skipped. You can set it up later in Settings.`,
  },
  codesCopied: { kind: 'success', message: msg`Backup codes copied to the clipboard` },
  copyFailed: {
    kind: 'error',
    message: msg`The backup codes could not be copied. Please copy them by hand.`,
  },
  setupComplete: { kind: 'success', message: msg`2FA has been successfully set up!` },
  profileUpdated: { kind: 'success', message: msg`User profile updated with 2FA enabled` },
  generateFailed: { kind: 'error', message: msg`Failed to generate 2FA QR code` },
}

/** Toasts of the account flows that are not a machine's own notice. */
export const accountNotices: Record<AccountNotice, Notice> = {
  invalidTwoFactorAttempt: { kind: 'error', message: msg`Invalid authentication attempt` },
  invalidValidationLink: { kind: 'error', message: msg`Invalid validation link` },
  invalidResetLink: { kind: 'error', message: msg`Invalid password reset link` },
  accountValidated: { kind: 'success', message: msg`Account validated successfully! You can now login.` },
  accountValidationFailed: { kind: 'error', message: msg`Account validation failed` },
  resetRequestFailed: { kind: 'error', message: msg`Failed to send reset instructions` },
  passwordReset: { kind: 'success', message: msg`Your password has been reset. You can now sign in.` },
  passwordResetFailed: { kind: 'error', message: msg`Password reset failed` },
  passwordChanged: { kind: 'success', message: msg`Password changed successfully` },
  passwordChangeFailed: {
    kind: 'error',
    message: msg`An error occurred while changing your password. Please try again later.`,
  },
  newPasswordsMismatch: { kind: 'error', message: msg`New passwords do not match` },
  twoFactorDisabled: { kind: 'success', message: msg`Two-factor authentication has been disabled` },
  twoFactorDisableFailed: { kind: 'error', message: msg`Two-factor authentication could not be disabled` },
}

/** Toasts of the administration area: its failures and its success messages. */
export const adminNotices: Record<AdminNotice, Notice> = {
  companiesFetchFailed: { kind: 'error', message: msg`Failed to fetch companies` },
  companyFetchFailed: { kind: 'error', message: msg`Failed to fetch company` },
  companyCreated: { kind: 'success', message: msg`Company created successfully` },
  companyCreateFailed: { kind: 'error', message: msg`Failed to create company` },
  companyUpdated: { kind: 'success', message: msg`Company updated successfully` },
  companyUpdateFailed: { kind: 'error', message: msg`Failed to update company` },
  companyEnabled: { kind: 'success', message: msg`Company enabled successfully` },
  companyDisabled: { kind: 'success', message: msg`Company disabled successfully` },
  companyStatusFailed: { kind: 'error', message: msg`Failed to update company status` },
  ownCompanyStatus: { kind: 'error', message: msg`You cannot deactivate your own company` },
  logoUploaded: { kind: 'success', message: msg`Logo uploaded successfully` },
  logoUploadFailed: { kind: 'error', message: msg`Failed to upload logo` },
  memberAdded: { kind: 'success', message: msg`User added to the company` },
  memberAddFailed: { kind: 'error', message: msg`Failed to add user to the company` },
  memberRemoveFailed: { kind: 'error', message: msg`Failed to remove user from the company` },
  usersFetchFailed: { kind: 'error', message: msg`Failed to fetch users` },
  userEnabled: { kind: 'success', message: msg`User enabled successfully` },
  userDisabled: { kind: 'success', message: msg`User disabled successfully` },
  userStatusFailed: { kind: 'error', message: msg`Failed to update user status` },
  ownAccountStatus: { kind: 'error', message: msg`You cannot disable your own account` },
  userUpdated: { kind: 'success', message: msg`User updated successfully` },
  userUpdateFailed: { kind: 'error', message: msg`Failed to update user` },
  userInvited: { kind: 'success', message: msg`User invited successfully` },
  inviteFailed: { kind: 'error', message: msg`Failed to invite user` },
}

/** A notice's text: the server's message when it sent one we can show, else ours. */
export function noticeText(notice: Notice, serverMessage?: string): string {
  return serverMessage ? messageText(serverMessage) : i18n._(notice.message)
}

export function companyNoticeText(notice: CompanySelectionNotice, name = ''): string {
  switch (notice) {
    case 'companyChanged':
      return i18n._(msg`Switched to ${name}`)
    case 'companyNotFound':
      return i18n._(msg`Company not found`)
    case 'companiesFailed':
      return i18n._(msg`Failed to fetch your companies`)
  }
}

/** The upload toasts: start (one file by name, or a count), sent, processed, failed with the reason. */
export function uploadNoticeText(p: UploadNoticeParams): {
  kind: 'success' | 'error' | 'info'
  text: string
} {
  const fileName = p.fileName ?? ''
  switch (p.notice) {
    case 'started':
      return {
        kind: 'info',
        text:
          p.count === undefined
            ? i18n._(msg`${fileName} added to upload queue`)
            : plural(p.count, {
                one: '# file added to upload queue',
                other: '# files added to upload queue',
              }),
      }
    case 'sent':
      return { kind: 'success', text: i18n._(msg`${fileName} uploaded successfully`) }
    case 'processed':
      return { kind: 'success', text: i18n._(msg`${fileName} processed successfully`) }
    case 'failed': {
      const reason = p.reason ? messageText(p.reason) : codeText('uploadFailed')
      return { kind: 'error', text: i18n._(msg`${fileName} failed: ${reason}`) }
    }
    case 'noFiles':
      return { kind: 'error', text: i18n._(msg`Please select at least one file to upload`) }
    case 'selectCompanyFirst':
      return { kind: 'error', text: i18n._(msg`Please select a company first`) }
  }
}

export function dashboardNoticeText(notice: DashboardNotice, value = ''): string {
  switch (notice) {
    case 'invalidDocumentId':
      return i18n._(msg`Cannot open details: Invalid document ID`)
    case 'invalidDocumentIdFormat':
      return i18n._(msg`Cannot open details: Invalid document ID format: ${value}`)
    case 'documentDeleted':
      return i18n._(msg`Document deleted successfully`)
    case 'deleteFailed':
      return i18n._(msg`Error deleting the document. Please try again.`)
  }
}

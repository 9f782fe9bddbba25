/**
 * The browser's text of every notice, a Lingui message keyed by the notice's code (one table per
 * flow): a code without a text, or a text for no code, fails the type check.
 */
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { NoticeCode } from '../machines/shared/notice'

type Texts<Flow extends string> = Record<Extract<NoticeCode, `${Flow}.${string}`>, MessageDescriptor>

const sessionTexts: Texts<'session'> = {
  'session.loggedIn': msg`Logged in successfully`,
  'session.loggedOut': msg`Logged out successfully`,
  'session.logoutFailed': msg`Logout failed`,
  'session.twoFactorRequired': msg`2FA verification required`,
  'session.twoFactorAdvised': msg`For enhanced security, we recommend setting up two-factor authentication`,
  'session.userFetchFailed': msg`Authentication successful but failed to get user data`,
  'session.sessionExpired': msg`Your session has ended. Please sign in again.`,
}

const twoFactorSetupTexts: Texts<'twoFactorSetup'> = {
  'twoFactorSetup.setupSkipped': msg`Two-factor authentication was skipped. You will not be asked again; you can set it up or ask to be reminded in Settings.`,
  'twoFactorSetup.codesCopied': msg`Backup codes copied to the clipboard`,
  'twoFactorSetup.copyFailed': msg`The backup codes could not be copied. Please copy them by hand.`,
  'twoFactorSetup.setupComplete': msg`2FA has been successfully set up!`,
  'twoFactorSetup.profileUpdated': msg`User profile updated with 2FA enabled`,
  'twoFactorSetup.generateFailed': msg`Failed to generate 2FA QR code`,
}

const accountTexts: Texts<'account'> = {
  'account.invalidTwoFactorAttempt': msg`Invalid authentication attempt`,
  'account.invalidValidationLink': msg`Invalid validation link`,
  'account.invalidResetLink': msg`Invalid password reset link`,
  'account.accountValidated': msg`Account validated successfully! You can now login.`,
  'account.accountValidationFailed': msg`Account validation failed`,
  'account.resetRequestFailed': msg`Failed to send reset instructions`,
  'account.passwordReset': msg`Your password has been reset. You can now sign in.`,
  'account.passwordResetFailed': msg`Password reset failed`,
  'account.passwordChanged': msg`Password changed successfully`,
  'account.passwordChangeFailed': msg`An error occurred while changing your password. Please try again later.`,
  'account.newPasswordsMismatch': msg`New passwords do not match`,
  'account.twoFactorDisabled': msg`Two-factor authentication has been disabled`,
  'account.twoFactorDisableFailed': msg`Two-factor authentication could not be disabled`,
  'account.twoFactorAdviceSaved': msg`Your choice has been saved`,
  'account.twoFactorAdviceFailed': msg`Your choice could not be saved`,
}

const adminTexts: Texts<'admin'> = {
  'admin.companiesFetchFailed': msg`Failed to fetch companies`,
  'admin.companyFetchFailed': msg`Failed to fetch company`,
  'admin.companyCreated': msg`Company created successfully`,
  'admin.companyCreateFailed': msg`Failed to create company`,
  'admin.companyUpdated': msg`Company updated successfully`,
  'admin.companyUpdateFailed': msg`Failed to update company`,
  'admin.companyEnabled': msg`Company enabled successfully`,
  'admin.companyDisabled': msg`Company disabled successfully`,
  'admin.companyStatusFailed': msg`Failed to update company status`,
  'admin.ownCompanyStatus': msg`You cannot deactivate your own company`,
  'admin.logoUploaded': msg`Logo uploaded successfully`,
  'admin.logoUploadFailed': msg`Failed to upload logo`,
  'admin.memberAdded': msg`User added to the company`,
  'admin.memberAddFailed': msg`Failed to add user to the company`,
  'admin.memberRemoveFailed': msg`Failed to remove user from the company`,
  'admin.usersFetchFailed': msg`Failed to fetch users`,
  'admin.userEnabled': msg`User enabled successfully`,
  'admin.userDisabled': msg`User disabled successfully`,
  'admin.userStatusFailed': msg`Failed to update user status`,
  'admin.ownAccountStatus': msg`You cannot disable your own account`,
  'admin.userUpdated': msg`User updated successfully`,
  'admin.userUpdateFailed': msg`Failed to update user`,
  'admin.userInvited': msg`User invited successfully`,
  'admin.inviteFailed': msg`Failed to invite user`,
}

const apiTokensTexts: Texts<'apiTokens'> = {
  'apiTokens.copied': msg`API token copied to the clipboard`,
  'apiTokens.copyFailed': msg`The token could not be copied. Please copy it by hand.`,
  'apiTokens.revoked': msg`API token revoked`,
  'apiTokens.revokeFailed': msg`Failed to revoke the API token`,
}

const shellTexts: Texts<'company' | 'language' | 'companyUsers'> = {
  'company.companyChanged': msg({ message: 'Switched to {name}' }),
  'company.companyNotFound': msg`Company not found`,
  'company.companiesFailed': msg`Failed to fetch your companies`,
  'language.changeFailed': msg`The language could not be changed. Please try again.`,
  'companyUsers.fetchFailed': msg`Failed to fetch company users`,
}

const dashboardTexts: Texts<'dashboard' | 'logs'> = {
  'dashboard.invalidDocumentId': msg`Cannot open details: Invalid document ID`,
  'dashboard.invalidDocumentIdFormat': msg({
    message: 'Cannot open details: Invalid document ID format: {value}',
  }),
  'dashboard.documentDeleted': msg`Document deleted successfully`,
  'dashboard.reviewEnd': msg`That was the last document of the list`,
  'dashboard.deleteFailed': msg`Error deleting the document. Please try again.`,
  'dashboard.invoicesExported': msg`The invoices export is downloading`,
  'dashboard.expensesExported': msg`The expenses export is downloading`,
  'logs.fetchFailed': msg`Failed to fetch logs`,
  'logs.searchFailed': msg`Failed to search logs`,
}

/** The upload toasts: start (one file by name, or a count), sent, processed, failed with the reason. */
const uploadTexts: Texts<'upload'> = {
  'upload.started': msg({ message: '{fileName} added to upload queue' }),
  'upload.startedMany': msg({
    message: '{0, plural, one {# file added to upload queue} other {# files added to upload queue}}',
  }),
  'upload.sent': msg({ message: '{fileName} uploaded successfully' }),
  'upload.processed': msg({ message: '{fileName} processed successfully' }),
  'upload.failed': msg({ message: '{fileName} failed: {reason}' }),
  'upload.noFiles': msg`Please select at least one file to upload`,
  'upload.selectCompanyFirst': msg`Please select a company first`,
}

/** The invoice / expense detail dialog's toasts. */
const detailTexts: Texts<'detail'> = {
  'detail.invoiceLoadFailed': msg({ message: 'Invoice error: {message}' }),
  'detail.invoiceDetailsUnavailable': msg`Failed to load invoice details`,
  'detail.invoicePreviewFailed': msg`Could not load invoice PDF`,
  'detail.qualityFailed': msg`Warning: Could not load quality data`,
  'detail.invoiceResubmitted': msg`Invoice resubmitted with new PDF`,
  'detail.expenseResubmitted': msg`Expense resubmitted with new PDF`,
  'detail.invoiceResubmitFailed': msg`Failed to resubmit invoice. Please try again.`,
  'detail.expenseResubmitFailed': msg`Failed to resubmit expense. Please try again.`,
  'detail.invoiceReuploaded': msg`Invoice reuploaded as expense`,
  'detail.expenseReuploaded': msg`Expense reuploaded as invoice`,
  'detail.invoiceReuploadFailed': msg`Failed to reupload as expense. Please try again.`,
  'detail.expenseReuploadFailed': msg`Failed to reupload as invoice. Please try again.`,
  'detail.invoiceStored': msg({ message: 'Invoice uploaded to SharePoint in {category} category' }),
  'detail.expenseStored': msg({ message: 'Expense uploaded to SharePoint in {category} category' }),
  'detail.storeFailed': msg`Failed to upload to SharePoint. Please try again.`,
  'detail.missingReuploadData': msg`Missing required data for reupload`,
  'detail.missingStoreData': msg`Missing required data for SharePoint upload`,
  'detail.correctionCompleted': msg`Corrections saved: the document is now complete`,
  'detail.correctionHasErrors': msg`Corrections saved, but the document still has errors`,
  'detail.correctionSaved': msg`Corrections saved`,
  'detail.correctionRefused': msg({ message: 'The corrections were refused: {message}' }),
  'detail.correctionWhileProcessing': msg`The document is still being processed. Try again in a moment.`,
  'detail.correctionFailed': msg({ message: 'The corrections could not be saved: {message}' }),
  'detail.confirmed': msg`Confirmed: the document is out of the review queue`,
  'detail.confirmFailed': msg({ message: 'The document could not be confirmed: {message}' }),
  'detail.reprocessed': msg`The document is being read again. What you corrected is kept.`,
  'detail.reprocessFailed': msg({ message: 'The document could not be read again: {message}' }),
}

export const noticeTexts: Record<NoticeCode, MessageDescriptor> = {
  ...sessionTexts,
  ...twoFactorSetupTexts,
  ...accountTexts,
  ...adminTexts,
  ...shellTexts,
  ...apiTokensTexts,
  ...dashboardTexts,
  ...uploadTexts,
  ...detailTexts,
}

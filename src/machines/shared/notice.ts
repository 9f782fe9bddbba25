/**
 * What a flow tells the user (a toast in the app): one shape for every flow. `code` names the
 * notice, flow first (`admin.companyCreated`); the browser's text for each code is a Lingui
 * message keyed by it (`src/ui/notice-texts.ts`), so a code without a text fails the type check.
 */
import type { TwoFactorSetupNotice } from '../account/two-factor-setup.machine'
import type { AdminCompaniesNotice } from '../admin/admin-companies.machine'
import type { AdminUsersNotice } from '../admin/admin-users.machine'
import type { CompanyEditNotice } from '../admin/company-edit.machine'
import type { InviteUserNotice } from '../admin/invite-user.machine'
import type { ApiTokensNotice } from '../api-tokens/api-tokens.machine'
import type { DashboardNotice } from '../dashboard/row-actions.machine'
import type { SessionNotice } from '../session/session.machine'
import type { CompanySelectionNotice } from '../shell/company-selection.machine'
import type { UploadItemNotice } from '../uploads/upload-item.machine'
import type { UploadQueueNotice } from '../uploads/upload-queue.machine'
import type { CallFailure, Reason } from './failure'

/** Toasts of the account flows that are not a machine's own notice (forms, route guards). */
export type AccountNotice =
  | 'invalidTwoFactorAttempt'
  | 'invalidValidationLink'
  | 'invalidResetLink'
  | 'accountValidated'
  | 'accountValidationFailed'
  | 'resetRequestFailed'
  | 'passwordReset'
  | 'passwordResetFailed'
  | 'passwordChanged'
  | 'passwordChangeFailed'
  | 'newPasswordsMismatch'
  | 'twoFactorDisabled'
  | 'twoFactorDisableFailed'
  | 'twoFactorAdviceSaved'
  | 'twoFactorAdviceFailed'

/** Toasts of the administration area. */
type AdminNotice =
  | AdminCompaniesNotice
  | AdminUsersNotice
  | CompanyEditNotice
  | InviteUserNotice
  | 'companyCreated'
  | 'companyCreateFailed'

type NoticeKind = 'success' | 'error' | 'info' | 'warning'

/** The detail dialog's notices that show a toast (its expense load and preview errors show none). */
type DetailNoticeCode =
  | 'invoiceLoadFailed'
  | 'invoiceDetailsUnavailable'
  | 'invoicePreviewFailed'
  | 'qualityFailed'
  | 'invoiceResubmitted'
  | 'expenseResubmitted'
  | 'invoiceResubmitFailed'
  | 'expenseResubmitFailed'
  | 'invoiceReuploaded'
  | 'expenseReuploaded'
  | 'invoiceReuploadFailed'
  | 'expenseReuploadFailed'
  | 'invoiceStored'
  | 'expenseStored'
  | 'storeFailed'
  | 'missingReuploadData'
  | 'missingStoreData'
  | 'correctionCompleted'
  | 'correctionHasErrors'
  | 'correctionSaved'
  | 'correctionRefused'
  | 'correctionWhileProcessing'
  | 'correctionFailed'
  | 'confirmed'
  | 'confirmFailed'
  | 'reprocessed'
  | 'reprocessFailed'

export type NoticeCode =
  | `session.${SessionNotice}`
  | `account.${AccountNotice}`
  | `twoFactorSetup.${TwoFactorSetupNotice}`
  | `admin.${AdminNotice}`
  | `company.${CompanySelectionNotice}`
  | 'language.changeFailed'
  | 'companyUsers.fetchFailed'
  | `apiTokens.${ApiTokensNotice}`
  | `dashboard.${DashboardNotice}`
  | 'dashboard.invoicesExported'
  | 'dashboard.expensesExported'
  | 'logs.fetchFailed'
  | 'logs.searchFailed'
  | `upload.${UploadQueueNotice | UploadItemNotice}`
  | 'upload.startedMany'
  | `detail.${DetailNoticeCode}`

/**
 * A value the text shows: as it is, or `{ message }` (a server or contract message, shown in the
 * active language when the contract knows it), `{ reason }` (a failure's reason, by its code), or
 * `{ notice }` (another notice's text).
 */
export type NoticeValue = string | number | { message: string } | { reason: Reason } | { notice: NoticeCode }

export type Notice = {
  kind: NoticeKind
  code: NoticeCode
  values?: Record<string, NoticeValue>
  /** The failed call's reason (by its code), shown instead of the notice's text. */
  failure?: CallFailure
  /** The server's message as text, shown instead of the notice's text (flows not yet giving `failure`). */
  message?: string
}

/** Shows a notice (a toast in the app; tests record them). */
export type Notify = (notice: Notice) => void

/** Each notice's kind: how it is shown (a success, an error, a piece of information, a warning). */
const noticeKinds: Record<NoticeCode, NoticeKind> = {
  'session.loggedIn': 'success',
  'session.loggedOut': 'success',
  'session.logoutFailed': 'error',
  'session.twoFactorRequired': 'info',
  'session.twoFactorAdvised': 'info',
  'session.userFetchFailed': 'error',
  'session.sessionExpired': 'info',
  'twoFactorSetup.setupSkipped': 'info',
  'twoFactorSetup.codesCopied': 'success',
  'twoFactorSetup.copyFailed': 'error',
  'twoFactorSetup.setupComplete': 'success',
  'twoFactorSetup.profileUpdated': 'success',
  'twoFactorSetup.generateFailed': 'error',
  'account.invalidTwoFactorAttempt': 'error',
  'account.invalidValidationLink': 'error',
  'account.invalidResetLink': 'error',
  'account.accountValidated': 'success',
  'account.accountValidationFailed': 'error',
  'account.resetRequestFailed': 'error',
  'account.passwordReset': 'success',
  'account.passwordResetFailed': 'error',
  'account.passwordChanged': 'success',
  'account.passwordChangeFailed': 'error',
  'account.newPasswordsMismatch': 'error',
  'account.twoFactorDisabled': 'success',
  'account.twoFactorDisableFailed': 'error',
  'account.twoFactorAdviceSaved': 'success',
  'account.twoFactorAdviceFailed': 'error',
  'admin.companiesFetchFailed': 'error',
  'admin.companyFetchFailed': 'error',
  'admin.companyCreated': 'success',
  'admin.companyCreateFailed': 'error',
  'admin.companyUpdated': 'success',
  'admin.companyUpdateFailed': 'error',
  'admin.companyEnabled': 'success',
  'admin.companyDisabled': 'success',
  'admin.companyStatusFailed': 'error',
  'admin.ownCompanyStatus': 'error',
  'admin.logoUploaded': 'success',
  'admin.logoUploadFailed': 'error',
  'admin.memberAdded': 'success',
  'admin.memberAddFailed': 'error',
  'admin.memberRemoveFailed': 'error',
  'admin.usersFetchFailed': 'error',
  'admin.userEnabled': 'success',
  'admin.userDisabled': 'success',
  'admin.userStatusFailed': 'error',
  'admin.ownAccountStatus': 'error',
  'admin.userUpdated': 'success',
  'admin.userUpdateFailed': 'error',
  'admin.userInvited': 'success',
  'admin.inviteFailed': 'error',
  'company.companyChanged': 'success',
  'company.companyNotFound': 'error',
  'company.companiesFailed': 'error',
  'language.changeFailed': 'error',
  'companyUsers.fetchFailed': 'error',
  'apiTokens.copied': 'success',
  'apiTokens.copyFailed': 'error',
  'apiTokens.revoked': 'success',
  'apiTokens.revokeFailed': 'error',
  'dashboard.invalidDocumentId': 'error',
  'dashboard.invalidDocumentIdFormat': 'error',
  'dashboard.documentDeleted': 'success',
  'dashboard.reviewEnd': 'info',
  'dashboard.deleteFailed': 'error',
  'dashboard.invoicesExported': 'success',
  'dashboard.expensesExported': 'success',
  'logs.fetchFailed': 'error',
  'logs.searchFailed': 'error',
  'upload.started': 'info',
  'upload.startedMany': 'info',
  'upload.sent': 'success',
  'upload.processed': 'success',
  'upload.failed': 'error',
  'upload.noFiles': 'error',
  'upload.selectCompanyFirst': 'error',
  'detail.invoiceLoadFailed': 'error',
  'detail.invoiceDetailsUnavailable': 'error',
  'detail.invoicePreviewFailed': 'error',
  'detail.qualityFailed': 'warning',
  'detail.invoiceResubmitted': 'success',
  'detail.expenseResubmitted': 'success',
  'detail.invoiceResubmitFailed': 'error',
  'detail.expenseResubmitFailed': 'error',
  'detail.invoiceReuploaded': 'success',
  'detail.expenseReuploaded': 'success',
  'detail.invoiceReuploadFailed': 'error',
  'detail.expenseReuploadFailed': 'error',
  'detail.invoiceStored': 'success',
  'detail.expenseStored': 'success',
  'detail.storeFailed': 'error',
  'detail.missingReuploadData': 'error',
  'detail.missingStoreData': 'error',
  'detail.correctionCompleted': 'success',
  'detail.correctionHasErrors': 'warning',
  'detail.correctionSaved': 'success',
  'detail.correctionRefused': 'error',
  'detail.correctionWhileProcessing': 'error',
  'detail.correctionFailed': 'error',
  'detail.confirmed': 'success',
  'detail.confirmFailed': 'error',
  'detail.reprocessed': 'success',
  'detail.reprocessFailed': 'error',
}

/** The notice of a code, with its kind; `values` for its text; `failure` or `message`, shown instead. */
export const notice = (
  code: NoticeCode,
  more: Pick<Notice, 'values' | 'failure' | 'message'> = {},
): Notice => ({
  kind: noticeKinds[code],
  code,
  ...(more.values ? { values: more.values } : {}),
  ...(more.failure ? { failure: more.failure } : {}),
  ...(more.message ? { message: more.message } : {}),
})

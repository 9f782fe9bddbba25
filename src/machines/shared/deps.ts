/**
 * What the flows' implementation factories are given: the outside world as plain interfaces
 * (the toasts, the router, the browser's storage), so no machine imports a UI, router or toast
 * module and tests hand in fakes.
 */

import type { TwoFactorSetupNotice } from '../account/two-factor-setup.machine'
import type { AdminCompaniesNotice } from '../admin/admin-companies.machine'
import type { AdminUsersNotice } from '../admin/admin-users.machine'
import type { CompanyEditNotice } from '../admin/company-edit.machine'
import type { InviteUserNotice } from '../admin/invite-user.machine'
import type { DashboardNotice } from '../dashboard/row-actions.machine'
import type { DetailNoticeParams } from '../details/document-detail.machine'
import type { SessionNotice } from '../session/session.machine'
import type { CompanySelectionNotice } from '../shell/company-selection.machine'
import type { UploadItemNotice } from '../uploads/upload-item.machine'
import type { UploadQueueNotice } from '../uploads/upload-queue.machine'

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

/** Toasts of the administration area. */
export type AdminNotice =
  | AdminCompaniesNotice
  | AdminUsersNotice
  | CompanyEditNotice
  | InviteUserNotice
  | 'companyCreated'
  | 'companyCreateFailed'

export type UploadNoticeParams = {
  notice: UploadQueueNotice | UploadItemNotice
  fileName?: string
  count?: number
  reason?: string
}

/** Shows the flows' notices (toasts in the app). `serverMessage`: the server's, shown instead when sent. */
export type Notifier = {
  session(notice: SessionNotice): void
  account(notice: AccountNotice, serverMessage?: string): void
  twoFactorSetup(notice: TwoFactorSetupNotice, serverMessage?: string): void
  admin(notice: AdminNotice, serverMessage?: string): void
  company(notice: CompanySelectionNotice, name?: string): void
  languageChangeFailed(): void
  companyUsersFailed(): void
  dashboard(notice: DashboardNotice, value?: string): void
  /** The dashboard's table could not be loaded (`searching`: with a search term). */
  logsFailed(searching: boolean, serverMessage: string): void
  upload(params: UploadNoticeParams): void
}

/** The detail dialog's notices, shown by its own chunk. */
export type DetailNotifier = { detail(params: DetailNoticeParams): void }

export type Navigator = {
  toPath(path: string): void
  toLogin(returnHere: boolean): void
}

/** The part of the browser's `localStorage` the flows use. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>

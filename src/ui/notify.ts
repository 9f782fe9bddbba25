/** The flows' notices shown as toasts, in the active language (the `Notifier` the factories are given). */
import { msg } from '@lingui/core/macro'
import toast from 'react-hot-toast'
import type { Notifier } from '../machines/shared/deps'
import { i18n } from './i18n'
import {
  accountNotices,
  adminNotices,
  companyNoticeText,
  dashboardNoticeText,
  noticeText,
  sessionNotices,
  twoFactorSetupNotices,
  uploadNoticeText,
} from './messages'

type Shown = { kind: 'success' | 'error' | 'info'; text: string }

function show({ kind, text }: Shown) {
  if (kind === 'info') toast(text, { icon: 'ℹ️' })
  else toast[kind](text)
}

const shown = (notice: Parameters<typeof noticeText>[0], serverMessage?: string): Shown => ({
  kind: notice.kind,
  text: noticeText(notice, serverMessage),
})

export const toastNotifier: Notifier = {
  session: (notice) => show(shown(sessionNotices[notice])),
  account: (notice, serverMessage) => show(shown(accountNotices[notice], serverMessage)),
  twoFactorSetup: (notice, serverMessage) => show(shown(twoFactorSetupNotices[notice], serverMessage)),
  admin: (notice, serverMessage) => show(shown(adminNotices[notice], serverMessage)),
  company: (notice, name) =>
    show({ kind: notice === 'companyChanged' ? 'success' : 'error', text: companyNoticeText(notice, name) }),
  languageChangeFailed: () => toast.error(i18n._(msg`The language could not be changed. Please try again.`)),
  companyUsersFailed: () => toast.error(i18n._(msg`Failed to fetch company users`)),
  dashboard: (notice, value) =>
    show({
      kind: notice === 'documentDeleted' ? 'success' : 'error',
      text: dashboardNoticeText(notice, value),
    }),
  logsFailed: (searching, serverMessage) =>
    toast.error(serverMessage || i18n._(searching ? msg`Failed to search logs` : msg`Failed to fetch logs`)),
  upload: (params) => show(uploadNoticeText(params)),
}

/** The detail dialog's toasts, by notice code and document kind. */
import { msg } from '@lingui/core/macro'
import toast from 'react-hot-toast'
import type { DetailNoticeParams } from '../../../machines/details/document-detail.machine'
import type { DetailNotifier } from '../../../machines/shared/deps'
import { i18n } from '../../i18n'
import { messageText } from '../../message-texts'

type DetailToast = { kind: 'success' | 'error' | 'warning'; text: string }

/** The toast of a notice, or null for the notices that show no toast (the expense's load and preview errors). */
function detailNoticeText(p: DetailNoticeParams): DetailToast | null {
  const invoice = p.kind === 'invoice'
  const category = p.category ?? ''
  switch (p.notice) {
    case 'loadFailed': {
      if (!invoice) return null
      const message = p.message ? messageText(p.message) : i18n._(msg`Failed to load invoice details`)
      return { kind: 'error', text: i18n._(msg`Invoice error: ${message}`) }
    }
    case 'previewFailed':
      return invoice ? { kind: 'error', text: i18n._(msg`Could not load invoice PDF`) } : null
    case 'qualityFailed':
      return { kind: 'warning', text: i18n._(msg`Warning: Could not load quality data`) }
    case 'resubmitted':
      return {
        kind: 'success',
        text: invoice
          ? i18n._(msg`Invoice resubmitted with new PDF`)
          : i18n._(msg`Expense resubmitted with new PDF`),
      }
    case 'resubmitFailed':
      return {
        kind: 'error',
        text: invoice
          ? i18n._(msg`Failed to resubmit invoice. Please try again.`)
          : i18n._(msg`Failed to resubmit expense. Please try again.`),
      }
    case 'reuploaded':
      return {
        kind: 'success',
        text: invoice
          ? i18n._(msg`Invoice reuploaded as expense`)
          : i18n._(msg`Expense reuploaded as invoice`),
      }
    case 'reuploadFailed':
      return {
        kind: 'error',
        text: invoice
          ? i18n._(msg`Failed to reupload as expense. Please try again.`)
          : i18n._(msg`Failed to reupload as invoice. Please try again.`),
      }
    case 'stored':
      return {
        kind: 'success',
        text: invoice
          ? i18n._(msg`Invoice uploaded to SharePoint in ${category} category`)
          : i18n._(msg`Expense uploaded to SharePoint in ${category} category`),
      }
    case 'storeFailed':
      return { kind: 'error', text: i18n._(msg`Failed to upload to SharePoint. Please try again.`) }
    case 'missingReuploadData':
      return { kind: 'error', text: i18n._(msg`Missing required data for reupload`) }
    case 'missingStoreData':
      return { kind: 'error', text: i18n._(msg`Missing required data for SharePoint upload`) }
  }
}

/** The detail dialog's notices as toasts (none for those the dialog shows by itself). */
export const detailNotifier: DetailNotifier = {
  detail: (params) => {
    const shown = detailNoticeText(params)
    if (!shown) return
    if (shown.kind === 'warning') toast(shown.text, { icon: '⚠️' })
    else toast[shown.kind](shown.text)
  },
}

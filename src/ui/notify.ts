/** The flows' notices shown as toasts, in the active language: the one `Notify` the factories are given. */
import type { MessageDescriptor } from '@lingui/core'
import { createElement } from 'react'
import toast from 'react-hot-toast'
import type { Notice, NoticeValue, Notify } from '../machines/shared/notice'
import { i18n } from './i18n'
import { failureText, messageText } from './message-texts'
import { noticeTexts } from './notice-texts'
import { InfoToastIcon, WarningToastIcon } from './toaster'

const valueText = (value: NoticeValue): string | number => {
  if (typeof value !== 'object') return value
  if ('reason' in value) return failureText(value.reason)
  return 'message' in value ? messageText(value.message) : i18n._(noticeTexts[value.notice])
}

/** A notice's text: the failure's reason or the server's message when there is one, else the code's text with its values. */
function noticeText({ code, values, failure, message }: Notice): string {
  if (failure) return failureText(failure)
  if (message) return messageText(message)
  if (!values) return i18n._(noticeTexts[code])
  const shown = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, valueText(value)]))
  const descriptor: MessageDescriptor = { ...noticeTexts[code], values: shown }
  return i18n._(descriptor)
}

export const toastNotify: Notify = (notice) => {
  const text = noticeText(notice)
  if (notice.kind === 'info') toast(text, { icon: createElement(InfoToastIcon) })
  else if (notice.kind === 'warning') toast(text, { icon: createElement(WarningToastIcon) })
  else toast[notice.kind](text)
}

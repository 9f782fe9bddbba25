/** A notice's text in the active language: loaded with the first toast (src/ui/notify.ts), beside its chunk. */
import type { MessageDescriptor } from '@lingui/core'
import type { Notice, NoticeValue } from '../machines/shared/notice'
import { i18n } from './i18n'
import { failureText, messageText } from './message-texts'
import { noticeTexts } from './notice-texts'

const valueText = (value: NoticeValue): string | number => {
  if (typeof value !== 'object') return value
  if ('reason' in value) return failureText(value.reason)
  return 'message' in value ? messageText(value.message) : i18n._(noticeTexts[value.notice])
}

/** A notice's text: the failure's reason or the server's message when there is one, else the code's text with its values. */
export function noticeText({ code, values, failure, message }: Notice): string {
  if (failure) return failureText(failure)
  if (message) return messageText(message)
  if (!values) return i18n._(noticeTexts[code])
  const shown = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, valueText(value)]))
  const descriptor: MessageDescriptor = { ...noticeTexts[code], values: shown }
  return i18n._(descriptor)
}

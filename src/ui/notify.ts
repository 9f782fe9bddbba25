/**
 * The flows' notices shown as toasts, in the active language: the one `Notify` the factories are
 * given. The notices' texts load with the first toast (as react-hot-toast does, src/ui/toasts.tsx):
 * a first screen shows none.
 */
import type { Notify } from '../machines/shared/notice'
import { showToast } from './toasts'

let texts: Promise<typeof import('./toast-text')> | undefined

export const toastNotify: Notify = (notice) => {
  texts ??= import('./toast-text')
  // The same promise for every notice: toasts keep the order in which they were asked for.
  void texts.then(({ noticeText }) => showToast(notice.kind, noticeText(notice)))
}

/**
 * The flows' notices shown as toasts, in the active language: the one `Notify` the factories are
 * given. The notices' texts load with the first toast (as react-hot-toast does, src/ui/toasts.tsx):
 * a first screen shows none.
 */
import { loadOnce } from '../api/code-chunks'
import type { Notify } from '../machines/shared/notice'
import { showToast } from './toasts'

/** The texts' chunk; a notice asked for while it cannot be fetched shows once the network is back. */
const loadTexts = loadOnce(() => import('./toast-text'))

export const toastNotify: Notify = (notice) => {
  // The same promise for every notice: toasts keep the order in which they were asked for.
  void loadTexts().then(({ noticeText }) => showToast(notice.kind, noticeText(notice)))
}

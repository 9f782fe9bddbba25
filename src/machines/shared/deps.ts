/**
 * What the flows' implementation factories are given: the outside world as plain interfaces
 * (the router, the browser's storage; the toasts are `Notify`, in `notice.ts`), so no machine imports a UI, router or toast
 * module and tests hand in fakes.
 */

export type Navigator = {
  /** `replace`: the current page gives way in the history (a page the user should not come back to). */
  toPath(path: string, options?: { replace: boolean }): void
  toLogin(returnHere: boolean): void
}

/** The part of the browser's `localStorage` the flows use. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>

/**
 * The app's code fetched after the first screen (route pages, dialogs, machines, API modules,
 * toasts) must survive a connection that drops, as the uploads do: a chunk that cannot be fetched
 * is fetched again once the browser is back online (or after a back-off while it believes it is
 * online), and a loader that failed is not remembered as failed. A chunk that still cannot be had
 * online after a few tries (a newer release replaced it) fails as before, into the route's error
 * view, which offers to reload.
 */

import { contractMessages } from '../../contract'

/**
 * The failure of an upload that got no answer, or whose code could not be fetched: the upload
 * item takes it for the network, waits for it and sends the file again.
 */
export const uploadNetworkError = () => new DOMException(contractMessages.uploadFailed, 'NetworkError')

/** Tries while online before giving up: 1 + 2 + 4 + 8 s of back-off in all. */
export const ONLINE_TRIES = 5

export type NetworkSignals = {
  /** The browser's belief (`navigator.onLine`): while offline, waiting costs no try. */
  isOnline: () => boolean
  /** Where `online` is announced (the window). */
  events: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>
  /** The back-off before try `n + 1` after `n` failed tries, in ms. */
  delay: (failedTries: number) => number
}

const browserSignals = (): NetworkSignals => ({
  isOnline: () => globalThis.navigator?.onLine !== false,
  events: globalThis.window ?? new EventTarget(),
  delay: (n) => 1000 * 2 ** (n - 1),
})

/** Resolves when the browser says it is online again, or after `ms`, whichever comes first. */
function backOnlineOrAfter(signals: NetworkSignals, ms: number) {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signals.events.removeEventListener('online', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signals.events.addEventListener('online', done)
  })
}

/** `load()`, tried again while the network is away; rejects after ONLINE_TRIES failures online. */
export async function retryImport<T>(load: () => Promise<T>, signals = browserSignals()): Promise<T> {
  let failedOnline = 0
  for (;;) {
    try {
      return await load()
    } catch (error) {
      const offline = !signals.isOnline()
      if (!offline && ++failedOnline >= ONLINE_TRIES) throw error
      await backOnlineOrAfter(signals, signals.delay(Math.max(1, failedOnline)))
    }
  }
}

/**
 * A loader called from several places that loads once: every call gets the same promise while it
 * is pending and once it has resolved; one that failed is forgotten, so the next call fetches
 * again instead of failing forever. By default a call waits for the network (`retryImport`);
 * `waitForNetwork: false` fails at once instead, for callers that wait for the network themselves
 * (the upload queue shows "Waiting for network" and tries again).
 */
export function loadOnce<T>(
  load: () => Promise<T>,
  options: { waitForNetwork?: boolean; signals?: NetworkSignals } = {},
): () => Promise<T> {
  const { waitForNetwork = true, signals } = options
  let loading: Promise<T> | undefined
  return () => {
    loading ??= (waitForNetwork ? retryImport(load, signals) : load()).catch((error: unknown) => {
      loading = undefined
      throw error
    })
    return loading
  }
}

/**
 * Answers the page asked for before the app's JavaScript arrived. index.html's first script (written
 * by the `prefetch` plugin of vite.config.ts) starts the message catalog and, on signed-in pages,
 * the session check while the browser downloads the bundle; the app's first GET of the same
 * address takes that answer instead of asking again. Any other call goes to the network.
 */

/** What index.html's script leaves: absolute URL → the answer's promise (null when it failed). */
export type PrefetchStore = Record<string, Promise<Response | null> | undefined>

export const PREFETCH_GLOBAL = '__docflowPrefetch'

/** `base`: the page's address, against which relative request URLs are resolved. */
export function prefetchedFetch(
  store: PrefetchStore | undefined,
  network: typeof fetch,
  base: string,
): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : null
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase()
    const href = new URL(request?.url ?? String(input), base).href
    const early = method === 'GET' ? store?.[href] : undefined
    if (early) {
      delete store?.[href]
      const response = await early
      if (response) return response
    }
    return network(input, init)
  }
}

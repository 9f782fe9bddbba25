import { describe, expect, it, vi } from 'vitest'
import { type PrefetchStore, prefetchedFetch } from '../../src/api/prefetched'

const BASE = 'http://app.test/dashboard'
const CATALOG = 'http://app.test/locales/en/common.json'

describe('answers fetched by index.html before the app started', () => {
  it('hands the early answer to the first GET of its address only; later calls go to the network', async () => {
    const early = new Response('{"messages":{}}')
    const store: PrefetchStore = { [CATALOG]: Promise.resolve(early) }
    const network = vi.fn(async () => new Response('from the network'))
    const fetch = prefetchedFetch(store, network, BASE)

    expect(await fetch(new Request(CATALOG))).toBe(early)
    expect(network).not.toHaveBeenCalled()
    expect(await (await fetch('/locales/en/common.json')).text()).toBe('from the network')
    expect(network).toHaveBeenCalledTimes(1)
  })

  it('never answers another method or address with it, and asks the network when the early fetch failed', async () => {
    const store: PrefetchStore = { [CATALOG]: Promise.resolve(null) }
    const network = vi.fn(async () => new Response('network'))
    const fetch = prefetchedFetch(store, network, BASE)

    await fetch(CATALOG, { method: 'POST' })
    await fetch('/api/auth/logged-in')
    expect(store[CATALOG]).toBeDefined()
    expect(await (await fetch(CATALOG)).text()).toBe('network')
    expect(network).toHaveBeenCalledTimes(3)
    expect(await (await prefetchedFetch(undefined, network, BASE)(CATALOG)).text()).toBe('network')
  })
})

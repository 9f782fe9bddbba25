import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { contractMessages } from '../../contract'
import {
  loadOnce,
  type NetworkSignals,
  ONLINE_TRIES,
  retryImport,
  uploadNetworkError,
} from '../../src/api/code-chunks'
import { isNetworkFailure } from '../../src/machines/uploads/upload-item.machine'

/** A browser whose connection the test turns off and on. */
function network(online: boolean) {
  const events = new EventTarget()
  const state = { online }
  const signals: NetworkSignals = { isOnline: () => state.online, events, delay: () => 1000 }
  return {
    signals,
    goOnline() {
      state.online = true
      events.dispatchEvent(new Event('online'))
    },
  }
}

/** A chunk that fails while `failing()` says so, counting the fetches. */
function chunk(failing: () => boolean) {
  const load = vi.fn(async () => {
    if (failing()) throw new TypeError('Failed to fetch dynamically imported module')
    return { default: 'the module' }
  })
  return load
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

it('fetches again as soon as the browser is back online, however long it was offline', async () => {
  const net = network(false)
  let offline = true
  const load = chunk(() => offline)
  const result = retryImport(load, net.signals)
  // An hour offline: it keeps waiting (offline tries do not count towards giving up).
  await vi.advanceTimersByTimeAsync(3_600_000)
  expect(load.mock.calls.length).toBeGreaterThan(ONLINE_TRIES)
  const before = load.mock.calls.length
  offline = false
  net.goOnline()
  await expect(result).resolves.toEqual({ default: 'the module' })
  expect(load).toHaveBeenCalledTimes(before + 1)
})

it('tries again after a back-off while the browser believes it is online', async () => {
  const net = network(true)
  let failures = 2
  const load = chunk(() => failures-- > 0)
  const result = retryImport(load, net.signals)
  await vi.advanceTimersByTimeAsync(999)
  expect(load).toHaveBeenCalledTimes(1)
  await vi.advanceTimersByTimeAsync(2000)
  await expect(result).resolves.toEqual({ default: 'the module' })
  expect(load).toHaveBeenCalledTimes(3)
})

it('gives up online after a few tries (a chunk a newer release replaced), with the import’s own error', async () => {
  const net = network(true)
  const load = chunk(() => true)
  const result = retryImport(load, net.signals)
  const settled = expect(result).rejects.toThrow('Failed to fetch dynamically imported module')
  await vi.advanceTimersByTimeAsync(60_000)
  await settled
  expect(load).toHaveBeenCalledTimes(ONLINE_TRIES)
})

it('loads once: callers share the pending and the loaded module, and one fetch serves them all', async () => {
  const net = network(true)
  const load = chunk(() => false)
  const loader = loadOnce(load, { signals: net.signals })
  const [a, b] = await Promise.all([loader(), loader()])
  await expect(loader()).resolves.toBe(a)
  expect(b).toBe(a)
  expect(load).toHaveBeenCalledTimes(1)
})

it('forgets a load that failed: the next call fetches again instead of failing forever', async () => {
  const net = network(true)
  let broken = true
  const load = chunk(() => broken)
  const loader = loadOnce(load, { signals: net.signals })
  const first = expect(loader()).rejects.toThrow('Failed to fetch dynamically imported module')
  await vi.advanceTimersByTimeAsync(60_000)
  await first
  expect(load).toHaveBeenCalledTimes(ONLINE_TRIES)
  broken = false
  await expect(loader()).resolves.toEqual({ default: 'the module' })
  expect(load).toHaveBeenCalledTimes(ONLINE_TRIES + 1)
})

it('fails at once without waiting for the network when asked to, and tries again on the next call', async () => {
  const net = network(false)
  let offline = true
  const load = chunk(() => offline)
  const loader = loadOnce(load, { waitForNetwork: false, signals: net.signals })
  await expect(loader()).rejects.toThrow('Failed to fetch dynamically imported module')
  expect(load).toHaveBeenCalledTimes(1)
  offline = false
  await expect(loader()).resolves.toEqual({ default: 'the module' })
  expect(load).toHaveBeenCalledTimes(2)
})

it('names an upload that got no answer, or whose code was not fetched, a network failure the upload item waits out', () => {
  const error = uploadNetworkError()
  expect(isNetworkFailure(error)).toBe(true)
  expect(error.message).toBe(contractMessages.uploadFailed)
  expect(isNetworkFailure(new TypeError('Failed to fetch dynamically imported module'))).toBe(false)
})

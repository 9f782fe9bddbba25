/**
 * What a screen that failed (a chunk the network could not deliver, a render that threw) shows, and
 * what a page whose code is still on its way shows.
 */
import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { RouteErrorView, RoutePendingView } from '../../src/ui/views/status-views'
import { inApp, testActors } from '../support/render'

afterEach(() => vi.restoreAllMocks())

it('says the page could not be shown, names it in the title, and reloads the page on request', async () => {
  const reload = vi.fn()
  vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload })
  render(inApp(<RouteErrorView />, testActors({ session: createActor(sessionMachine) })))
  const alert = await screen.findByRole('alert')
  expect(alert.querySelector('h1')?.textContent).toBe('Something went wrong')
  expect(alert.textContent).toContain('Check your connection')
  expect(document.title).toContain('Something went wrong')
  expect(reload).not.toHaveBeenCalled()
  fireEvent.click(screen.getByRole('button', { name: 'Reload the page' }))
  expect(reload).toHaveBeenCalledTimes(1)
})

it('says a page on its way is loading, and that it waits for the network while the browser is offline', async () => {
  let online = true
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online)
  render(inApp(<RoutePendingView />, testActors({ session: createActor(sessionMachine) })))
  const status = await screen.findByRole('status')
  expect(status.textContent).toBe('Loading')
  online = false
  act(() => void window.dispatchEvent(new Event('offline')))
  expect(status.textContent).toBe('Waiting for network: this page opens as soon as the connection is back.')
  online = true
  act(() => void window.dispatchEvent(new Event('online')))
  expect(status.textContent).toBe('Loading')
})

/** What a screen that failed (a chunk the network could not deliver, a render that threw) shows. */
import { fireEvent, render, screen } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { RouteErrorView } from '../../src/ui/views/status-views'
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

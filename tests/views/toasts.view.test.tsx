/** The toasts' stack height on the page, which the page's bottom padding grows with. */
import { render, waitFor } from '@testing-library/react'
import { toast } from 'react-hot-toast'
import { afterEach, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { Notifications } from '../../src/ui/toaster'
import { showToast } from '../../src/ui/toasts'
import { inApp, testActors } from '../support/render'

afterEach(() => vi.restoreAllMocks())

const toastsHeight = () => document.documentElement.style.getPropertyValue('--toasts-height')

it('sets --toasts-height to the shown toasts, their gaps and offset, and back to 0 once they are gone', async () => {
  // jsdom lays nothing out: every toast measures 40 px.
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({
    height: 40,
    width: 300,
  } as DOMRect)
  const view = render(inApp(<Notifications />, testActors({ session: createActor(sessionMachine) })))
  showToast('success', 'First')
  await waitFor(() => expect(toastsHeight()).toBe('56px'))
  showToast('info', 'Second')
  // Two toasts of 40 px, the 8 px gutter between them and the 16 px offset from the bottom.
  await waitFor(() => expect(toastsHeight()).toBe('104px'))
  toast.dismiss()
  await waitFor(() => expect(toastsHeight()).toBe('0px'))
  view.unmount()
  expect(toastsHeight()).toBe('')
})

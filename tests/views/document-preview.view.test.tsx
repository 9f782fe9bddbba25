/** The document-preview statechart's paths, replayed through the rendered preview of the detail dialog. */
import { render, screen } from '@testing-library/react'
import { expect } from 'vitest'
import { type AnyActorRef, type AnyMachineSnapshot, createActor } from 'xstate'
import {
  type DocumentPreviewContext,
  documentPreviewMachine,
} from '../../src/machines/details/document-preview.machine'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { DocumentPreviewView } from '../../src/ui/views/details/document-preview'
import {
  EVIDENCE,
  previewAllowed,
  previewEvents,
  previewInput,
  previewKey,
} from '../machines/document-preview-fixtures'
import { inApp, testActors } from '../support/render'
import { describeViewModel, type User } from '../support/view-model'

const ctx = (s: AnyMachineSnapshot) => s.context as DocumentPreviewContext
const click = (name: string) => async (user: User) => {
  await user.click(screen.getByRole('button', { name }))
}

/** The tools say the page and zoom the machine holds; the highlighted reading is outlined strongly. */
function readyView(s: AnyMachineSnapshot) {
  const c = ctx(s)
  const folded = screen.getByRole('button', { name: c.folded ? 'Show preview' : 'Hide preview' })
  expect(folded.getAttribute('aria-expanded')).toBe(String(!c.folded))
  expect(screen.getByText(`${c.page} / ${c.source!.pageCount}`)).toBeDefined()
  expect(screen.getByText(`${Math.round(c.zoom * 100)} %`)).toBeDefined()
  const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement
  expect(button('Previous page').disabled).toBe(c.page === 1)
  expect(button('Next page').disabled).toBe(c.page === c.source!.pageCount)
  const strong = [...document.querySelectorAll('[data-outline][data-highlighted]')].map((e) =>
    e.getAttribute('data-outline'),
  )
  const shown = c.highlighted && EVIDENCE[c.highlighted]?.page === c.page ? [c.highlighted] : []
  expect(strong).toEqual(shown)
}

describeViewModel('document preview', {
  machine: documentPreviewMachine,
  input: previewInput,
  actors: ['openSource', 'loadWords'],
  mount: (machine, inspect, clock) => {
    const actor = createActor(machine, { inspect, clock, input: previewInput })
    actor.start()
    return {
      element: inApp(
        <DocumentPreviewView actor={actor} url="blob:original-1" name="facture.pdf" />,
        testActors({ session: createActor(sessionMachine) }),
      ),
      actor: actor as AnyActorRef,
    }
  },
  render: (element) => render(element),
  ui: {
    'page.next': click('Next page'),
    'page.previous': click('Previous page'),
    'zoom.in': click('Zoom in'),
    'zoom.out': click('Zoom out'),
    'zoom.fit': click('Fit to width'),
    'preview.toggle': async (user) => {
      await user.click(screen.getByRole('button', { name: /^(Hide|Show) preview$/ }))
    },
  },
  events: previewEvents,
  contextKey: previewKey,
  allowed: previewAllowed,
  limit: 3000,
  views: {
    loading: () => expect(screen.getByText('Loading preview')).toBeDefined(),
    failed: () => {
      expect(screen.getByText('Failed to load PDF')).toBeDefined()
      expect(screen.getByText('Invalid PDF structure')).toBeDefined()
    },
    'ready.words.loading': readyView,
    'ready.words.loaded': readyView,
    'ready.words.unavailable': readyView,
  },
})

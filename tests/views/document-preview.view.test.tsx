/** The document-preview statechart's paths, replayed through the rendered preview of the detail dialog. */
import { act, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type AnyActorRef, type AnyMachineSnapshot, createActor, fromPromise } from 'xstate'
import type { FieldEvidence } from '../../contract'
import {
  type DocumentPreviewContext,
  documentPreviewMachine,
  type PreviewSource,
  type PreviewWord,
} from '../../src/machines/details/document-preview.machine'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { DocumentPreviewView } from '../../src/ui/views/details/document-preview'
import {
  EVIDENCE,
  PDF,
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

/** A key pressed on the page (which takes the focus when picking starts). */
const keyOnPage = (keys: string) => async (user: User) => {
  const page = screen.getByRole('region', { name: /^Page \d+ of \d+$/ })
  await waitFor(() => expect(document.activeElement).toBe(page))
  await user.keyboard(keys)
}

/** Picking by keyboard: its hint, the box of the words taken, the toolbar's button pressed. */
function pickingView(s: AnyMachineSnapshot) {
  readyView(s)
  const c = ctx(s)
  const picking = c.cursor !== null
  expect(screen.getByRole('button', { name: 'Pick text from the page' }).getAttribute('aria-pressed')).toBe(
    String(picking),
  )
  expect(document.querySelectorAll('[data-pick-cursor]')).toHaveLength(picking ? 1 : 0)
  const hint = screen.queryByText(/Enter fills the field/)
  expect(hint !== null).toBe(picking)
  if (picking) expect(screen.getByRole('status').textContent).toBe(`Alpinea (word 1 of 1)`)
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
    'pick.start': click('Pick text from the page'),
    'pick.next': keyOnPage('{ArrowRight}'),
    'pick.previous': keyOnPage('{ArrowLeft}'),
    'pick.down': keyOnPage('{ArrowDown}'),
    'pick.up': keyOnPage('{ArrowUp}'),
    'pick.extend': keyOnPage('{Shift>}{ArrowRight}{/Shift}'),
    'pick.shrink': keyOnPage('{Shift>}{ArrowLeft}{/Shift}'),
    'pick.choose': keyOnPage('{Enter}'),
    'pick.stop': keyOnPage('{Escape}'),
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
    'ready.words.loaded.browsing': pickingView,
    'ready.words.loaded.picking': pickingView,
    'ready.words.unavailable': readyView,
  },
})

describe('document preview, scrolling to outlines', () => {
  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  it('scrolls to the outline of a field focused or hovered in the form, never for a pointer on the page', async () => {
    // Two readings on page 1: the number and the total.
    const evidence: Record<string, FieldEvidence> = {
      invoice_number: EVIDENCE.invoice_number!,
      total_amount: { page: 1, box: [0.6, 0.8, 0.8, 0.83], confidence: 0.9, alternatives: [] },
    }
    const actor = createActor(
      documentPreviewMachine.provide({
        actors: {
          openSource: fromPromise(async (): Promise<PreviewSource> => PDF),
          loadWords: fromPromise(async (): Promise<PreviewWord[] | null> => []),
        },
      }),
      { input: { ...previewInput, evidence } },
    )
    actor.start()
    render(
      inApp(
        <DocumentPreviewView actor={actor} url={null} name="facture.pdf" />,
        testActors({ session: createActor(sessionMachine) }),
      ),
    )
    await screen.findByText('1 / 2')
    const scrolled: (string | null)[] = []
    vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this.getAttribute('data-outline'))
    })
    vi.useFakeTimers()
    const send = (event: Parameters<typeof actor.send>[0]) => {
      act(() => actor.send(event))
      act(() => vi.advanceTimersByTime(100))
    }
    send({ type: 'field.focus', field: 'invoice_number' })
    expect(scrolled).toEqual(['invoice_number'])
    // The pointer on the page: the total's reading is highlighted, then the number's again; the
    // page stays where the reader has it.
    send({ type: 'outline.hover', field: 'total_amount' })
    expect(document.querySelector('[data-outline][data-highlighted]')?.getAttribute('data-outline')).toBe(
      'total_amount',
    )
    send({ type: 'outline.leave' })
    expect(document.querySelector('[data-outline][data-highlighted]')?.getAttribute('data-outline')).toBe(
      'invoice_number',
    )
    expect(scrolled).toEqual(['invoice_number'])
    // The pointer on a field of the form brings its reading into view, and leaving it the focused one's.
    send({ type: 'field.hover', field: 'total_amount' })
    send({ type: 'field.leave' })
    expect(scrolled).toEqual(['invoice_number', 'total_amount', 'invoice_number'])
    // Zooming keeps the highlighted reading in view.
    act(() => screen.getByRole('button', { name: 'Zoom in' }).click())
    act(() => vi.advanceTimersByTime(100))
    expect(scrolled.at(-1)).toBe('invoice_number')
  })
})

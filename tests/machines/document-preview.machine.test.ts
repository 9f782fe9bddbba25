import { describe, expect, it } from 'vitest'
import { type AnyMachineSnapshot, createActor, fromPromise, waitFor } from 'xstate'
import { createDocumentPreviewMachine } from '../../src/machines/details/document-preview.implementations'
import {
  type DocumentPreviewContext,
  documentPreviewMachine,
  lineNeighbour,
  type PreviewSource,
  type PreviewWord,
  ZOOM_STEPS,
} from '../../src/machines/details/document-preview.machine'
import type { ControlledActors } from '../support/graph'
import { describeModel } from '../support/model'
import {
  EVIDENCE,
  PDF,
  previewAllowed,
  previewEvents,
  previewInput,
  previewKey,
  WORD,
} from './document-preview-fixtures'

const input = previewInput
const ctx = (s: { context: unknown }) => s.context as DocumentPreviewContext
let controls: ControlledActors | undefined

describeModel('document preview machine', {
  machine: documentPreviewMachine,
  input,
  actors: ['openSource', 'loadWords'],
  provide: (machine, c, record) => {
    controls = c
    return machine.provide({
      actions: { fillField: (_, p) => record(`fill:${p.field}:${p.text}`) },
    })
  },
  events: previewEvents,
  contextKey: previewKey,
  allowed: previewAllowed,
  limit: 3000,
  states: {
    loading: (s) => {
      expect(s.hasTag('busy')).toBe(true)
      expect(ctx(s).source).toBeNull()
      expect(s.can({ type: 'page.next' })).toBe(false)
    },
    failed: (s) => {
      expect(ctx(s).error).toBe('Invalid PDF structure')
      expect(s.can({ type: 'zoom.in' })).toBe(false)
    },
    'ready.words.loading': (s) => {
      const c = ctx(s)
      expect(c.words).toEqual([])
      const call = controls!.calls.filter((x) => x.src === 'loadWords').at(-1)
      // The words asked for are the shown page's.
      expect(call?.input).toMatchObject({
        id: 7,
        companyId: 3,
        page: c.page,
        source: { type: c.source!.type },
      })
      expectOutlined(s)
    },
    'ready.words.loaded.browsing': (s, log) => {
      expect(ctx(s).words).toEqual([WORD])
      expect(ctx(s).cursor).toBeNull()
      expectOutlined(s)
      expectFilled(s, log)
    },
    'ready.words.loaded.picking': (s, log) => {
      const c = ctx(s)
      // Picking fills the field focused last: there is one, and the taken words are on the page.
      expect(c.target).not.toBeNull()
      expect(c.cursor).toEqual({ from: 0, to: 0 })
      expectOutlined(s)
      expectFilled(s, log)
    },
    'ready.words.unavailable': (s, log) => {
      expect(ctx(s).words).toEqual([])
      expectOutlined(s)
      expectFilled(s, log)
    },
  },
})

/** The page shown holds the highlighted field's reading whenever the document has that page. */
function expectOutlined(s: AnyMachineSnapshot) {
  const c = ctx(s)
  expect(c.page).toBeGreaterThanOrEqual(1)
  expect(c.page).toBeLessThanOrEqual(c.source!.pageCount)
  expect(ZOOM_STEPS).toContain(c.zoom)
  const page = c.highlighted ? EVIDENCE[c.highlighted]?.page : undefined
  if (page !== undefined && page <= c.source!.pageCount) expect(c.page).toBe(page)
}

/** A picked word went to the field focused last, and only to it. */
function expectFilled(s: AnyMachineSnapshot, log: readonly string[]) {
  const fills = log.filter((l) => l.startsWith('fill:'))
  for (const f of fills) expect(f.startsWith('fill:')).toBe(true)
  const last = fills.at(-1)
  if (last) expect(last).toMatch(/^fill:(invoice_number|business_name|iban):Alpinea$/)
  if (!ctx(s).target) expect(fills).toEqual([])
}

describe('document preview machine, beyond the graph', () => {
  const start = () => {
    const actor = createActor(
      documentPreviewMachine.provide({
        actors: {
          openSource: fromPromise(async (): Promise<PreviewSource> => PDF),
          loadWords: fromPromise(async (): Promise<PreviewWord[] | null> => [WORD]),
        },
      }),
      { input },
    )
    actor.start()
    return actor
  }
  /** The original opened: the preview is ready for its tools. */
  const opened = (actor: ReturnType<typeof start>) => waitFor(actor, (s) => s.matches('ready'))

  it('zooms by steps between 50 % and 300 %, and fits the width again', async () => {
    const actor = start()
    await opened(actor)
    for (let i = 0; i < 10; i++) actor.send({ type: 'zoom.in' })
    expect(actor.getSnapshot().context.zoom).toBe(3)
    expect(actor.getSnapshot().can({ type: 'zoom.in' })).toBe(false)
    for (let i = 0; i < 10; i++) actor.send({ type: 'zoom.out' })
    expect(actor.getSnapshot().context.zoom).toBe(0.5)
    actor.send({ type: 'zoom.fit' })
    expect(actor.getSnapshot().context.zoom).toBe(1)
    expect(actor.getSnapshot().can({ type: 'zoom.fit' })).toBe(false)
  })

  it('keeps the focused field as the target of picked words after a hover elsewhere', async () => {
    const actor = start()
    await opened(actor)
    actor.send({ type: 'field.focus', field: 'invoice_number' })
    actor.send({ type: 'field.hover', field: 'business_name' })
    expect(actor.getSnapshot().context.page).toBe(2)
    actor.send({ type: 'field.leave' })
    expect(actor.getSnapshot().context.highlighted).toBe('invoice_number')
    actor.send({ type: 'field.focus', field: 'invoice_number' })
    expect(actor.getSnapshot().context.page).toBe(1)
  })

  it('scrolls to an outline for the fields, never for a pointer on the page', async () => {
    const actor = start()
    const reveals: string[] = []
    actor.on('outline.reveal', () => reveals.push(actor.getSnapshot().context.highlighted ?? ''))
    await opened(actor)
    actor.send({ type: 'field.focus', field: 'invoice_number' })
    expect(reveals).toEqual(['invoice_number'])
    // On the page: the reading under the pointer is highlighted where it is, and leaving the
    // readings hands the highlight back without moving anything.
    actor.send({ type: 'outline.hover', field: 'business_name' })
    expect(actor.getSnapshot().context).toMatchObject({ highlighted: 'invoice_number', page: 1 })
    actor.send({ type: 'page.next' })
    actor.send({ type: 'outline.hover', field: 'business_name' })
    actor.send({ type: 'outline.leave' })
    // The focused field was read on page 1: the reader stays on page 2, nothing outlined strongly.
    expect(actor.getSnapshot().context).toMatchObject({
      highlighted: null,
      page: 2,
      target: 'invoice_number',
    })
    expect(reveals).toEqual(['invoice_number'])
    // From the fields: hovering and leaving move the page and ask for the outline.
    actor.send({ type: 'field.hover', field: 'business_name' })
    actor.send({ type: 'field.leave' })
    expect(actor.getSnapshot().context).toMatchObject({ highlighted: 'invoice_number', page: 1 })
    expect(reveals).toEqual(['invoice_number', 'business_name', 'invoice_number'])
    actor.send({ type: 'outline.hover', field: 'invoice_number' })
    actor.send({ type: 'outline.leave' })
    expect(actor.getSnapshot().context.highlighted).toBe('invoice_number')
    expect(reveals).toHaveLength(3)
  })

  it('takes words by keyboard: moves, takes more, clamps at the ends, and fills the field focused last', async () => {
    const words = ['Date', '12', 'mars', '2024'].map((text, i) => ({
      text,
      box: [0.1 * i, 0.2, 0.1 * i + 0.08, 0.22] as [number, number, number, number],
    }))
    const filled: string[] = []
    const actor = createActor(
      documentPreviewMachine.provide({
        actors: {
          openSource: fromPromise(async (): Promise<PreviewSource> => PDF),
          loadWords: fromPromise(async (): Promise<PreviewWord[] | null> => words),
        },
        actions: { fillField: (_, p) => filled.push(`${p.field}=${p.text}`) },
      }),
      { input },
    )
    actor.start()
    await waitFor(actor, (s) => s.matches({ ready: { words: 'loaded' } }))
    // Nothing focused yet: nothing to fill, so no picking.
    expect(actor.getSnapshot().can({ type: 'pick.start' })).toBe(false)
    actor.send({ type: 'field.focus', field: 'invoice_number' })
    actor.send({ type: 'pick.start' })
    const cursor = () => actor.getSnapshot().context.cursor
    actor.send({ type: 'pick.previous' })
    expect(cursor()).toEqual({ from: 0, to: 0 })
    actor.send({ type: 'pick.next' })
    for (let i = 0; i < 5; i++) actor.send({ type: 'pick.extend' })
    expect(cursor()).toEqual({ from: 1, to: 3 })
    actor.send({ type: 'pick.shrink' })
    actor.send({ type: 'pick.shrink' })
    actor.send({ type: 'pick.shrink' })
    expect(cursor()).toEqual({ from: 1, to: 1 })
    actor.send({ type: 'pick.extend' })
    actor.send({ type: 'pick.extend' })
    actor.send({ type: 'pick.choose' })
    expect(filled).toEqual(['invoice_number=12 mars 2024'])
    expect(actor.getSnapshot().matches({ ready: { words: { loaded: 'browsing' } } })).toBe(true)
    expect(cursor()).toBeNull()
    // Escape leaves without filling; turning the page ends the picking too.
    actor.send({ type: 'pick.start' })
    actor.send({ type: 'pick.stop' })
    actor.send({ type: 'pick.start' })
    actor.send({ type: 'page.next' })
    expect(cursor()).toBeNull()
    expect(filled).toHaveLength(1)
  })

  it('walks a receipt’s columns by line: down and up keep to the column, left and right go word by word', () => {
    // Two columns (item, amount) on three lines, in reading order; the amounts are right-aligned.
    const box = (x0: number, x1: number, line: number): [number, number, number, number] => [
      x0,
      0.1 + line * 0.03,
      x1,
      0.12 + line * 0.03,
    ]
    const words: PreviewWord[] = [
      { text: 'Croissant', box: box(0.05, 0.3, 0) },
      { text: '1,20', box: box(0.8, 0.9, 0) },
      { text: 'Café', box: box(0.05, 0.2, 1) },
      { text: 'crème', box: box(0.22, 0.4, 1) },
      { text: '2,80', box: box(0.8, 0.9, 1) },
      { text: 'TOTAL', box: box(0.05, 0.25, 2) },
      { text: '4,00', box: box(0.8, 0.9, 2) },
    ]
    // Down the amounts' column from the first amount, and back up.
    expect(lineNeighbour(words, 1, 1)).toBe(4)
    expect(lineNeighbour(words, 4, 1)).toBe(6)
    expect(lineNeighbour(words, 6, 1)).toBe(6)
    expect(lineNeighbour(words, 6, -1)).toBe(4)
    expect(lineNeighbour(words, 4, -1)).toBe(1)
    expect(lineNeighbour(words, 1, -1)).toBe(1)
    // Down the items' column: the word nearest across, not the line's last.
    expect(lineNeighbour(words, 0, 1)).toBe(2)
    expect(lineNeighbour(words, 3, 1)).toBe(5)
    // A word on the same line, a little higher or lower (a tilted scan), is not the next line.
    const tilted = [
      ...words,
      { text: '€', box: [0.92, 0.102, 0.95, 0.122] as [number, number, number, number] },
    ]
    expect(lineNeighbour(tilted, 1, 1)).toBe(4)
    // A tall logo beside a name is not the line under it: the address below the name is.
    const header: PreviewWord[] = [
      { text: 'AE', box: [0.08, 0.055, 0.12, 0.074] },
      { text: 'Alpinea', box: [0.155, 0.047, 0.25, 0.059] },
      { text: '125', box: [0.155, 0.068, 0.18, 0.076] },
    ]
    expect(lineNeighbour(header, 1, 1)).toBe(2)
    expect(lineNeighbour(header, 2, -1)).toBe(1)
  })

  it('ignores a page outside the document and an empty pick', async () => {
    const filled: string[] = []
    const actor = createActor(
      documentPreviewMachine.provide({
        actors: {
          openSource: fromPromise(async (): Promise<PreviewSource> => PDF),
          loadWords: fromPromise(async (): Promise<PreviewWord[] | null> => null),
        },
        actions: { fillField: (_, p) => filled.push(p.text) },
      }),
      { input },
    )
    actor.start()
    await opened(actor)
    actor.send({ type: 'page.go', page: 3 })
    actor.send({ type: 'page.go', page: 1.5 })
    expect(actor.getSnapshot().context.page).toBe(1)
    actor.send({ type: 'field.focus', field: 'iban' })
    actor.send({ type: 'word.pick', text: '  ' })
    actor.send({ type: 'word.pick', text: 'FR76' })
    expect(filled).toEqual(['FR76'])
  })
})

describe('document preview implementations', () => {
  const run = async (original: Blob, pdfWords: PreviewWord[], serverWords: PreviewWord[] | null) => {
    const asked: number[] = []
    const logic = createDocumentPreviewMachine({
      details: {
        words: async (_id, page) => {
          asked.push(page)
          return serverWords && { width: 100, height: 100, words: serverWords }
        },
      },
      pdf: { open: async () => ({ pageCount: 2, handle: {} }), words: async () => pdfWords },
    })
    const actor = createActor(logic, { input: { ...input, original } })
    actor.start()
    const s = await waitFor(
      actor,
      (x) => x.matches({ ready: { words: 'loaded' } }) || x.matches({ ready: { words: 'unavailable' } }),
    )
    return { s, asked }
  }

  it("reads a PDF's words from pdf.js", async () => {
    const { s, asked } = await run(input.original, [WORD], null)
    expect(s.context.source).toMatchObject({ type: 'pdf', pageCount: 2 })
    expect(s.context.words).toEqual([WORD])
    expect(asked).toEqual([])
  })

  it("asks the server for a scanned PDF page's words and an image's", async () => {
    const scanned = await run(input.original, [], [WORD])
    expect(scanned.s.context.words).toEqual([WORD])
    const image = await run(new Blob(['png'], { type: 'image/png' }), [], [WORD])
    expect(image.s.context.source).toEqual({ type: 'image', pageCount: 1 })
    expect(image.asked).toEqual([1])
  })

  it('offers no click-to-fill on a page the server has no words for (404)', async () => {
    const { s } = await run(new Blob(['png'], { type: 'image/png' }), [], null)
    expect(s.matches({ ready: { words: 'unavailable' } })).toBe(true)
  })
})

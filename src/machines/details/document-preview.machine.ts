/**
 * The detail dialog's preview of the original: `loading` opens it (a PDF's pages, or one image) →
 * `ready` (the page shown, its zoom, the field whose reading is outlined, the page's words for
 * click-to-fill) or `failed`. Focusing or hovering a field outlines where it was read, turning to
 * its page, and asks the view to bring the outline into view (`outline.reveal`); pointing at an
 * outline on the page highlights its field where it is, without moving the page. A word picked on
 * the page (clicked, dragged over, or taken by keyboard in `picking`) fills the field focused last.
 */
import { assign, emit, setup } from 'xstate'
import type { FieldEvidence, FinancialKind, PageWords } from '../../../contract'
import { toFailure } from '../shared/failure'
import { promisePlaceholder } from '../shared/placeholder'

/** A word on a page and its box (fractions of the page, origin top left). */
export type PreviewWord = PageWords['words'][number]

/** The opened original: a PDF (`handle` is the engine's document, drawn by the view) or an image. */
export type PreviewSource =
  | { type: 'pdf'; pageCount: number; handle: unknown }
  | { type: 'image'; pageCount: 1 }

export type PreviewInput = {
  kind: FinancialKind
  id: number
  companyId: number
  original: Blob
  evidence: Record<string, FieldEvidence>
}

export type DocumentPreviewContext = PreviewInput & {
  source: PreviewSource | null
  /** The page shown, from 1. */
  page: number
  /** Times the width that fits the frame (1 = fit to width). */
  zoom: number
  /** The field whose reading is outlined (hovered, else the one focused last). */
  highlighted: string | null
  /** The field focused last: what a picked word fills. */
  target: string | null
  /** The words of the page shown; empty while they load or when the page has none to offer. */
  words: PreviewWord[]
  /** Picking by keyboard: the words taken, `from` to `to` (indexes in `words`); null otherwise. */
  cursor: { from: number; to: number } | null
  /** At narrow widths the preview can be folded away above the fields. */
  folded: boolean
  error: string | null
}

export type DocumentPreviewEvent =
  | { type: 'page.next' }
  | { type: 'page.previous' }
  | { type: 'page.go'; page: number }
  | { type: 'zoom.in' }
  | { type: 'zoom.out' }
  | { type: 'zoom.fit' }
  | { type: 'field.focus'; field: string }
  | { type: 'field.hover'; field: string }
  | { type: 'field.leave' }
  | { type: 'outline.hover'; field: string }
  | { type: 'outline.leave' }
  | { type: 'word.pick'; text: string }
  | { type: 'pick.start' }
  | { type: 'pick.next' }
  | { type: 'pick.previous' }
  /** The word on the line below or above, nearest across: a column of amounts is walked down it. */
  | { type: 'pick.down' }
  | { type: 'pick.up' }
  | { type: 'pick.extend' }
  | { type: 'pick.shrink' }
  | { type: 'pick.choose' }
  | { type: 'pick.stop' }
  | { type: 'preview.toggle' }
  | { type: 'evidence.change'; evidence: Record<string, FieldEvidence> }

/** What the view does for the machine: scroll the highlighted field's outline into view. */
export type DocumentPreviewEmitted = { type: 'outline.reveal' }

/** The zoom steps, as times the fitting width. */
export const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const

type Scope = { kind: FinancialKind; id: number; companyId: number }
export type WordsInput = Scope & { source: PreviewSource; page: number }

type FieldEvent = { field: string }

const evidencePage = (c: DocumentPreviewContext, field: string) => c.evidence[field]?.page ?? null

/** Whether the field's reading is on a page other than the one shown. */
const isElsewhere = (c: DocumentPreviewContext, field: string) => {
  const page = evidencePage(c, field)
  return page !== null && page !== c.page && page >= 1 && page <= (c.source?.pageCount ?? 0)
}

/** The text of the words a keyboard pick takes. */
export const cursorText = (c: Pick<DocumentPreviewContext, 'words' | 'cursor'>) =>
  c.cursor
    ? c.words
        .slice(c.cursor.from, c.cursor.to + 1)
        .map((w) => w.text)
        .join(' ')
    : ''

const lastWord = (c: DocumentPreviewContext) => Math.max(0, c.words.length - 1)

const middle = (box: PreviewWord['box']) => (box[1] + box[3]) / 2
const across = (box: PreviewWord['box']) => (box[0] + box[2]) / 2
/** The horizontal gap between two boxes, 0 when they overlap across. */
const gapAcross = (a: PreviewWord['box'], b: PreviewWord['box']) => Math.max(0, a[0] - b[2], b[0] - a[2])

/**
 * The word below (1) or above (-1) the word `at`, as the eye goes down a column: of the words
 * whose middle is past half the word's height, the one nearest down plus twice its gap across
 * (none when they overlap), so a column (a receipt's amounts, an address under a name) is
 * followed rather than a logo beside it; ties go to the nearest across. `at` when none is there.
 */
export function lineNeighbour(words: readonly PreviewWord[], at: number, direction: 1 | -1): number {
  const here = words[at]
  if (!here) return at
  const half = Math.max(here.box[3] - here.box[1], 1e-6) / 2
  const y = middle(here.box)
  const x = across(here.box)
  let best = at
  let bestCost = Number.POSITIVE_INFINITY
  let bestAcross = Number.POSITIVE_INFINITY
  words.forEach((word, index) => {
    const down = (middle(word.box) - y) * direction
    if (down <= half) return
    const cost = down + 2 * gapAcross(word.box, here.box)
    const off = Math.abs(across(word.box) - x)
    if (cost < bestCost || (cost === bestCost && off < bestAcross)) {
      best = index
      bestCost = cost
      bestAcross = off
    }
  })
  return best
}

const stepIndex = (zoom: number) => ZOOM_STEPS.findIndex((z) => z >= zoom)

const wordsInput = ({ context }: { context: DocumentPreviewContext }): WordsInput => ({
  kind: context.kind,
  id: context.id,
  companyId: context.companyId,
  source: context.source!,
  page: context.page,
})

export const documentPreviewMachine = setup({
  types: {} as {
    context: DocumentPreviewContext
    events: DocumentPreviewEvent
    input: PreviewInput
    emitted: DocumentPreviewEmitted
  },
  actors: {
    openSource: promisePlaceholder<PreviewSource, { original: Blob }>('openSource'),
    /** The page's words; null when the page offers none (an image whose words the server cannot give). */
    loadWords: promisePlaceholder<PreviewWord[] | null, WordsInput>('loadWords'),
  },
  actions: {
    /** Puts picked text in a field (the dialog hands it to the correction form). */
    fillField: (_, _params: { field: string; text: string }) => {},
    toFieldPage: assign(({ context }, { field }: FieldEvent) => ({
      page: evidencePage(context, field) ?? context.page,
    })),
    focusField: assign((_, { field }: FieldEvent) => ({ target: field, highlighted: field })),
    hoverField: assign((_, { field }: FieldEvent) => ({ highlighted: field })),
    /** The highlight came from the fields (focus, hover, leave): its outline is scrolled to. */
    revealOutline: emit({ type: 'outline.reveal' }),
  },
  guards: {
    hasNextPage: ({ context }) => context.page < (context.source?.pageCount ?? 0),
    hasPreviousPage: ({ context }) => context.page > 1,
    isOtherPage: ({ context }, page: number) =>
      Number.isInteger(page) &&
      page !== context.page &&
      page >= 1 &&
      page <= (context.source?.pageCount ?? 0),
    isReadElsewhere: ({ context }, field: string) => isElsewhere(context, field),
    isOnShownPage: ({ context }, field: string) => evidencePage(context, field) === context.page,
    canZoomIn: ({ context }) => context.zoom < ZOOM_STEPS[ZOOM_STEPS.length - 1]!,
    canZoomOut: ({ context }) => context.zoom > ZOOM_STEPS[0],
    isZoomed: ({ context }) => context.zoom !== 1,
    hasWords: ({ event }) => (event as { output?: unknown }).output != null,
    hasTarget: ({ context, event }) =>
      !!context.target && event.type === 'word.pick' && event.text.trim() !== '',
    canPick: ({ context }) => !!context.target && context.words.length > 0,
  },
}).createMachine({
  id: 'documentPreview',
  context: ({ input }) => ({
    ...input,
    source: null,
    page: 1,
    zoom: 1,
    highlighted: null,
    target: null,
    words: [],
    cursor: null,
    folded: false,
    error: null,
  }),
  initial: 'loading',
  on: {
    'field.focus': { actions: [{ type: 'focusField', params: ({ event }) => event }, 'revealOutline'] },
    'field.hover': { actions: [{ type: 'hoverField', params: ({ event }) => event }, 'revealOutline'] },
    'field.leave': {
      description: 'The outline goes back to the field focused last.',
      actions: [assign({ highlighted: ({ context }) => context.target }), 'revealOutline'],
    },
    'preview.toggle': { actions: assign({ folded: ({ context }) => !context.folded }) },
    'evidence.change': {
      description: 'A saved correction brings the record again: its evidence replaces the old.',
      actions: assign({ evidence: ({ event }) => event.evidence }),
    },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'openSource',
        src: 'openSource',
        input: ({ context }) => ({ original: context.original }),
        onDone: {
          target: 'ready',
          description: 'Opened: the page of the field focused meanwhile is shown first.',
          actions: [
            assign({ source: ({ event }) => event.output }),
            assign({
              page: ({ context }) =>
                context.target && isElsewhere(context, context.target)
                  ? evidencePage(context, context.target)!
                  : 1,
            }),
          ],
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => toFailure(event.error).message }),
        },
      },
    },
    failed: {
      description: 'The original could not be drawn: its message in the frame, the fields still work.',
    },
    ready: {
      initial: 'words',
      on: {
        'page.next': {
          guard: 'hasNextPage',
          target: '.words',
          reenter: true,
          actions: assign({ page: ({ context }) => context.page + 1 }),
        },
        'page.previous': {
          guard: 'hasPreviousPage',
          target: '.words',
          reenter: true,
          actions: assign({ page: ({ context }) => context.page - 1 }),
        },
        'page.go': {
          guard: { type: 'isOtherPage', params: ({ event }) => event.page },
          target: '.words',
          reenter: true,
          actions: assign({ page: ({ event }) => event.page }),
        },
        'zoom.in': {
          guard: 'canZoomIn',
          actions: assign({ zoom: ({ context }) => ZOOM_STEPS[stepIndex(context.zoom) + 1] ?? context.zoom }),
        },
        'zoom.out': {
          guard: 'canZoomOut',
          actions: assign({ zoom: ({ context }) => ZOOM_STEPS[Math.max(0, stepIndex(context.zoom) - 1)]! }),
        },
        'zoom.fit': { guard: 'isZoomed', actions: assign({ zoom: 1 }) },
        'field.focus': [
          {
            guard: { type: 'isReadElsewhere', params: ({ event }) => event.field },
            description: 'The field was read on another page: that page is shown, its words loaded.',
            target: '.words',
            reenter: true,
            actions: [
              { type: 'toFieldPage', params: ({ event }) => event },
              { type: 'focusField', params: ({ event }) => event },
              'revealOutline',
            ],
          },
        ],
        'field.hover': [
          {
            guard: { type: 'isReadElsewhere', params: ({ event }) => event.field },
            target: '.words',
            reenter: true,
            actions: [
              { type: 'toFieldPage', params: ({ event }) => event },
              { type: 'hoverField', params: ({ event }) => event },
              'revealOutline',
            ],
          },
        ],
        'field.leave': {
          guard: { type: 'isReadElsewhere', params: ({ context }) => context.target ?? '' },
          description: 'Back to the field focused last, on its page.',
          target: '.words',
          reenter: true,
          actions: [
            { type: 'toFieldPage', params: ({ context }) => ({ field: context.target ?? '' }) },
            assign({ highlighted: ({ context }) => context.target }),
            'revealOutline',
          ],
        },
        'outline.hover': {
          guard: { type: 'isOnShownPage', params: ({ event }) => event.field },
          description:
            'The pointer is on a reading of the page shown: its field is highlighted, nothing moves.',
          actions: { type: 'hoverField', params: ({ event }) => event },
        },
        'outline.leave': {
          description:
            'The pointer left the readings: the outline goes back to the field focused last if it was read on this page, and the page stays where the reader put it.',
          actions: assign({
            highlighted: ({ context }) =>
              context.target && !isElsewhere(context, context.target) ? context.target : null,
          }),
        },
        'word.pick': {
          guard: 'hasTarget',
          actions: {
            type: 'fillField',
            params: ({ context, event }) => ({ field: context.target!, text: event.text }),
          },
        },
      },
      states: {
        words: {
          initial: 'loading',
          states: {
            loading: {
              entry: assign({ words: [], cursor: null }),
              invoke: {
                id: 'loadWords',
                src: 'loadWords',
                input: wordsInput,
                onDone: [
                  {
                    guard: 'hasWords',
                    target: 'loaded',
                    actions: assign({ words: ({ event }) => event.output ?? [] }),
                  },
                  { target: 'unavailable' },
                ],
                onError: 'unavailable',
              },
            },
            loaded: {
              initial: 'browsing',
              states: {
                browsing: {
                  // After the pick's own actions: `pick.choose` reads the cursor on its way out.
                  entry: assign({ cursor: null }),
                  on: {
                    'pick.start': {
                      guard: 'canPick',
                      target: 'picking',
                      description: 'Click-to-fill by keyboard: the first word of the page is taken.',
                    },
                  },
                },
                picking: {
                  entry: assign({ cursor: { from: 0, to: 0 } }),
                  on: {
                    'pick.next': {
                      actions: assign({
                        cursor: ({ context }) => {
                          const at = Math.min(context.cursor!.to + 1, lastWord(context))
                          return { from: at, to: at }
                        },
                      }),
                    },
                    'pick.previous': {
                      actions: assign({
                        cursor: ({ context }) => {
                          const at = Math.max(context.cursor!.from - 1, 0)
                          return { from: at, to: at }
                        },
                      }),
                    },
                    'pick.down': {
                      actions: assign({
                        cursor: ({ context }) => {
                          const at = lineNeighbour(context.words, context.cursor!.to, 1)
                          return { from: at, to: at }
                        },
                      }),
                    },
                    'pick.up': {
                      actions: assign({
                        cursor: ({ context }) => {
                          const at = lineNeighbour(context.words, context.cursor!.from, -1)
                          return { from: at, to: at }
                        },
                      }),
                    },
                    'pick.extend': {
                      description: 'One more word: a date or an amount printed in several.',
                      actions: assign({
                        cursor: ({ context }) => ({
                          from: context.cursor!.from,
                          to: Math.min(context.cursor!.to + 1, lastWord(context)),
                        }),
                      }),
                    },
                    'pick.shrink': {
                      actions: assign({
                        cursor: ({ context }) => ({
                          from: context.cursor!.from,
                          to: Math.max(context.cursor!.to - 1, context.cursor!.from),
                        }),
                      }),
                    },
                    'pick.choose': {
                      target: 'browsing',
                      description: 'The words taken fill the field focused last, as a click would.',
                      actions: {
                        type: 'fillField',
                        params: ({ context }) => ({ field: context.target!, text: cursorText(context) }),
                      },
                    },
                    'pick.stop': { target: 'browsing' },
                  },
                },
              },
            },
            unavailable: {
              description:
                'No words for this page (an image the server has no words for): no click-to-fill here.',
            },
          },
        },
      },
    },
  },
})

export type DocumentPreviewMachine = typeof documentPreviewMachine

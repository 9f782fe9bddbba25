/**
 * The original drawn in the detail dialog: a PDF page on a canvas with its text layer (pdf.js), or
 * the image; page navigation, zoom and fit to width; the outline of where the highlighted field was
 * read (and a faint one for each other field of the page); a click or a drag on the page fills the
 * field focused last. Reads the `documentPreview` actor and sends; the machine decides.
 */
import { useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import {
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useRef,
  useState,
} from 'react'
import { css, cx } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { FieldEvidence, PageBox } from '../../../../contract'
import {
  cursorText,
  type DocumentPreviewEvent,
  type DocumentPreviewMachine,
  type PreviewWord,
} from '../../../machines/details/document-preview.machine'
import { useScreenActor } from '../../app-context'
import { Alert } from '../../components/alert'
import { Button } from '../../components/button'
import { ChevronLeftIcon, ChevronRightIcon } from '../../components/icons'
import { Spinner } from '../../components/spinner'
import { drawPdfPage } from './pdf-engine'
import './text-layer.css'

export type DocumentPreviewActor = ActorRefFrom<DocumentPreviewMachine>

type Point = { x: number; y: number }

const inBox = ({ x, y }: Point, [x0, y0, x1, y1]: PageBox) => x >= x0 && x <= x1 && y >= y0 && y <= y1
const meets = (a: PageBox, b: PageBox) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]

/** The words a click (one word) or a drag (every word the rectangle meets, in reading order) takes. */
export function pickedText(words: PreviewWord[], from: Point, to: Point): string {
  const dragged = Math.abs(from.x - to.x) > 0.004 || Math.abs(from.y - to.y) > 0.004
  if (!dragged) return words.find((w) => inBox(to, w.box))?.text ?? ''
  const rect: PageBox = [
    Math.min(from.x, to.x),
    Math.min(from.y, to.y),
    Math.max(from.x, to.x),
    Math.max(from.y, to.y),
  ]
  return words
    .filter((w) => meets(rect, w.box))
    .map((w) => w.text)
    .join(' ')
}

const boxStyle = ([x0, y0, x1, y1]: PageBox) => ({
  left: `${x0 * 100}%`,
  top: `${y0 * 100}%`,
  width: `${(x1 - x0) * 100}%`,
  height: `${(y1 - y0) * 100}%`,
})

const outline = css({
  position: 'absolute',
  pointerEvents: 'none',
  borderRadius: 'sm',
  borderWidth: '1px',
  borderStyle: 'dashed',
  borderColor: 'blue.400',
  zIndex: 2,
})
const strong = css({ borderWidth: '3px', borderStyle: 'solid', borderColor: 'blue.700', bg: 'blue.500/15' })
const cursorBox = css({
  position: 'absolute',
  pointerEvents: 'none',
  outline: '3px solid',
  outlineColor: 'orange.600',
  outlineOffset: '1px',
  bg: 'orange.300/30',
  zIndex: 3,
})

/** The box around the words a keyboard pick takes. */
function PickCursor({ actor }: { actor: DocumentPreviewActor }) {
  const box = useSelector(
    actor,
    (s) => {
      const { cursor, words } = s.context
      if (!cursor) return null
      const taken = words.slice(cursor.from, cursor.to + 1).map((w) => w.box)
      if (!taken.length) return null
      return [
        Math.min(...taken.map((b) => b[0])),
        Math.min(...taken.map((b) => b[1])),
        Math.max(...taken.map((b) => b[2])),
        Math.max(...taken.map((b) => b[3])),
      ] as PageBox
    },
    (a, b) => a?.join() === b?.join(),
  )
  const el = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (box) el.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' })
  }, [box])
  return box ? (
    <div ref={el} aria-hidden data-pick-cursor className={cursorBox} style={boxStyle(box)} />
  ) : null
}

/** Picking by keyboard: what is taken, and the keys. */
function PickHint({ actor }: { actor: DocumentPreviewActor }) {
  const { t } = useLingui()
  const picking = useSelector(actor, (s) => s.matches({ ready: { words: { loaded: 'picking' } } }))
  const taken = useSelector(actor, (s) => cursorText(s.context))
  const at = useSelector(actor, (s) => (s.context.cursor?.from ?? 0) + 1)
  const count = useSelector(actor, (s) => s.context.words.length)
  if (!picking) return null
  return (
    <div className={css({ fontSize: 'sm', display: 'flex', flexDirection: 'column', gap: '0.5' })}>
      <span role="status" aria-live="polite">
        <strong>{taken}</strong> {t`(word ${at} of ${count})`}
      </span>
      <span className={css({ color: 'fg.muted' })}>
        {t`Left and right arrows move by word, up and down by line, Shift+arrows take more words, Enter fills the field, Escape stops.`}
      </span>
    </div>
  )
}

/** The key a page being read by keyboard answers, as the machine's event. */
function pickKey(e: KeyboardEvent<HTMLElement>, picking: boolean): DocumentPreviewEvent | null {
  if (!picking) return e.key === 'Enter' ? { type: 'pick.start' } : null
  switch (e.key) {
    case 'ArrowRight':
      return { type: e.shiftKey ? 'pick.extend' : 'pick.next' }
    case 'ArrowDown':
      return { type: e.shiftKey ? 'pick.extend' : 'pick.down' }
    case 'ArrowLeft':
      return { type: e.shiftKey ? 'pick.shrink' : 'pick.previous' }
    case 'ArrowUp':
      return { type: e.shiftKey ? 'pick.shrink' : 'pick.up' }
    case 'Enter':
      return { type: 'pick.choose' }
    case 'Escape':
      return { type: 'pick.stop' }
    default:
      return null
  }
}

/** Every field read on this page: the highlighted one outlined strongly, the others faintly. */
function Outlines({ actor }: { actor: DocumentPreviewActor }) {
  const page = useSelector(actor, (s) => s.context.page)
  const evidence = useSelector(actor, (s) => s.context.evidence)
  const highlighted = useSelector(actor, (s) => s.context.highlighted)
  const onPage = Object.entries(evidence).filter(([, e]) => e.page === page)
  return (
    <>
      {onPage.map(([field, e]) => (
        <div
          key={field}
          aria-hidden
          data-outline={field}
          data-highlighted={field === highlighted || undefined}
          className={cx(outline, field === highlighted ? strong : undefined)}
          style={boxStyle(e.box)}
        />
      ))}
    </>
  )
}

function PdfCanvas({ actor, width }: { actor: DocumentPreviewActor; width: number }) {
  const handle = useSelector(actor, (s) =>
    s.context.source?.type === 'pdf' ? s.context.source.handle : null,
  )
  const page = useSelector(actor, (s) => s.context.page)
  const canvas = useRef<HTMLCanvasElement>(null)
  const textLayer = useRef<HTMLDivElement>(null)
  // Drawing is the view's own work: the machine says which page and how wide, pdf.js paints it.
  useEffect(() => {
    if (!handle || !canvas.current || !textLayer.current || width <= 0) return
    const drawing = drawPdfPage(handle, page, { canvas: canvas.current, textLayer: textLayer.current, width })
    drawing.done.catch(() => {})
    return drawing.cancel
  }, [handle, page, width])
  return (
    <>
      <canvas ref={canvas} aria-hidden className={css({ display: 'block', bg: 'white' })} />
      <div ref={textLayer} className="textLayer" data-page={page} />
    </>
  )
}

/** The width the page fits (its frame's, less its padding), followed as the frame resizes. */
function useFitWidth(frame: RefObject<HTMLElement | null>) {
  const [width, setWidth] = useState(0)
  useEffect(() => {
    const el = frame.current
    if (!el) return
    const measure = () => {
      const next = Math.max(0, Math.floor(el.clientWidth - 32))
      setWidth((w) => (Math.abs(next - w) > 2 ? next : w))
    }
    measure()
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure)
    observer?.observe(el)
    return () => observer?.disconnect()
  }, [frame])
  return width
}

function PageSurface({
  actor,
  url,
  name,
}: {
  actor: DocumentPreviewActor
  url: string | null
  name: string
}) {
  const { t } = useLingui()
  const frame = useRef<HTMLElement>(null)
  const fit = useFitWidth(frame)
  const type = useSelector(actor, (s) => s.context.source?.type)
  const zoom = useSelector(actor, (s) => s.context.zoom)
  const page = useSelector(actor, (s) => s.context.page)
  const pageCount = useSelector(actor, (s) => s.context.source?.pageCount ?? 1)
  const pickable = useSelector(actor, (s) => !!s.context.target)
  const picking = useSelector(actor, (s) => s.matches({ ready: { words: { loaded: 'picking' } } }))
  const down = useRef<Point | null>(null)
  const hovered = useRef<string | null>(null)
  const width = Math.round(fit * zoom)
  const [reveals, setReveals] = useState(0)
  useEffect(() => {
    const subscription = actor.on('outline.reveal', () => setReveals((n) => n + 1))
    return () => subscription.unsubscribe()
  }, [actor])

  // The highlighted field's outline is brought into view when the machine asks (a field focused,
  // hovered or left) and when the page or the zoom moves it; never for a pointer on the page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each of these moves the outline
  useEffect(() => {
    const id = window.setTimeout(() => {
      const { highlighted } = actor.getSnapshot().context
      if (!highlighted) return
      const el = frame.current?.querySelector(`[data-outline="${highlighted}"]`)
      el?.scrollIntoView({ block: 'nearest', inline: 'nearest' })
    }, 50)
    return () => window.clearTimeout(id)
  }, [actor, reveals, page, width])

  // Picking started from the toolbar: the keys go to the page.
  useEffect(() => {
    if (picking) frame.current?.focus({ preventScroll: true })
  }, [picking])
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.target !== e.currentTarget) return
    const event = pickKey(e, picking)
    if (!event || !actor.getSnapshot().can(event)) return
    e.preventDefault()
    actor.send(event)
  }

  const at = (e: MouseEvent<HTMLDivElement>): Point => {
    const r = e.currentTarget.getBoundingClientRect()
    return { x: (e.clientX - r.left) / r.width, y: (e.clientY - r.top) / r.height }
  }
  const onMouseMove = (e: MouseEvent<HTMLDivElement>) => {
    // Only a pointer that moved: the page scrolled under a resting one (to a focused field's
    // outline) must not hand the highlight to the reading now under it.
    if (e.movementX === 0 && e.movementY === 0) return
    const point = at(e)
    const { evidence, page: shown } = actor.getSnapshot().context
    const field =
      Object.entries(evidence).find(([, ev]) => ev.page === shown && inBox(point, ev.box))?.[0] ?? null
    if (field === hovered.current) return
    hovered.current = field
    actor.send(field ? { type: 'outline.hover', field } : { type: 'outline.leave' })
  }
  const onMouseUp = (e: MouseEvent<HTMLDivElement>) => {
    const from = down.current
    down.current = null
    if (!from || !pickable) return
    const text =
      pickedText(actor.getSnapshot().context.words, from, at(e)) || String(window.getSelection() ?? '')
    if (text.trim()) actor.send({ type: 'word.pick', text })
  }
  return (
    <section
      ref={frame}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll area the keyboard must be able to scroll
      tabIndex={0}
      aria-label={t`Page ${page} of ${pageCount}`}
      aria-keyshortcuts={pickable ? 'Enter' : undefined}
      title={t`Preview of ${name}`}
      // Escape stops picking, not the dialog.
      data-own-escape={picking || undefined}
      className={css({ flex: '1', minH: '0', overflow: 'auto', p: '4' })}
      onKeyDown={onKeyDown}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: pointer-only shortcut; the fields take typing */}
      <div
        data-testid="preview-page"
        className={css({
          position: 'relative',
          mx: 'auto',
          boxShadow: 'md',
          cursor: pickable ? 'crosshair' : 'auto',
        })}
        style={{ width: width > 0 ? `${width}px` : '100%' }}
        onMouseDown={(e) => {
          down.current = at(e)
        }}
        onMouseUp={onMouseUp}
        onMouseMove={onMouseMove}
        onMouseLeave={() => {
          if (hovered.current) actor.send({ type: 'outline.leave' })
          hovered.current = null
        }}
      >
        {type === 'pdf' ? (
          <PdfCanvas actor={actor} width={width} />
        ) : url ? (
          <img src={url} alt={t`Preview of ${name}`} className={css({ display: 'block', w: 'full' })} />
        ) : null}
        <Outlines actor={actor} />
        <PickCursor actor={actor} />
      </div>
    </section>
  )
}

function Toolbar({ actor }: { actor: DocumentPreviewActor }) {
  const { t } = useLingui()
  const page = useSelector(actor, (s) => s.context.page)
  const pageCount = useSelector(actor, (s) => s.context.source?.pageCount ?? 1)
  const zoom = useSelector(actor, (s) => s.context.zoom)
  const canPrevious = useSelector(actor, (s) => s.can({ type: 'page.previous' }))
  const canNext = useSelector(actor, (s) => s.can({ type: 'page.next' }))
  const canZoomIn = useSelector(actor, (s) => s.can({ type: 'zoom.in' }))
  const canZoomOut = useSelector(actor, (s) => s.can({ type: 'zoom.out' }))
  const canFit = useSelector(actor, (s) => s.can({ type: 'zoom.fit' }))
  const canPick = useSelector(actor, (s) => s.can({ type: 'pick.start' }))
  const picking = useSelector(actor, (s) => s.matches({ ready: { words: { loaded: 'picking' } } }))
  const percent = Math.round(zoom * 100)
  return (
    <div
      role="toolbar"
      aria-label={t`Preview tools`}
      className={css({ display: 'flex', alignItems: 'center', gap: '1', flexWrap: 'wrap' })}
    >
      <Button
        variant="ghost"
        size="sm"
        aria-label={t`Previous page`}
        disabled={!canPrevious}
        onClick={() => actor.send({ type: 'page.previous' })}
      >
        <ChevronLeftIcon />
      </Button>
      <span aria-live="polite" className={css({ fontSize: 'sm', minW: '16', textAlign: 'center' })}>
        {t`${page} / ${pageCount}`}
      </span>
      <Button
        variant="ghost"
        size="sm"
        aria-label={t`Next page`}
        disabled={!canNext}
        onClick={() => actor.send({ type: 'page.next' })}
      >
        <ChevronRightIcon />
      </Button>
      <Button
        variant="ghost"
        size="sm"
        aria-label={t`Zoom out`}
        disabled={!canZoomOut}
        onClick={() => actor.send({ type: 'zoom.out' })}
      >
        −
      </Button>
      <span className={css({ fontSize: 'sm', minW: '12', textAlign: 'center' })}>{`${percent} %`}</span>
      <Button
        variant="ghost"
        size="sm"
        aria-label={t`Zoom in`}
        disabled={!canZoomIn}
        onClick={() => actor.send({ type: 'zoom.in' })}
      >
        +
      </Button>
      <Button variant="ghost" size="sm" disabled={!canFit} onClick={() => actor.send({ type: 'zoom.fit' })}>
        {t`Fit to width`}
      </Button>
      <Button
        variant="ghost"
        size="sm"
        aria-pressed={picking}
        disabled={!picking && !canPick}
        title={t`Enter on the page`}
        onClick={() => actor.send({ type: picking ? 'pick.stop' : 'pick.start' })}
      >
        {t`Pick text from the page`}
      </Button>
    </div>
  )
}

function Pending({ label }: { label: string }) {
  return (
    <div
      role="status"
      className={css({ flex: '1', display: 'grid', placeItems: 'center', color: 'fg.muted', p: '6' })}
    >
      <span className={css({ display: 'inline-flex', alignItems: 'center', gap: '3' })}>
        <Spinner />
        {label}
      </span>
    </div>
  )
}

/** The preview of a running `documentPreview` actor; `url` is the image's object URL. */
export function DocumentPreviewView({
  actor,
  url,
  name,
}: {
  actor: DocumentPreviewActor
  url: string | null
  name: string
}) {
  const { t } = useLingui()
  const loading = useSelector(actor, (s) => s.matches('loading'))
  const error = useSelector(actor, (s) => (s.matches('failed') ? (s.context.error ?? '') : null))
  const folded = useSelector(actor, (s) => s.context.folded)
  let content: ReactNode
  if (error !== null)
    content = (
      <div className={css({ p: '6', w: 'full' })}>
        <Alert status="error">
          <strong>{t`Failed to load PDF`}</strong> <span>{error}</span>
        </Alert>
      </div>
    )
  else if (loading) content = <Pending label={t`Loading preview`} />
  else
    content = (
      <>
        <Toolbar actor={actor} />
        <PickHint actor={actor} />
        <PageSurface actor={actor} url={url} name={name} />
      </>
    )
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        aria-expanded={!folded}
        aria-controls="detail-preview-body"
        className={css({ display: { base: 'inline-flex', md: 'none' }, alignSelf: 'flex-start' })}
        onClick={() => actor.send({ type: 'preview.toggle' })}
      >
        {folded ? t`Show preview` : t`Hide preview`}
      </Button>
      <div
        id="detail-preview-body"
        className={css({
          display: { base: folded ? 'none' : 'flex', md: 'flex' },
          flexDirection: 'column',
          gap: '2',
          flex: '1',
          minH: '0',
          h: { base: '60dvh', md: 'auto' },
        })}
      >
        {content}
      </div>
    </>
  )
}

type PreviewProps = {
  logic: DocumentPreviewMachine
  input: { kind: 'invoice' | 'expense'; id: number; companyId: number; original: Blob }
  evidence: Record<string, FieldEvidence>
  url: string | null
  name: string
  /** Hands the running actor to the dialog (the fields outline their reading through it). */
  onActor: (actor: DocumentPreviewActor | null) => void
}

/** Starts the `documentPreview` actor for a loaded original and shows it. */
export function DocumentPreview({ logic, input, evidence, url, name, onActor }: PreviewProps) {
  const actor = useScreenActor(logic, { input: { ...input, evidence } })
  useEffect(() => {
    onActor(actor)
    return () => onActor(null)
  }, [actor, onActor])
  // A saved correction brings the record again, its evidence with it.
  useEffect(() => {
    actor.send({ type: 'evidence.change', evidence })
  }, [actor, evidence])
  return <DocumentPreviewView actor={actor} url={url} name={name} />
}

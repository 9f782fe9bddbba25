/** Records, event samples and the traversal's limits of the preview machine's tests (machine and view). */
import type { AnyMachineSnapshot, EventObject } from 'xstate'
import type { FieldEvidence } from '../../contract'
import type {
  DocumentPreviewContext,
  PreviewSource,
} from '../../src/machines/details/document-preview.machine'
import { done, error } from './document-detail-fixtures'

/** The number is read on page 1, the supplier on page 2; the IBAN came from somewhere else. */
export const EVIDENCE: Record<string, FieldEvidence> = {
  invoice_number: { page: 1, box: [0.6, 0.1, 0.8, 0.13], confidence: 0.95, alternatives: [] },
  business_name: {
    page: 2,
    box: [0.1, 0.05, 0.4, 0.08],
    confidence: 0.4,
    alternatives: [{ value: 'Alpinea', page: 2, box: [0.1, 0.05, 0.2, 0.08], confidence: 0.2 }],
  },
}
export const PDF: PreviewSource = { type: 'pdf', pageCount: 2, handle: null }
export const IMAGE: PreviewSource = { type: 'image', pageCount: 1 }
export const WORD = { text: 'Alpinea', box: [0.1, 0.05, 0.2, 0.08] as [number, number, number, number] }

export const previewInput = {
  kind: 'invoice' as const,
  id: 7,
  companyId: 3,
  original: new Blob(['%PDF-1.7'], { type: 'application/pdf' }),
  evidence: EVIDENCE,
}
const ctx = (s: { context: unknown }) => s.context as DocumentPreviewContext

export const previewEvents = {
  'xstate.done.actor.openSource': [done('openSource', PDF), done('openSource', IMAGE)],
  'xstate.error.actor.openSource': [error('openSource', new Error('Invalid PDF structure'))],
  'xstate.done.actor.loadWords': [done('loadWords', [WORD]), done('loadWords', null)],
  'xstate.error.actor.loadWords': [error('loadWords', new Error('Failed to fetch'))],
  'page.go': [{ type: 'page.go', page: 2 }],
  'field.focus': [
    { type: 'field.focus', field: 'invoice_number' },
    { type: 'field.focus', field: 'business_name' },
    { type: 'field.focus', field: 'iban' },
  ],
  'field.hover': [
    { type: 'field.hover', field: 'business_name' },
    { type: 'field.hover', field: 'invoice_number' },
  ],
  'outline.hover': [
    { type: 'outline.hover', field: 'invoice_number' },
    { type: 'outline.hover', field: 'business_name' },
  ],
  'word.pick': [{ type: 'word.pick', text: 'Alpinea' }],
  'evidence.change': [{ type: 'evidence.change', evidence: EVIDENCE }],
}

/** What tells two preview states apart for the graph. */
export const previewKey = (c: unknown) => {
  const x = c as DocumentPreviewContext
  return {
    source: x.source?.type ?? null,
    page: x.page,
    zoom: x.zoom,
    highlighted: x.highlighted,
    target: x.target,
    folded: x.folded,
    cursor: x.cursor,
  }
}

const FIELD_EVENTS = [
  'field.focus',
  'field.hover',
  'field.leave',
  'outline.hover',
  'outline.leave',
  'word.pick',
]
const VIEW_EVENTS = ['zoom.in', 'zoom.out', 'zoom.fit', 'preview.toggle', 'evidence.change']
const PAGE_EVENTS = ['page.next', 'page.previous', 'page.go']

/**
 * Keeps the regions from multiplying: zoom and folding are walked with nothing focused on page 1,
 * pages with nothing focused at the fitting width, fields at the fitting width, unfolded; a field
 * is focused while the original opens only to show that its page comes first.
 */
export const previewAllowed = (s: AnyMachineSnapshot, e: EventObject) => {
  const c = ctx(s)
  if (s.matches('loading'))
    return (
      !FIELD_EVENTS.includes(e.type) ||
      (e.type === 'field.focus' && (e as unknown as { field: string }).field === 'business_name' && !c.target)
    )
  if (s.matches('failed')) return false
  const plain = c.zoom === 1 && !c.folded
  if (VIEW_EVENTS.includes(e.type))
    return !c.target && !c.highlighted && c.page === 1 && (e.type !== 'evidence.change' || plain)
  if (PAGE_EVENTS.includes(e.type)) return plain && !c.target && !c.highlighted
  if (FIELD_EVENTS.includes(e.type)) return plain
  return true
}

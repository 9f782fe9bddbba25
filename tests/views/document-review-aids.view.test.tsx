/**
 * The review aids of the detail dialog's fields and preview: where a value came from when no box
 * shows it, the "Check" mark on an unsure reading (announced, and focused first), the second
 * guesses in a field's menu saved in one action, and the preview's tools and outlines.
 */
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import type { FinancialDocument } from '../../contract'
import type { HistoryChange } from '../../src/machines/details/document-edit.machine'
import { documentEditMachine } from '../../src/machines/details/document-edit.machine'
import {
  documentPreviewMachine,
  type PreviewSource,
  type PreviewWord,
} from '../../src/machines/details/document-preview.machine'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { EditableFields } from '../../src/ui/views/details/document-fields'
import { DocumentPreviewView } from '../../src/ui/views/details/document-preview'
import { completedRecord, pngBlob } from '../machines/document-detail-fixtures'
import { inApp, testActors } from '../support/render'

const BOX: [number, number, number, number] = [0.1, 0.1, 0.4, 0.14]
const reviewed: FinancialDocument = {
  ...completedRecord,
  field_sources: { invoice_number: 'text', business_name: 'text', iban: 'xml', vat_number: 'memory' },
  field_evidence: {
    invoice_number: { page: 1, box: [0.6, 0.1, 0.8, 0.13], confidence: 0.95, alternatives: [] },
    business_name: {
      page: 1,
      box: BOX,
      confidence: 0.4,
      alternatives: [{ value: 'Alpinea SAS', page: 1, box: [0.1, 0.9, 0.3, 0.92], confidence: 0.3 }],
    },
  },
}

const described = (label: string) =>
  (screen.getByLabelText(label).getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')

describe('detail fields, review aids', () => {
  const open = () => {
    const saved: unknown[] = []
    const logic = documentEditMachine.provide({
      actors: {
        saveCorrection: fromPromise(async ({ input }) => {
          saved.push(input)
          return { document: reviewed, quality: { errors: [], warnings: [] } }
        }),
        loadHistory: fromPromise(async (): Promise<HistoryChange[]> => []),
      },
    })
    render(
      inApp(
        <EditableFields
          logic={logic}
          input={{ kind: 'invoice', id: 7, companyId: 3, document: reviewed }}
          onActor={() => {}}
        />,
        testActors({ session: createActor(sessionMachine) }),
      ),
    )
    return saved
  }
  const shown = () => screen.findByLabelText('Business name')

  it('marks an unsure reading "Check", tells screen readers why, and starts on it', async () => {
    open()
    await shown()
    expect(described('Business name')).toContain('Check')
    expect(described('Business name')).toContain('Uncertain reading: compare it with the page')
    expect(described('Invoice number')).not.toContain('Check')
    await waitFor(() => expect(document.activeElement?.id).toBe('edit-business_name'))
  })

  it('says where a value without a box came from', async () => {
    open()
    await shown()
    expect(described('IBAN')).toContain('From the e-invoice')
    expect(described('VAT number')).toContain('Remembered for this supplier')
    // A value read on the page shows its box, not a source.
    expect(described('Invoice number')).toBe('')
  })

  it('saves a second guess picked from the field menu in one action', async () => {
    const saved = open()
    await shown()
    const user = userEvent.setup()
    expect(screen.queryByRole('button', { name: 'Other readings of Invoice number' })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Other readings of Business name' }))
    await user.click(await screen.findByRole('menuitem', { name: 'Alpinea SAS (page 1)' }))
    await waitFor(() =>
      expect(saved).toEqual([
        { kind: 'invoice', id: 7, companyId: 3, changes: { business_name: 'Alpinea SAS' } },
      ]),
    )
  })
})

describe('detail preview, an image', () => {
  const start = () => {
    const filled: string[] = []
    const actor = createActor(
      documentPreviewMachine.provide({
        actors: {
          openSource: fromPromise(async (): Promise<PreviewSource> => ({ type: 'image', pageCount: 1 })),
          loadWords: fromPromise(async (): Promise<PreviewWord[] | null> => [{ text: 'Alpinea', box: BOX }]),
        },
        actions: { fillField: (_, p) => filled.push(`${p.field}:${p.text}`) },
      }),
      {
        input: {
          kind: 'invoice',
          id: 7,
          companyId: 3,
          original: pngBlob,
          evidence: reviewed.field_evidence ?? {},
        },
      },
    )
    actor.start()
    render(
      inApp(
        <DocumentPreviewView actor={actor} url="blob:image-1" name="ticket.png" />,
        testActors({ session: createActor(sessionMachine) }),
      ),
    )
    return { actor, filled }
  }

  it('shows the image with labelled page and zoom tools', async () => {
    const { actor } = start()
    const user = userEvent.setup()
    await screen.findByRole('img', { name: 'Preview of ticket.png' })
    const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement
    expect(button('Previous page').disabled).toBe(true)
    expect(button('Next page').disabled).toBe(true)
    expect(button('Fit to width').disabled).toBe(true)
    await user.click(button('Zoom in'))
    expect(actor.getSnapshot().context.zoom).toBe(1.25)
    expect(screen.getByText('125 %')).toBeDefined()
    await user.click(button('Fit to width'))
    expect(actor.getSnapshot().context.zoom).toBe(1)
  })

  it('outlines the focused field strongly and the others of the page faintly', async () => {
    const { actor } = start()
    await screen.findByRole('img', { name: 'Preview of ticket.png' })
    const outline = (field: string) => document.querySelector(`[data-outline="${field}"]`)
    expect(outline('business_name')).not.toBeNull()
    expect(outline('business_name')?.hasAttribute('data-highlighted')).toBe(false)
    actor.send({ type: 'field.focus', field: 'business_name' })
    await waitFor(() => expect(outline('business_name')?.hasAttribute('data-highlighted')).toBe(true))
    expect(outline('invoice_number')?.hasAttribute('data-highlighted')).toBe(false)
  })

  it('folds the preview away and back', async () => {
    start()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Hide preview' }))
    const show = screen.getByRole('button', { name: 'Show preview' })
    expect(show.getAttribute('aria-expanded')).toBe('false')
    await user.click(show)
    expect(screen.getByRole('button', { name: 'Hide preview' }).getAttribute('aria-expanded')).toBe('true')
  })
})

/** The document-edit statechart's paths, replayed through the rendered editable fields of the detail dialog. */
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { type AnyActorRef, type AnyMachineSnapshot, createActor, fromPromise } from 'xstate'
import {
  type DocumentEditContext,
  documentEditMachine,
  type HistoryChange,
} from '../../src/machines/details/document-edit.machine'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { DocumentFieldsView } from '../../src/ui/views/details/document-fields'
import {
  editAllowed,
  editEvents,
  editedRecord,
  editKey,
  NEW_NUMBER,
} from '../machines/document-edit-fixtures'
import { inApp, testActors } from '../support/render'
import { describeViewModel, type User } from '../support/view-model'

const LABELS: Record<string, string> = { invoice_number: 'Invoice number', iban: 'IBAN' }
const ctx = (s: AnyMachineSnapshot) => s.context as DocumentEditContext
// `hidden`: jsdom leaves the form aria-hidden after a modal over it closed (Ark waits for an exit
// animation jsdom never ends); the e2e tests check the real browser.
const button = (name: string) => screen.getByRole('button', { name, hidden: true }) as HTMLButtonElement
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement
/** The texts an input's aria-describedby points at (its hint and its error). */
const description = (label: string) =>
  (input(label).getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')

async function type(user: User, label: string, text: string) {
  await user.clear(input(label))
  await user.click(input(label))
  await user.paste(text)
}

/** What every form state shows: each input holds the machine's text, its error tied to it. */
function fieldsMatch(s: AnyMachineSnapshot) {
  const c = ctx(s)
  expect(input('Invoice number').value).toBe(c.values.invoice_number)
  expect(input('IBAN').value).toBe(c.values.iban)
  if (c.errors.iban) {
    expect(input('IBAN').getAttribute('aria-invalid')).toBe('true')
    expect(description('IBAN')).toContain('This IBAN is not valid')
  } else expect(input('IBAN').getAttribute('aria-invalid')).toBeNull()
  // The remembered and corrected fields are marked.
  expect(description('Business name')).toContain('Remembered for this supplier')
  expect(description('Invoice number')).toContain('Corrected by a user')
}

/** A confirmation under way: its button says so, and nothing else can be sent. */
function expectConfirming() {
  expect(button('Confirming…').disabled).toBe(true)
  expect(button('Save and next').disabled).toBe(true)
}

const INPUT = {
  kind: 'invoice' as const,
  id: 7,
  companyId: 3,
  document: editedRecord,
  language: 'en' as const,
}

describeViewModel('document edit fields', {
  machine: documentEditMachine,
  input: INPUT,
  actors: ['saveCorrection', 'confirmDocument', 'loadHistory'],
  mount: (machine, inspect, clock) => {
    const actor = createActor(machine, {
      inspect,
      clock,
      input: INPUT,
    })
    actor.start()
    return {
      element: inApp(
        <DocumentFieldsView actor={actor} />,
        testActors({ session: createActor(sessionMachine) }),
      ),
      actor: actor as AnyActorRef,
    }
  },
  render: (element) => render(element),
  ui: {
    'field.change': (user, event) => type(user, LABELS[String(event.field)]!, String(event.text)),
    'edit.save': async (user) => {
      const save = button('Save corrections')
      if (!save.disabled) await user.click(save)
    },
    'edit.reset': (user) => user.click(button('Undo changes')),
    'discard.confirm': (user) => user.click(button('Discard')),
    'discard.cancel': (user) => user.click(button('Keep editing')),
    'history.retry': (user) => user.click(button('Retry')),
    'edit.confirm': (user) => user.click(button('Confirm')),
    // Ctrl+Enter wherever the focus is (here in a field, where Enter alone would not move on).
    'review.next': async (user) => {
      await user.click(input('Invoice number'))
      await user.keyboard('{Control>}{Enter}{/Control}')
    },
    // J / K act outside the fields: typed in one, they are letters.
    'document.step': async (user, event) => {
      await user.click(screen.getByRole('heading', { name: 'Information' }))
      await user.keyboard(event.direction === 1 ? 'j' : 'k')
    },
    'help.open': async (user) => {
      await user.click(screen.getByRole('heading', { name: 'Information' }))
      await user.keyboard('?')
    },
    'help.close': (user) => user.click(button('Close shortcuts')),
  },
  events: editEvents,
  contextKey: editKey,
  allowed: editAllowed,
  limit: 1000,
  views: {
    'open.form.viewing': (s) => {
      fieldsMatch(s)
      expect(button('Save corrections').disabled).toBe(true)
      expect(screen.queryByText('Unsaved changes')).toBeNull()
    },
    'open.form.editing': (s) => {
      fieldsMatch(s)
      expect(screen.getByText('Unsaved changes')).toBeDefined()
      expect(button('Save corrections').disabled).toBe(Object.keys(ctx(s).errors).length > 0)
    },
    'open.form.confirmingDiscard': () =>
      expect(screen.getByRole('alertdialog', { name: 'Discard your changes?' })).toBeDefined(),
    'open.form.saving.stay': () => expect(button('Saving…').disabled).toBe(true),
    'open.form.saving.next': () => expect(button('Saving…').disabled).toBe(true),
    'open.form.confirming.stay': expectConfirming,
    'open.form.confirming.next': expectConfirming,
    'open.form.saved': (s) => {
      fieldsMatch(s)
      // A save took the typed number; a confirmation kept the record's.
      if (ctx(s).document.needs_review !== false) expect(input('Invoice number').value).toBe(NEW_NUMBER)
      expect(screen.queryByText('Unsaved changes')).toBeNull()
      expect(button('Confirm').disabled).toBe(false)
    },
    'open.help.closed': () => expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull(),
    'open.help.open': () => {
      const help = screen.getByRole('dialog', { name: 'Keyboard shortcuts' })
      expect(help.textContent).toContain('Ctrl+Enter')
      expect(help.textContent).toContain('Next document of the list')
    },
    'open.form.failed': (s) => {
      fieldsMatch(s)
      const alerts = screen.getAllByRole('alert').map((a) => a.textContent ?? '')
      const reason = ctx(s).failure!.reason
      if (reason === 'conflict')
        expect(alerts).toContain('The document is still being processed. Try again in a moment.')
      else if (reason === 'network') expect(alerts.join(' ')).toContain('The corrections could not be saved')
      else expect(alerts.join(' ')).toContain('Some values were refused')
      if (ctx(s).errors.invoice_number) expect(description('Invoice number')).toContain('Too long')
    },
    'open.history.loading': () => expect(screen.getByText('Loading history')).toBeDefined(),
    'open.history.loaded': () =>
      expect(screen.getByRole('list', { name: 'Changes', hidden: true }).textContent).toContain(
        'anna@example.com',
      ),
    'open.history.failed': () => expect(screen.getByText(/The history could not be loaded/)).toBeDefined(),
    closed: (s) => expect(s.status).toBe('done'),
  },
})

describe('document edit fields, the business address', () => {
  it('is a text of several lines: Enter adds a line and does not save', async () => {
    const sent: unknown[] = []
    const actor = createActor(
      documentEditMachine.provide({
        actors: {
          saveCorrection: fromPromise(({ input }) => {
            sent.push(input)
            return new Promise<never>(() => {})
          }),
          loadHistory: fromPromise(async (): Promise<HistoryChange[]> => []),
        },
      }),
      { input: INPUT },
    ).start()
    render(inApp(<DocumentFieldsView actor={actor} />, testActors({ session: createActor(sessionMachine) })))
    const address = (await screen.findByLabelText('Business address')) as HTMLTextAreaElement
    expect(address.tagName).toBe('TEXTAREA')
    const user = userEvent.setup()
    await user.clear(address)
    await user.type(address, '12 rue des Alpes{Enter}74000 Annecy')
    expect(address.value).toBe('12 rue des Alpes\n74000 Annecy')
    expect(sent).toEqual([])
    expect(actor.getSnapshot().matches({ open: { form: 'editing' } })).toBe(true)
    await user.click(button('Save corrections'))
    expect(sent).toEqual([
      {
        kind: 'invoice',
        id: 7,
        companyId: 3,
        changes: { business_address: '12 rue des Alpes\n74000 Annecy' },
      },
    ])
  })
})

import { describe, expect, it } from 'vitest'
import { type AnyMachineSnapshot, createActor, fromPromise } from 'xstate'
import {
  type DocumentEditContext,
  documentEditMachine,
  type HistoryChange,
} from '../../src/machines/details/document-edit.machine'
import type { ControlledActors } from '../support/graph'
import { describeModel } from '../support/model'
import {
  BAD_IBAN,
  confirmedRecord,
  correctedRecord,
  editAllowed,
  editEvents,
  editedRecord,
  editKey,
  NEW_NUMBER,
} from './document-edit-fixtures'

const input = {
  kind: 'invoice' as const,
  id: 7,
  companyId: 3,
  document: editedRecord,
  language: 'en' as const,
}
const ctx = (s: { context: unknown }) => s.context as DocumentEditContext
let controls: ControlledActors | undefined

const provideFakes = (machine: typeof documentEditMachine, record: (entry: string) => void) =>
  machine.provide({
    actions: {
      notify: (_, p) =>
        record(
          p.notice === 'saved'
            ? `notify:saved:${p.status}`
            : p.notice === 'confirmed'
              ? 'notify:confirmed'
              : `notify:${p.notice}:${p.failure.reason}`,
        ),
      announceSaved: (_, p) =>
        record(`announce:${p.document.status}:${p.quality ? p.quality.errors.length : 'kept'}`),
      close: (_, p) => record(`close:${p.step}`),
    },
  })

/** A save under way: only what changed is sent, and nothing leaves meanwhile. */
function assertSaving(s: AnyMachineSnapshot) {
  expect(s.hasTag('busy')).toBe(true)
  const call = controls!.calls.filter((c) => c.src === 'saveCorrection').at(-1)
  // Only what changed is sent, parsed: the typed number, or a second guess picked after a save.
  expect(call?.input).toEqual({
    kind: 'invoice',
    id: 7,
    companyId: 3,
    changes: { invoice_number: ctx(s).values.invoice_number },
  })
  expect([NEW_NUMBER, 'FA-2026-0621']).toContain(ctx(s).values.invoice_number)
  expect(s.can({ type: 'dialog.close' })).toBe(false)
}

/** A confirmation under way: the document's scope is sent, and nothing leaves meanwhile. */
function assertConfirming(s: AnyMachineSnapshot) {
  expect(s.hasTag('busy')).toBe(true)
  expect(s.hasTag('dirty')).toBe(false)
  const call = controls!.calls.filter((c) => c.src === 'confirmDocument').at(-1)
  expect(call?.input).toEqual({ kind: 'invoice', id: 7, companyId: 3 })
  // Nothing leaves while the confirmation is under way.
  expect(s.can({ type: 'dialog.close' })).toBe(false)
  expect(s.can({ type: 'document.step', direction: 1 })).toBe(false)
}

describeModel('document edit machine', {
  machine: documentEditMachine,
  input,
  actors: ['saveCorrection', 'confirmDocument', 'loadHistory'],
  provide: (machine, c, record) => {
    controls = c
    return provideFakes(machine, record)
  },
  events: editEvents,
  contextKey: editKey,
  allowed: editAllowed,
  limit: 1000,
  states: {
    'open.form.viewing': (s) => {
      expect(s.hasTag('dirty')).toBe(false)
      expect(ctx(s).values).toEqual(ctx(s).initial)
      expect(s.can({ type: 'edit.save' })).toBe(false)
    },
    'open.form.editing': (s) => {
      expect(s.hasTag('dirty')).toBe(true)
      const c = ctx(s)
      expect(Object.keys(c.values).some((f) => c.values[f as 'iban'] !== c.initial[f as 'iban'])).toBe(true)
      // A wrong IBAN is refused as typed, and blocks the save.
      if (c.values.iban === BAD_IBAN) {
        expect(c.errors.iban).toEqual({ code: 'invalidIban' })
        expect(s.can({ type: 'edit.save' })).toBe(false)
      } else expect(c.errors.iban).toBeUndefined()
    },
    'open.form.confirmingDiscard': (s) => {
      expect(s.hasTag('dirty')).toBe(true)
      expect(s.can({ type: 'discard.confirm' })).toBe(true)
    },
    'open.form.saving.stay': assertSaving,
    // Save and next: the save goes out the same way.
    'open.form.saving.next': assertSaving,
    'open.form.saved': (s, log) => {
      const c = ctx(s)
      expect(s.hasTag('dirty')).toBe(false)
      if (log.at(-1) === 'announce:FAILED:kept') {
        // Confirmed as it is: the record the server answered, its findings left as they were.
        expect(c.document).toEqual(confirmedRecord)
        expect(log.at(-2)).toBe('notify:confirmed')
        return
      }
      expect(c.document).toEqual(correctedRecord)
      expect(c.values.invoice_number).toBe(NEW_NUMBER)
      expect(log).toContain('notify:saved:COMPLETED')
      // The dialog gets the saved record and its findings (its header shows that status).
      expect(log.at(-1)).toBe('announce:COMPLETED:0')
    },
    'open.form.confirming.stay': assertConfirming,
    'open.form.confirming.next': assertConfirming,
    'open.help.closed': (s) => expect(s.can({ type: 'help.open' })).toBe(true),
    'open.help.open': (s) => expect(s.can({ type: 'help.close' })).toBe(true),
    'open.form.failed': (s, log) => {
      const c = ctx(s)
      expect(s.hasTag('dirty')).toBe(true)
      expect(log.at(-1)).toBe(`notify:saveFailed:${c.failure!.reason}`)
      if (c.failure!.reason === 'invalid' && c.values.invoice_number === NEW_NUMBER)
        expect(c.errors.invoice_number).toEqual({ message: 'Too long' })
      if (c.failure!.reason === 'conflict') expect(c.failure!.message).toBe('Document is still processing')
    },
    'open.history.loading': (s) => expect(s.matches({ open: { history: 'loading' } })).toBe(true),
    'open.history.loaded': (s) => expect(ctx(s).history).toHaveLength(1),
    'open.history.failed': (s) => expect(s.can({ type: 'history.retry' })).toBe(true),
    closed: (s, log) => {
      expect(s.status).toBe('done')
      const { step, document } = ctx(s)
      expect(log.at(-1)).toBe(`close:${step}`)
      // A record the server answered that the dialog was not told of: "Save and next" took it and
      // moved on to the next document, without a toast.
      const answered =
        document === confirmedRecord
          ? 'announce:FAILED:kept'
          : document === correctedRecord
            ? 'announce:COMPLETED:0'
            : undefined
      if (answered && log.filter((l) => l.startsWith('announce:')).at(-1) !== answered) {
        expect(step).toBe(1)
        expect(log.at(-2) ?? '').not.toMatch(/^notify:(saved|confirmed)/)
      }
    },
  },
})

describe('document edit machine, beyond the graph', () => {
  const start = (language: 'en' | 'fr', save = (_: unknown) => new Promise<never>(() => {})) => {
    const actor = createActor(
      documentEditMachine.provide({
        actors: {
          saveCorrection: fromPromise(({ input }) => save(input)),
          loadHistory: fromPromise(async (): Promise<HistoryChange[]> => []),
        },
      }),
      { input: { ...input, language } },
    )
    actor.start()
    return actor
  }

  it('shows dates and amounts in the user language and sends them as ISO and numbers', () => {
    const sent: unknown[] = []
    const actor = start('fr', (i) => {
      sent.push(i)
      return new Promise<never>(() => {})
    })
    expect(actor.getSnapshot().context.values.invoice_date).toBe('17/07/2026')
    expect(actor.getSnapshot().context.values.total_vat_amount).toBe('2084,70')
    actor.send({ type: 'field.change', field: 'invoice_date', text: '18/07/2026' })
    actor.send({ type: 'field.change', field: 'total_vat_amount', text: '2 084.75' })
    actor.send({ type: 'edit.save' })
    expect(sent).toEqual([
      {
        kind: 'invoice',
        id: 7,
        companyId: 3,
        changes: { invoice_date: '2026-07-18', total_vat_amount: 2084.75 },
      },
    ])
  })

  it('refuses a date that does not exist, in either language', () => {
    const actor = start('en')
    actor.send({ type: 'field.change', field: 'due_date', text: '2024-13-45' })
    expect(actor.getSnapshot().context.errors.due_date).toEqual({ code: 'invalidDate' })
    actor.send({ type: 'field.change', field: 'due_date', text: '08/31/2026' })
    expect(actor.getSnapshot().context.errors.due_date).toBeUndefined()
  })

  it('undoes every change at once', () => {
    const actor = start('en')
    actor.send({ type: 'field.change', field: 'business_name', text: 'Other' })
    actor.send({ type: 'edit.reset' })
    expect(actor.getSnapshot().matches({ open: { form: 'viewing' } })).toBe(true)
    expect(actor.getSnapshot().context.values.business_name).toBe('Alpinea Expertise SARL')
  })
})

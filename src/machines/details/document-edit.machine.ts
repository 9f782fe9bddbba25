/**
 * Correcting and reviewing an invoice's or expense's fields in its detail dialog. Three regions:
 * `form` — viewing → editing (each field's text kept, validated as typed, dirty while it differs
 * from the record) → saving (only the changed fields) → saved / failed (the server refused a value,
 * the document is still processing, or the call failed); `confirming` records that the record is
 * right as it is; leaving (close, or stepping to the next / previous document of the list) with
 * unsaved changes asks to discard first, and "Save and next" saves (or confirms) then steps on —
 * `history`, the record's changes, reloaded after each save — and `help`, the keyboard shortcuts.
 */
import * as v from 'valibot'
import { and, assign, not, raise, setup, stateIn } from 'xstate'
import { FieldIssue, type FinancialDocument, type FinancialKind, type QualityData } from '../../../contract'
import {
  type Correction,
  correctionBody,
  EDITABLE_FIELDS,
  type EditableField,
  type FieldErrorCode,
  fieldText,
  fieldTextFromPage,
  parseField,
} from '../../../contract/document-fields'
import { toFailure } from '../shared/failure'
import { promisePlaceholder } from '../shared/placeholder'

type Language = 'en' | 'fr'

export type DocumentEditInput = {
  kind: FinancialKind
  id: number
  companyId: number
  document: FinancialDocument
  language: Language
}

/** A field's problem: a code of the form's own checks, or the server's message for a refused value. */
export type FieldError = { code: FieldErrorCode } | { message: string }

/** Why the last save failed: a value refused (400), still processing (409), or the call itself. */
export type SaveFailure = { reason: 'invalid' | 'conflict' | 'network'; message: string }

/** One recorded change (`GET …/{id}/history`), newest first. */
export type HistoryChange = {
  field: string
  old_value?: string | number | boolean | null | undefined
  new_value?: string | number | boolean | null | undefined
  user?: { id: number; email: string } | null | undefined
  at: string
}

export type SavedCorrection = { document: FinancialDocument; quality: QualityData }

type Texts = Partial<Record<EditableField, string>>

export type DocumentEditContext = Omit<DocumentEditInput, 'document'> & {
  document: FinancialDocument
  /** The inputs' texts as the record gives them. */
  initial: Texts
  /** The inputs' texts as the user typed them. */
  values: Texts
  errors: Partial<Record<EditableField, FieldError>>
  failure: SaveFailure | null
  history: HistoryChange[]
  /** Where the form goes once it leaves: null closes the dialog, a direction opens the neighbour. */
  step: Direction | null
}

/** The next (1) or previous (-1) document of the host's list. */
export type Direction = 1 | -1

export type DocumentEditEvent =
  | { type: 'field.change'; field: EditableField; text: string }
  /** Text picked on the page for a field: read for the field's type, then typed in. */
  | { type: 'field.pick'; field: EditableField; text: string }
  /** One of the engine's second guesses for a field: saved at once when nothing else is being edited. */
  | { type: 'alternative.pick'; field: EditableField; value: unknown }
  | { type: 'edit.save' }
  | { type: 'edit.reset' }
  /** "Confirm": the record is right as it is (takes it out of the review queue). */
  | { type: 'edit.confirm' }
  /** "Save and next" (Ctrl+Enter): saves the changes, or confirms an unchanged record, then steps on. */
  | { type: 'review.next' }
  /** J / K: the next or previous document of the list (asks first when changes are unsaved). */
  | { type: 'document.step'; direction: Direction }
  | { type: 'help.open' }
  | { type: 'help.close' }
  | { type: 'dialog.close' }
  | { type: 'discard.confirm' }
  | { type: 'discard.cancel' }
  | { type: 'history.retry' }
  | { type: 'history.reload' }

export type DocumentEditNoticeParams =
  | { notice: 'saved'; kind: FinancialKind; status: string }
  | { notice: 'saveFailed'; kind: FinancialKind; failure: SaveFailure }
  | { notice: 'confirmed'; kind: FinancialKind }
  | { notice: 'confirmFailed'; kind: FinancialKind; failure: SaveFailure }

type Scope = { kind: FinancialKind; id: number; companyId: number }

type AlternativeEvent = Extract<DocumentEditEvent, { type: 'alternative.pick' }>
type StepEvent = Extract<DocumentEditEvent, { type: 'document.step' }>

/** An alternative's value as the field's input shows it. */
const alternativeText = (c: Pick<DocumentEditContext, 'language'>, e: AlternativeEvent) => ({
  field: e.field,
  text: fieldText(e.field, e.value, c.language),
})

const applyAlternative = {
  type: 'applyChange',
  params: ({ context, event }: { context: DocumentEditContext; event: AlternativeEvent }) =>
    alternativeText(context, event),
} as const

const textsOf = (kind: FinancialKind, document: FinancialDocument, language: Language): Texts =>
  Object.fromEntries(
    EDITABLE_FIELDS[kind].map((f) => [f, fieldText(f, document[f as keyof FinancialDocument], language)]),
  )

/** The fields whose text differs from the record's, with their texts. */
const changedFields = (c: Pick<DocumentEditContext, 'initial' | 'values'>): Texts =>
  Object.fromEntries(
    (Object.entries(c.values) as [EditableField, string][]).filter(([f, text]) => text !== c.initial[f]),
  )

const isDirtyContext = (c: Pick<DocumentEditContext, 'initial' | 'values'>) =>
  Object.keys(changedFields(c)).length > 0

const scopeOf = (c: DocumentEditContext): Scope => ({ kind: c.kind, id: c.id, companyId: c.companyId })

const statusOf = (error: unknown) => toFailure(error).status

/** The 400 answer's `{field, message}` details of the fields this form shows. */
function refusedFields(error: unknown, kind: FinancialKind): Partial<Record<EditableField, FieldError>> {
  const detail = (error as { detail?: unknown } | null)?.detail
  if (!v.is(v.array(FieldIssue), detail)) return {}
  const fields = EDITABLE_FIELDS[kind] as readonly string[]
  return Object.fromEntries(
    detail.filter((i) => fields.includes(i.field)).map((i) => [i.field, { message: i.message }]),
  )
}

const failureOf = (error: unknown, reason: SaveFailure['reason']): SaveFailure => ({
  reason,
  message: toFailure(error).message,
})

/** Why a call failed, for its notice: still processing (409), or the call itself. */
const confirmFailureOf = (error: unknown): SaveFailure =>
  failureOf(error, statusOf(error) === 409 ? 'conflict' : 'network')

/** What a save or a confirmation does once it succeeds: stay on the form, or open the next document. */
const THEN = {
  initial: 'stay',
  states: { stay: {}, next: { description: 'Started by "Save and next".' } },
} as const

/**
 * Leaving the form (Escape or close, J / K): at rest straight to `closed`, which closes the dialog or
 * opens the neighbour; with unsaved changes to `confirmingDiscard`, which asks first.
 */
const leaveTo = (target: '#documentEdit.closed' | '#documentEdit.open.form.confirmingDiscard') =>
  ({
    'dialog.close': { target, actions: { type: 'setStep', params: { step: null } } },
    'document.step': {
      target,
      actions: { type: 'setStep', params: ({ event }: { event: StepEvent }) => ({ step: event.direction }) },
    },
  }) as const

/** The form at rest (nothing to save): typing edits, a second guess saves, Confirm confirms. */
const atRest = {
  'field.change': {
    target: 'editing',
    actions: {
      type: 'applyChange',
      params: ({ event }: { event: { field: EditableField; text: string } }) => event,
    },
  },
  ...leaveTo('#documentEdit.closed'),
  'alternative.pick': {
    guard: 'isNewValidAlternative',
    target: 'saving',
    description: 'A second guess picked with nothing else changed: saved at once.',
    actions: applyAlternative,
  },
  'edit.confirm': 'confirming',
  'review.next': {
    target: 'confirming.next',
    description: 'Save and next with nothing changed: the record is confirmed as it is, then the next opens.',
  },
} as const

export const documentEditMachine = setup({
  types: {} as { context: DocumentEditContext; events: DocumentEditEvent; input: DocumentEditInput },
  actors: {
    saveCorrection: promisePlaceholder<SavedCorrection, Scope & { changes: Correction }>('saveCorrection'),
    confirmDocument: promisePlaceholder<FinancialDocument, Scope>('confirmDocument'),
    loadHistory: promisePlaceholder<HistoryChange[], Scope>('loadHistory'),
  },
  actions: {
    notify: (_, _params: DocumentEditNoticeParams) => {},
    /**
     * The document changed on the server: the dialog that holds these fields takes the record (and
     * the findings of a save; a confirmation leaves them as they were).
     */
    announceSaved: (_, _params: { document: FinancialDocument; quality?: QualityData }) => {},
    /** The form is done: the dialog closes (step null) or opens the next / previous document. */
    close: (_, _params: { step: Direction | null }) => {},
    applyChange: assign(({ context }, p: { field: EditableField; text: string }) => {
      const parsed = parseField(p.field, p.text, context.language)
      const errors = { ...context.errors }
      if (parsed.ok) delete errors[p.field]
      else errors[p.field] = { code: parsed.error }
      return { values: { ...context.values, [p.field]: p.text }, errors, failure: null }
    }),
    discardChanges: assign(({ context }) => ({ values: context.initial, errors: {}, failure: null })),
    /** The record the server answered (a save or a confirmation): the form starts again from it. */
    takeRecord: assign(({ context }, document: FinancialDocument) => {
      const initial = textsOf(context.kind, document, context.language)
      return { document, initial, values: initial, errors: {}, failure: null }
    }),
    setStep: assign((_, p: { step: Direction | null }) => ({ step: p.step })),
  },
  guards: {
    isDirty: ({ context }) => isDirtyContext(context),
    isValid: ({ context }) => Object.keys(context.errors).length === 0,
    /** An alternative that reads as the field's type and differs from what the field holds. */
    isNewValidAlternative: ({ context, event }) => {
      if (event.type !== 'alternative.pick') return false
      const { field, text } = alternativeText(context, event)
      return text !== context.values[field] && parseField(field, text, context.language).ok
    },
    isRefused: ({ event }) => statusOf((event as { error?: unknown }).error) === 400,
    isProcessing: ({ event }) => statusOf((event as { error?: unknown }).error) === 409,
  },
}).createMachine({
  id: 'documentEdit',
  context: ({ input }) => {
    const initial = textsOf(input.kind, input.document, input.language)
    return {
      ...input,
      initial,
      values: initial,
      errors: {},
      failure: null,
      history: [],
      step: null,
    }
  },
  initial: 'open',
  states: {
    open: {
      type: 'parallel',
      on: {
        'field.pick': {
          description: 'Text picked on the page: read for the field type, then handled as typed.',
          actions: raise(({ context, event }) => ({
            type: 'field.change' as const,
            field: event.field,
            text: fieldTextFromPage(event.field, event.text, context.language),
          })),
        },
      },
      states: {
        form: {
          initial: 'viewing',
          states: {
            viewing: { on: atRest },
            editing: {
              tags: ['dirty'],
              always: {
                guard: not('isDirty'),
                target: 'viewing',
                description: 'Typed back to what the record holds: nothing left to save.',
              },
              on: {
                'field.change': { actions: { type: 'applyChange', params: ({ event }) => event } },
                'alternative.pick': {
                  guard: 'isNewValidAlternative',
                  description: 'Other changes wait to be saved: the second guess joins them.',
                  actions: applyAlternative,
                },
                'edit.save': { guard: 'isValid', target: 'saving' },
                'review.next': {
                  guard: 'isValid',
                  target: 'saving.next',
                  description: 'Save and next: the changes are saved, then the next document opens.',
                },
                'edit.reset': { target: 'viewing', actions: 'discardChanges' },
                ...leaveTo('#documentEdit.open.form.confirmingDiscard'),
              },
            },
            confirmingDiscard: {
              tags: ['dirty'],
              on: {
                'discard.confirm': { target: '#documentEdit.closed', actions: 'discardChanges' },
                'discard.cancel': { target: 'editing', actions: { type: 'setStep', params: { step: null } } },
              },
            },
            saving: {
              tags: ['dirty', 'busy'],
              ...THEN,
              invoke: {
                id: 'saveCorrection',
                src: 'saveCorrection',
                input: ({ context }) => ({
                  ...scopeOf(context),
                  changes: correctionBody(changedFields(context), context.language) ?? {},
                }),
                onDone: [
                  {
                    guard: stateIn({ open: { form: { saving: 'next' } } }),
                    target: '#documentEdit.closed',
                    description:
                      'Saved by "Save and next": the next document opens (the host list reloads then).',
                    actions: [
                      { type: 'takeRecord', params: ({ event }) => event.output.document },
                      { type: 'setStep', params: { step: 1 as const } },
                    ],
                  },
                  {
                    target: 'saved',
                    actions: [
                      { type: 'takeRecord', params: ({ event }) => event.output.document },
                      {
                        type: 'notify',
                        params: ({ context, event }) => ({
                          notice: 'saved' as const,
                          kind: context.kind,
                          status: event.output.document.status,
                        }),
                      },
                      { type: 'announceSaved', params: ({ event }) => event.output },
                      raise({ type: 'history.reload' }),
                    ],
                  },
                ],
                onError: [
                  {
                    guard: 'isRefused',
                    target: 'failed',
                    description: 'A value the server refuses (400): its message shows on the field.',
                    actions: assign(({ context, event }) => ({
                      errors: { ...context.errors, ...refusedFields(event.error, context.kind) },
                      failure: failureOf(event.error, 'invalid'),
                    })),
                  },
                  {
                    guard: 'isProcessing',
                    target: 'failed',
                    description: 'The document is still queued or processing (409).',
                    actions: assign({ failure: ({ event }) => failureOf(event.error, 'conflict') }),
                  },
                  {
                    target: 'failed',
                    actions: assign({ failure: ({ event }) => failureOf(event.error, 'network') }),
                  },
                ],
              },
            },
            confirming: {
              tags: ['busy'],
              description: 'The record is confirmed as it is: who and when go to its history.',
              ...THEN,
              invoke: {
                id: 'confirmDocument',
                src: 'confirmDocument',
                input: ({ context }) => scopeOf(context),
                onDone: [
                  {
                    guard: stateIn({ open: { form: { confirming: 'next' } } }),
                    target: '#documentEdit.closed',
                    description:
                      'Confirmed by "Save and next": the next document opens (the host list reloads then).',
                    actions: [
                      { type: 'takeRecord', params: ({ event }) => event.output },
                      { type: 'setStep', params: { step: 1 as const } },
                    ],
                  },
                  {
                    target: 'saved',
                    actions: [
                      { type: 'takeRecord', params: ({ event }) => event.output },
                      {
                        type: 'notify',
                        params: ({ context }) => ({ notice: 'confirmed' as const, kind: context.kind }),
                      },
                      { type: 'announceSaved', params: ({ event }) => ({ document: event.output }) },
                      raise({ type: 'history.reload' }),
                    ],
                  },
                ],
                onError: {
                  target: 'viewing',
                  description:
                    'Not confirmed (still processing, or the call failed): the form stays as it was.',
                  actions: {
                    type: 'notify',
                    params: ({ context, event }) => ({
                      notice: 'confirmFailed' as const,
                      kind: context.kind,
                      failure: confirmFailureOf(event.error),
                    }),
                  },
                },
              },
            },
            saved: { on: atRest },
            failed: {
              tags: ['dirty'],
              entry: {
                type: 'notify',
                params: ({ context }) => ({
                  notice: 'saveFailed' as const,
                  kind: context.kind,
                  failure: context.failure!,
                }),
              },
              on: {
                'field.change': {
                  target: 'editing',
                  actions: { type: 'applyChange', params: ({ event }) => event },
                },
                'edit.save': { guard: and(['isDirty', 'isValid']), target: 'saving' },
                'review.next': { guard: and(['isDirty', 'isValid']), target: 'saving.next' },
                'edit.reset': { target: 'viewing', actions: 'discardChanges' },
                ...leaveTo('#documentEdit.open.form.confirmingDiscard'),
              },
            },
          },
        },
        history: {
          initial: 'loading',
          on: { 'history.reload': '.loading' },
          states: {
            loading: {
              invoke: {
                id: 'loadHistory',
                src: 'loadHistory',
                input: ({ context }) => scopeOf(context),
                onDone: { target: 'loaded', actions: assign({ history: ({ event }) => event.output }) },
                onError: 'failed',
              },
            },
            loaded: {},
            failed: { on: { 'history.retry': 'loading' } },
          },
        },
        help: {
          description: 'The keyboard shortcuts (`?`).',
          initial: 'closed',
          states: {
            closed: { on: { 'help.open': 'open' } },
            open: { on: { 'help.close': 'closed' } },
          },
        },
      },
    },
    closed: { type: 'final', entry: { type: 'close', params: ({ context }) => ({ step: context.step }) } },
  },
})

export type DocumentEditMachine = typeof documentEditMachine

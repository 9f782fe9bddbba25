/**
 * The detail dialog's fields, editable in place: one input per field the kind lets a user correct
 * (its error tied to it), the corrected and remembered fields marked, Save (only what changed) and
 * Undo, the discard question, the status and findings after a save, and a short history. The view
 * reads the `documentEdit` actor and sends; the machine validates, saves and decides.
 */
import { Menu } from '@ark-ui/react/menu'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { type ReactNode, useEffect, useSyncExternalStore } from 'react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { button, menu, text as textRecipe } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import {
  type FieldEvidence,
  type FinancialDocument,
  type FinancialKind,
  REVIEW_CONFIDENCE,
} from '../../../../contract'
import {
  EDITABLE_FIELDS,
  type EditableField,
  fieldShape,
  fieldText,
} from '../../../../contract/document-fields'
import type {
  DocumentEditMachine,
  FieldError,
  HistoryChange,
} from '../../../machines/details/document-edit.machine'
import { useScreenActor } from '../../app-context'
import { Alert } from '../../components/alert'
import { Badge } from '../../components/badge'
import { Button } from '../../components/button'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { TextAreaField, TextField } from '../../components/field'
import { SelectField } from '../../components/select'
import { i18n } from '../../i18n'
import { messageText } from '../../message-texts'
import type { DocumentPreviewActor } from './document-preview'
import { ShortcutsHelp, useReviewKeys } from './review-keys'

export type DocumentEditActor = ActorRefFrom<DocumentEditMachine>

const LABELS = {
  invoice_number: msg`Invoice number`,
  invoice_date: msg`Invoice date`,
  due_date: msg`Due date`,
  expense_date: msg`Expense date`,
  business_name: msg`Business name`,
  business_address: msg`Business address`,
  vat_number: msg`VAT number`,
  iban: msg`IBAN`,
  currency: msg`Currency`,
  has_vat: msg`VAT applicable`,
  total_charge_excluding_vat: msg`Total excluding VAT`,
  total_vat_amount: msg`VAT amount`,
  total_invoice_including_vat: msg`Total including VAT`,
} as const

/** A field's name in the active language (history rows name fields the form may not show). */
const fieldLabel = (field: string) =>
  field in LABELS ? i18n._(LABELS[field as EditableField]) : field.replaceAll('_', ' ')

const dateForm = () => (i18n.locale === 'fr' ? i18n._(msg`DD/MM/YYYY`) : i18n._(msg`MM/DD/YYYY`))

function errorText(error: FieldError | undefined): string | undefined {
  if (!error) return undefined
  if ('message' in error) return messageText(error.message)
  switch (error.code) {
    case 'invalidDate': {
      const form = dateForm()
      return i18n._(msg`Enter a valid date (${form})`)
    }
    case 'invalidAmount':
      return i18n._(msg`Enter an amount such as 1234.50 or 1234,50`)
    case 'invalidIban':
      return i18n._(msg`This IBAN is not valid (its check digits do not match)`)
    case 'invalidVatNumber':
      return i18n._(msg`Enter a VAT number: a country code then its digits (FR12345678901)`)
    case 'invalidCurrency':
      return i18n._(msg`Enter a three-letter currency code (EUR, CHF)`)
  }
}

/**
 * Where the value came from when no box on the page shows it: the e-invoice, supplier memory, or a
 * user's correction.
 */
function sourceText(source: string | undefined): string | null {
  if (source === 'user') return i18n._(msg`Corrected by a user`)
  if (source === 'memory') return i18n._(msg`Remembered for this supplier`)
  if (source === 'xml') return i18n._(msg`From the e-invoice`)
  return null
}

/** Whether the engine is unsure of a field it read on the page. */
const needsCheck = (evidence: FieldEvidence | undefined) =>
  !!evidence && evidence.confidence < REVIEW_CONFIDENCE

/** The first field to check, in the form's order (the dialog opens on it). */
const firstToCheck = (kind: FinancialKind, document: FinancialDocument) =>
  EDITABLE_FIELDS[kind].find((f) => needsCheck(document.field_evidence?.[f]))

const NO_PREVIEW = { subscribe: () => ({ unsubscribe: () => {} }), getSnapshot: () => null }

/** Whether the preview outlines this field (false without a preview). */
function useHighlighted(preview: DocumentPreviewActor | null, field: EditableField) {
  const source = preview ?? NO_PREVIEW
  return useSyncExternalStore(
    (changed) => {
      const subscription = source.subscribe(changed)
      return () => subscription.unsubscribe()
    },
    () => source.getSnapshot()?.context.highlighted === field,
  )
}

function CheckHint() {
  const { t } = useLingui()
  return (
    <span className={css({ display: 'inline-flex', gap: '1.5', alignItems: 'center', flexWrap: 'wrap' })}>
      <Badge tone="warning">{t`Check`}</Badge>
      <span>{t`Uncertain reading: compare it with the page`}</span>
    </span>
  )
}

/** The engine's second guesses for a field, each saved as a correction when picked. */
function AlternativesMenu({ actor, field }: { actor: DocumentEditActor; field: EditableField }) {
  const { t } = useLingui()
  const alternatives = useSelector(actor, (s) => s.context.document.field_evidence?.[field]?.alternatives)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  if (!alternatives?.length) return null
  const label = i18n._(LABELS[field])
  const language = i18n.locale === 'fr' ? 'fr' : 'en'
  const classes = menu()
  return (
    <Menu.Root
      positioning={{ placement: 'bottom-start', strategy: 'fixed' }}
      onSelect={({ value }) => {
        const picked = alternatives[Number(value)]
        if (picked) actor.send({ type: 'alternative.pick', field, value: picked.value })
      }}
    >
      <Menu.Trigger
        disabled={busy}
        className={button({ variant: 'ghost', size: 'sm' })}
        aria-label={t`Other readings of ${label}`}
      >
        {t`Other readings`}
      </Menu.Trigger>
      <Menu.Positioner>
        <Menu.Content className={classes.content}>
          {alternatives.map((a, i) => {
            const text = fieldText(field, a.value, language) || '—'
            const page = a.page
            return (
              <Menu.Item key={`${a.page}-${a.box.join()}-${text}`} value={String(i)} className={classes.item}>
                {t`${text} (page ${page})`}
              </Menu.Item>
            )
          })}
        </Menu.Content>
      </Menu.Positioner>
    </Menu.Root>
  )
}

const highlight = css({
  outlineWidth: '3px',
  outlineStyle: 'solid',
  outlineColor: 'blue.600',
  outlineOffset: '4px',
  borderRadius: 'sm',
})

type FieldProps = { actor: DocumentEditActor; field: EditableField; preview: DocumentPreviewActor | null }

function FieldInput({ actor, field, preview }: FieldProps) {
  const value = useSelector(actor, (s) => s.context.values[field] ?? '')
  const error = useSelector(actor, (s) => s.context.errors[field])
  const source = useSelector(actor, (s) => s.context.document.field_sources?.[field])
  const evidence = useSelector(actor, (s) => s.context.document.field_evidence?.[field])
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const highlighted = useHighlighted(preview, field)
  const label = i18n._(LABELS[field])
  const id = `edit-${field}`
  const change = (text: string) => actor.send({ type: 'field.change', field, text })
  // A box on the page says where the value was read; without one, its source does.
  const mark = evidence ? null : sourceText(source)
  const check = needsCheck(evidence)
  const hint: ReactNode[] = [fieldShape(field) === 'date' ? dateForm() : null, mark].filter(Boolean)
  const hintNode =
    hint.length || check ? (
      <>
        {hint.join(' · ')}
        {hint.length && check ? ' · ' : null}
        {check ? <CheckHint /> : null}
      </>
    ) : undefined
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover mirrors focus, which the input itself takes
    <div
      data-source={source}
      data-check={check || undefined}
      data-highlighted={highlighted || undefined}
      className={highlighted ? highlight : undefined}
      onFocus={() => preview?.send({ type: 'field.focus', field })}
      // A pointer that moved, not one the panel scrolled under (focusing a field scrolls it): a
      // resting pointer must not take the outline from the field being typed in.
      onMouseMove={(e) => {
        if (!highlighted && (e.movementX !== 0 || e.movementY !== 0))
          preview?.send({ type: 'field.hover', field })
      }}
      onMouseLeave={() => preview?.send({ type: 'field.leave' })}
    >
      <FieldControl
        id={id}
        label={label}
        field={field}
        value={value}
        busy={busy}
        error={error}
        hint={hintNode}
        change={change}
      />
      <AlternativesMenu actor={actor} field={field} />
    </div>
  )
}

type ControlProps = {
  id: string
  label: string
  field: EditableField
  value: string
  busy: boolean
  error: FieldError | undefined
  hint: ReactNode
  change: (text: string) => void
}

function FieldControl({ id, label, field, value, busy, error, hint, change }: ControlProps) {
  const { t } = useLingui()
  if (fieldShape(field) === 'boolean')
    return (
      <div>
        <SelectField
          id={id}
          label={label}
          value={value}
          disabled={busy}
          options={[
            { value: '', label: '—' },
            { value: 'true', label: t`Yes` },
            { value: 'false', label: t`No` },
          ]}
          onChange={(e) => change(e.target.value)}
        />
        {hint ? <p className={textRecipe({ tone: 'muted', size: 'sm' })}>{hint}</p> : null}
      </div>
    )
  const shared = { id, label, value, readOnly: busy, error: errorText(error), hint }
  return fieldShape(field) === 'address' ? (
    <TextAreaField {...shared} onChange={(e) => change(e.target.value)} />
  ) : (
    <TextField
      {...shared}
      inputMode={fieldShape(field) === 'amount' ? 'decimal' : undefined}
      onChange={(e) => change(e.target.value)}
    />
  )
}

function formatWhen(at: string) {
  const date = new Date(at)
  if (Number.isNaN(date.getTime())) return at
  return new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date)
}

const shown = (value: HistoryChange['old_value']) =>
  value === null || value === undefined || value === '' ? '—' : String(value)

/** The last changes, newest first. */
function History({ actor }: { actor: DocumentEditActor }) {
  const { t } = useLingui()
  const history = useSelector(actor, (s) => s.context.history)
  const loading = useSelector(actor, (s) => s.matches({ open: { history: 'loading' } }))
  const failed = useSelector(actor, (s) => s.matches({ open: { history: 'failed' } }))
  let content: ReactNode
  if (loading) content = <p className={textRecipe({ tone: 'muted', size: 'sm' })}>{t`Loading history`}</p>
  else if (failed)
    content = (
      <p className={textRecipe({ tone: 'muted', size: 'sm' })}>
        {t`The history could not be loaded.`}{' '}
        <Button variant="outline" size="sm" onClick={() => actor.send({ type: 'history.retry' })}>
          {t`Retry`}
        </Button>
      </p>
    )
  else if (!history.length)
    content = <p className={textRecipe({ tone: 'muted', size: 'sm' })}>{t`No changes yet`}</p>
  else
    content = (
      <ul aria-label={t`Changes`} className={stack({ gap: '1', fontSize: 'sm' })}>
        {history.slice(0, 5).map((h) => (
          <li key={`${h.at}-${h.field}`}>
            <strong>{fieldLabel(h.field)}</strong>: {shown(h.old_value)} → {shown(h.new_value)}{' '}
            <span className={textRecipe({ tone: 'muted' })}>
              {h.user?.email ?? t`the system`}, {formatWhen(h.at)}
            </span>
          </li>
        ))}
      </ul>
    )
  return (
    <section aria-labelledby="detail-history-title" className={stack({ gap: '2' })}>
      <h3 id="detail-history-title" className={css({ fontWeight: 'semibold' })}>
        {t`History`}
      </h3>
      {content}
    </section>
  )
}

function SaveFailureAlert({ actor }: { actor: DocumentEditActor }) {
  const { t } = useLingui()
  const failure = useSelector(actor, (s) =>
    s.matches({ open: { form: 'failed' } }) ? s.context.failure : null,
  )
  if (!failure) return null
  const reason = messageText(failure.message)
  return (
    <Alert status="error">
      {failure.reason === 'conflict'
        ? t`The document is still being processed. Try again in a moment.`
        : failure.reason === 'invalid'
          ? t`Some values were refused: ${reason}`
          : t`The corrections could not be saved: ${reason}`}
    </Alert>
  )
}

/** Save, Undo, Confirm, Save and next and the shortcuts: the form's actions, as the actor allows them. */
function FormActions({ actor }: { actor: DocumentEditActor }) {
  const { t } = useLingui()
  const dirty = useSelector(actor, (s) => s.hasTag('dirty'))
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const saving = useSelector(actor, (s) => s.matches({ open: { form: 'saving' } }))
  const confirming = useSelector(actor, (s) => s.matches({ open: { form: 'confirming' } }))
  const canSave = useSelector(actor, (s) => s.can({ type: 'edit.save' }))
  const canReset = useSelector(actor, (s) => s.can({ type: 'edit.reset' }))
  const canConfirm = useSelector(actor, (s) => s.can({ type: 'edit.confirm' }))
  const canGoOn = useSelector(actor, (s) => s.can({ type: 'review.next' }))
  return (
    <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })}>
      <Button type="submit" variant="solid" disabled={!canSave}>
        {saving ? t`Saving…` : t`Save corrections`}
      </Button>
      {canReset ? (
        <Button type="button" variant="outline" onClick={() => actor.send({ type: 'edit.reset' })}>
          {t`Undo changes`}
        </Button>
      ) : null}
      {dirty ? null : (
        <Button
          type="button"
          variant="outline"
          disabled={!canConfirm}
          aria-busy={confirming || undefined}
          onClick={() => actor.send({ type: 'edit.confirm' })}
        >
          {confirming ? t`Confirming…` : t`Confirm`}
        </Button>
      )}
      <Button
        type="button"
        variant="outline"
        disabled={!canGoOn}
        aria-keyshortcuts="Control+Enter"
        title={t`Ctrl+Enter`}
        onClick={() => actor.send({ type: 'review.next' })}
      >
        {t`Save and next`}
      </Button>
      <Button type="button" variant="ghost" size="sm" onClick={() => actor.send({ type: 'help.open' })}>
        {t`Keyboard shortcuts`}
      </Button>
      {dirty && !busy ? (
        <span className={textRecipe({ tone: 'muted', size: 'sm' })}>{t`Unsaved changes`}</span>
      ) : null}
    </div>
  )
}

/** The editable fields of a running `documentEdit` actor. */
export function DocumentFieldsView({
  actor,
  preview = null,
}: {
  actor: DocumentEditActor
  preview?: DocumentPreviewActor | null
}) {
  const { t } = useLingui()
  const kind = useSelector(actor, (s) => s.context.kind)
  const asking = useSelector(actor, (s) => s.matches({ open: { form: 'confirmingDiscard' } }))
  useReviewKeys(actor)
  return (
    <section aria-labelledby="detail-fields-title" className={stack({ gap: '4' })}>
      <h3 id="detail-fields-title" className={css({ fontWeight: 'semibold' })}>
        {t`Information`}
      </h3>
      <form
        noValidate
        aria-label={kind === 'invoice' ? t`Invoice fields` : t`Expense fields`}
        className={stack({ gap: '3' })}
        onSubmit={(e) => {
          e.preventDefault()
          actor.send({ type: 'edit.save' })
        }}
      >
        {EDITABLE_FIELDS[kind].map((field) => (
          <FieldInput key={field} actor={actor} field={field} preview={preview} />
        ))}
        <SaveFailureAlert actor={actor} />
        <FormActions actor={actor} />
      </form>
      <History actor={actor} />
      <ConfirmDialog
        open={asking}
        title={t`Discard your changes?`}
        description={t`The corrections you typed have not been saved.`}
        confirmLabel={t`Discard`}
        cancelLabel={t`Keep editing`}
        danger
        onConfirm={() => actor.send({ type: 'discard.confirm' })}
        onCancel={() => actor.send({ type: 'discard.cancel' })}
      />
      <ShortcutsHelp actor={actor} />
    </section>
  )
}

type EditableFieldsProps = {
  logic: DocumentEditMachine
  input: { kind: FinancialKind; id: number; companyId: number; document: FinancialDocument }
  /** Hands the running actor to the dialog (its close button and Escape go through it). */
  onActor: (actor: DocumentEditActor | null) => void
  /** The preview that outlines where each field was read, once it runs. */
  preview?: DocumentPreviewActor | null
}

/** Starts the `documentEdit` actor for a loaded record and shows its fields. */
export function EditableFields({ logic, input, onActor, preview = null }: EditableFieldsProps) {
  const actor = useScreenActor(logic, {
    input: { ...input, language: i18n.locale === 'fr' ? 'fr' : 'en' },
  })
  useEffect(() => {
    onActor(actor)
    return () => onActor(null)
  }, [actor, onActor])
  // The dialog opens on the first field to check, once.
  useEffect(() => {
    const { kind, document } = actor.getSnapshot().context
    const first = firstToCheck(kind, document)
    if (first) window.document.getElementById(`edit-${first}`)?.focus()
  }, [actor])
  return <DocumentFieldsView actor={actor} preview={preview} />
}

/**
 * The detail dialog's fields, editable in place: one input per field the kind lets a user correct
 * (its error tied to it), the corrected and remembered fields marked, Save (only what changed) and
 * Undo, the discard question, the status and findings after a save, and a short history. The view
 * reads the `documentEdit` actor and sends; the machine validates, saves and decides.
 */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { type ReactNode, useEffect } from 'react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { text as textRecipe } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import type { FinancialDocument, FinancialKind } from '../../../../contract'
import { EDITABLE_FIELDS, type EditableField, fieldShape } from '../../../../contract/document-fields'
import type {
  DocumentEditMachine,
  FieldError,
  HistoryChange,
} from '../../../machines/details/document-edit.machine'
import { useScreenActor } from '../../app-context'
import { Alert } from '../../components/alert'
import { Button } from '../../components/button'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { TextAreaField, TextField } from '../../components/field'
import { SelectField } from '../../components/select'
import { i18n } from '../../i18n'
import { messageText } from '../../message-texts'

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

/** Where the value came from, when a person decided it: corrected by a user, or remembered for this supplier. */
function sourceText(source: string | undefined): string | null {
  if (source === 'user') return i18n._(msg`Corrected by a user`)
  if (source === 'memory') return i18n._(msg`Remembered for this supplier`)
  return null
}

function FieldInput({ actor, field }: { actor: DocumentEditActor; field: EditableField }) {
  const { t } = useLingui()
  const value = useSelector(actor, (s) => s.context.values[field] ?? '')
  const error = useSelector(actor, (s) => s.context.errors[field])
  const source = useSelector(actor, (s) => s.context.document.field_sources?.[field])
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const label = i18n._(LABELS[field])
  const id = `edit-${field}`
  const change = (text: string) => actor.send({ type: 'field.change', field, text })
  const mark = sourceText(source)
  if (fieldShape(field) === 'boolean')
    return (
      <div data-source={source}>
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
        {mark ? <p className={textRecipe({ tone: 'muted', size: 'sm' })}>{mark}</p> : null}
      </div>
    )
  const hint = [fieldShape(field) === 'date' ? dateForm() : null, mark].filter(Boolean).join(' · ')
  const shared = { id, label, value, readOnly: busy, error: errorText(error), hint: hint || undefined }
  return (
    <div data-source={source}>
      {fieldShape(field) === 'address' ? (
        <TextAreaField {...shared} onChange={(e) => change(e.target.value)} />
      ) : (
        <TextField
          {...shared}
          inputMode={fieldShape(field) === 'amount' ? 'decimal' : undefined}
          onChange={(e) => change(e.target.value)}
        />
      )}
    </div>
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

/** The editable fields of a running `documentEdit` actor. */
export function DocumentFieldsView({ actor }: { actor: DocumentEditActor }) {
  const { t } = useLingui()
  const kind = useSelector(actor, (s) => s.context.kind)
  const dirty = useSelector(actor, (s) => s.hasTag('dirty'))
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const canSave = useSelector(actor, (s) => s.can({ type: 'edit.save' }))
  const canReset = useSelector(actor, (s) => s.can({ type: 'edit.reset' }))
  const asking = useSelector(actor, (s) => s.matches({ open: { form: 'confirmingDiscard' } }))
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
          <FieldInput key={field} actor={actor} field={field} />
        ))}
        <SaveFailureAlert actor={actor} />
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })}>
          <Button type="submit" variant="solid" disabled={!canSave}>
            {busy ? t`Saving…` : t`Save corrections`}
          </Button>
          {canReset ? (
            <Button type="button" variant="outline" onClick={() => actor.send({ type: 'edit.reset' })}>
              {t`Undo changes`}
            </Button>
          ) : null}
          {dirty && !busy ? (
            <span className={textRecipe({ tone: 'muted', size: 'sm' })}>{t`Unsaved changes`}</span>
          ) : null}
        </div>
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
    </section>
  )
}

type EditableFieldsProps = {
  logic: DocumentEditMachine
  input: { kind: FinancialKind; id: number; companyId: number; document: FinancialDocument }
  /** Hands the running actor to the dialog (its close button and Escape go through it). */
  onActor: (actor: DocumentEditActor | null) => void
}

/** Starts the `documentEdit` actor for a loaded record and shows its fields. */
export function EditableFields({ logic, input, onActor }: EditableFieldsProps) {
  const actor = useScreenActor(logic, {
    input: { ...input, language: i18n.locale === 'fr' ? 'fr' : 'en' },
  })
  useEffect(() => {
    onActor(actor)
    return () => onActor(null)
  }, [actor, onActor])
  return <DocumentFieldsView actor={actor} />
}

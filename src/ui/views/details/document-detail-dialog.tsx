/**
 * The invoice / expense detail dialog: the original drawn on the left (pdf.js, or the image) with
 * where each field was read, the fields and quality findings on the right, the actions below;
 * stacked below 768 px, the preview above the fields and foldable. Lazily loaded: `lazy(() => import('./details/document-detail-dialog'))`.
 * The view only reads the `documentDetail` actor and sends; the machine closes (injected `close`).
 */
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { type ReactNode, Suspense, use, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { text as textRecipe } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import {
  acceptAttribute,
  DOCUMENT_CATEGORIES,
  type DocumentCategory,
  type FieldEvidence,
  type FinancialDocument,
  type FinancialKind,
  type QualityData,
  type QualityItem,
} from '../../../../contract'
import type { EditableField } from '../../../../contract/document-fields'
import { DOCUMENT_CATEGORY_LABEL } from '../../../../contract/document-labels'
import {
  type DocumentDetailMachine,
  INVOICE_PDF_ONLY,
  isFailedStatus,
  originalName,
  RESUBMIT_TYPES,
} from '../../../machines/details/document-detail.machine'
import type { DocumentEditMachine } from '../../../machines/details/document-edit.machine'
import type { DocumentPreviewMachine } from '../../../machines/details/document-preview.machine'
import { useAppActors, useScreenActor } from '../../app-context'
import { Alert } from '../../components/alert'
import { Button } from '../../components/button'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { Definitions } from '../../components/definitions'
import { DialogFrame } from '../../components/dialog'
import { SelectField } from '../../components/select'
import { Spinner } from '../../components/spinner'
import { i18n } from '../../i18n'
import { messageText } from '../../message-texts'
import { StatusBadge } from '../dashboard/status-badge'
import { type DocumentEditActor, EditableFields } from './document-fields'
import { DocumentPreview, type DocumentPreviewActor } from './document-preview'
import { EInvoiceDocument, EInvoicePanel } from './einvoice-panel'
import { formatAmount, formatDate } from './format'
import { pdfEngine } from './pdf-engine'

export type DocumentDetailActor = ActorRefFrom<DocumentDetailMachine>

type DialogProps = {
  kind: FinancialKind
  id: number
  companyId: number
  onClose: () => void
  /** A correction was saved: the host's list follows. */
  onSaved?: () => void
  /**
   * J / K or "Save and next": the host opens the next (1) or previous (-1) document of its list in
   * place of this one. Without it the dialog closes.
   */
  onStep?: (direction: 1 | -1) => void
}

/** Loads the detail chunk's machine, then shows the dialog for this record. */
function DocumentDetailDialog(props: DialogProps) {
  return (
    <Suspense
      fallback={
        <DetailFrame kind={props.kind} title={null} busy={false} open onRequestClose={props.onClose}>
          <Pending label={i18n._(msg`Loading details`)} />
        </DetailFrame>
      }
    >
      <LoadedDetailDialog {...props} />
    </Suspense>
  )
}
export default DocumentDetailDialog

function LoadedDetailDialog({ kind, id, companyId, onClose, onSaved, onStep }: DialogProps) {
  const { loadDetails } = useAppActors()
  if (!loadDetails) throw new Error('loadDetails not provided')
  const machines = use(loadDetails())
  const host = useRef({ onClose, onSaved, onStep })
  useEffect(() => {
    host.current = { onClose, onSaved, onStep }
  }, [onClose, onSaved, onStep])
  const logic = useMemo(
    () =>
      machines.documentDetail.provide({
        actions: {
          close: (_, { step }) => {
            const { onStep, onClose } = host.current
            if (step && onStep) onStep(step)
            else onClose()
          },
          announceSaved: () => host.current.onSaved?.(),
        },
      }),
    [machines],
  )
  const actor = useScreenActor(logic, { input: { kind, id, companyId } })
  // Closing through the dialog revokes the preview's object URL (the machine's `closed` entry);
  // an unmount (company switched, signed out, route left) only stops the actor: released here.
  useEffect(
    () => () => {
      const snapshot = actor.getSnapshot()
      if (snapshot.status !== 'done') machines.releasePreview(snapshot.context.previewUrl)
    },
    [actor, machines],
  )
  const edit = useMemo(
    () =>
      machines.documentEdit.provide({
        actions: {
          close: (_, { step }) =>
            actor.send(step ? { type: 'document.step', direction: step } : { type: 'dialog.close' }),
          // The saved record goes to the dialog's machine: its header, actions and findings follow it.
          announceSaved: (_, saved) => actor.send({ type: 'document.saved', ...saved }),
        },
      }),
    [machines, actor],
  )
  const preview = useMemo(() => machines.documentPreview(pdfEngine), [machines])
  return <DocumentDetailView actor={actor} edit={edit} preview={preview} />
}

/** An action is under way (a file queued and the record deleted, or a new reading asked for). */
const isWorking = (s: { matches: (state: { ready: 'working' | 'reprocessing' }) => boolean }) =>
  s.matches({ ready: 'working' }) || s.matches({ ready: 'reprocessing' })

function DetailFrame(props: {
  kind: FinancialKind
  title: ReactNode
  open: boolean
  busy: boolean
  onRequestClose: () => void
  footer?: ReactNode
  children: ReactNode
}) {
  const { t } = useLingui()
  return (
    <DialogFrame
      variant="detail"
      open={props.open}
      busy={props.busy}
      onClose={props.onRequestClose}
      title={props.kind === 'invoice' ? t`Invoice details` : t`Expense details`}
      description={props.title}
      closeLabel={t`Close details`}
      footer={props.footer}
    >
      {props.children}
    </DialogFrame>
  )
}

function Pending({ label }: { label: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={css({ h: 'full', minH: '40', display: 'grid', placeItems: 'center', color: 'fg.muted' })}
    >
      <span className={css({ display: 'inline-flex', alignItems: 'center', gap: '3' })}>
        <Spinner />
        {label}
      </span>
    </div>
  )
}

/**
 * The preview's logic, whose picked text goes to the correction form (the field then takes the
 * focus back), and its running actor, handed up by the preview once it starts.
 */
function usePreview(preview: DocumentPreviewMachine | undefined, editor: DocumentEditActor | null) {
  const [previewActor, setPreviewActor] = useState<DocumentPreviewActor | null>(null)
  const editorRef = useRef(editor)
  useEffect(() => {
    editorRef.current = editor
  }, [editor])
  // Text picked on the page goes to the correction form, and the field takes the focus back.
  const previewLogic = useMemo(
    () =>
      preview?.provide({
        actions: {
          fillField: (_, { field, text }) => {
            editorRef.current?.send({ type: 'field.pick', field: field as EditableField, text })
            window.document.getElementById(`edit-${field}`)?.focus()
          },
        },
      }),
    [preview],
  )
  // A field focused before the preview ran (the first to check) is outlined once it does.
  useEffect(() => {
    const focused = window.document.activeElement?.id ?? ''
    if (previewActor && focused.startsWith('edit-'))
      previewActor.send({ type: 'field.focus', field: focused.slice('edit-'.length) })
  }, [previewActor])
  const onPreview = useCallback((a: DocumentPreviewActor | null) => setPreviewActor(a), [])
  return { previewLogic, previewActor, onPreview }
}

/**
 * The dialog for a running `documentDetail` actor. With `edit`, the loaded record's fields are
 * editable in place (the `documentEdit` actor then takes the close button and Escape, to ask
 * before unsaved changes are lost); without, they are read only.
 */
export function DocumentDetailView({
  actor,
  edit,
  preview,
}: {
  actor: DocumentDetailActor
  edit?: DocumentEditMachine | undefined
  /** The preview drawn from the original; without it an image shows as is, a PDF as a link. */
  preview?: DocumentPreviewMachine | undefined
}) {
  const { t } = useLingui()
  const [editor, setEditor] = useState<DocumentEditActor | null>(null)
  const { previewLogic, previewActor, onPreview } = usePreview(preview, editor)
  const kind = useSelector(actor, (s) => s.context.kind)
  const document = useSelector(actor, (s) => s.context.document)
  const title = useSelector(actor, (s) => (s.context.document ? originalName(s.context) : null))
  const status = useSelector(actor, (s) => s.context.document?.status.toLowerCase() ?? null)
  const loading = useSelector(actor, (s) => s.matches('loading'))
  const loadError = useSelector(actor, (s) => (s.matches('failed') ? (s.context.loadError ?? '') : null))
  const closed = useSelector(actor, (s) => s.status === 'done')
  const busy = useSelector(actor, isWorking)
  const close = () => (editor ?? actor).send({ type: 'dialog.close' })

  let body: ReactNode
  if (loading) body = <Pending label={t`Loading details`} />
  else if (loadError !== null)
    body = (
      <div className={css({ p: '6' })}>
        <Alert status="error">
          {loadError
            ? messageText(loadError)
            : kind === 'invoice'
              ? t`Failed to load invoice details`
              : t`Failed to load expense details. Please try again.`}
        </Alert>
      </div>
    )
  else if (document)
    body = (
      <div
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: 'minmax(0, 1fr)', md: 'minmax(0, 3fr) minmax(0, 2fr)' },
          h: { base: 'auto', md: 'full' },
        })}
      >
        {/* A bare XML e-invoice has no page to show: its data, rendered, takes the frame's place. */}
        {document.einvoice && document.content_type === 'application/xml' ? (
          <EInvoiceDocument einvoice={document.einvoice} />
        ) : (
          <Preview actor={actor} logic={previewLogic} onActor={onPreview} />
        )}
        {/* A scrolling panel: focusable and named, so the keyboard can scroll it. The quality findings
            (why a document failed) come first, above the fields. */}
        <section
          aria-label={t`Information panel`}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll area the keyboard must be able to scroll
          tabIndex={0}
          className={css({
            p: { base: '4', md: '6' },
            overflowY: { md: 'auto' },
            display: 'flex',
            flexDirection: 'column',
            gap: '5',
          })}
        >
          <Quality actor={actor} />
          {edit ? (
            <EditableFields
              logic={edit}
              input={{ kind, id: document.id, companyId: actor.getSnapshot().context.companyId, document }}
              onActor={setEditor}
              preview={previewActor}
            />
          ) : (
            <Fields kind={kind} document={document} />
          )}
          {document.einvoice ? <EInvoicePanel einvoice={document.einvoice} /> : null}
        </section>
      </div>
    )

  return (
    <DetailFrame
      kind={kind}
      title={
        title === null ? null : (
          <span className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', flexWrap: 'wrap' })}>
            <span>{title}</span>
            {status ? <StatusBadge status={status} /> : null}
          </span>
        )
      }
      open={!closed}
      busy={busy}
      onRequestClose={close}
      footer={document ? <Actions actor={actor} /> : null}
    >
      {body}
    </DetailFrame>
  )
}

const NO_EVIDENCE: Record<string, FieldEvidence> = {}

function Preview({
  actor,
  logic,
  onActor,
}: {
  actor: DocumentDetailActor
  logic: DocumentPreviewMachine | undefined
  onActor: (actor: DocumentPreviewActor | null) => void
}) {
  const { t } = useLingui()
  const url = useSelector(actor, (s) => s.context.previewUrl)
  const original = useSelector(actor, (s) => s.context.original)
  const error = useSelector(actor, (s) => s.context.previewError)
  const name = useSelector(actor, (s) => originalName(s.context))
  const scope = useSelector(
    actor,
    (s) => ({ kind: s.context.kind, id: s.context.id, companyId: s.context.companyId }),
    (a, b) => a.kind === b.kind && a.id === b.id && a.companyId === b.companyId,
  )
  const evidence = useSelector(actor, (s) => s.context.document?.field_evidence ?? NO_EVIDENCE)
  const area = css({
    bg: 'bg.muted',
    minH: { base: 'auto', md: '0' },
    h: 'full',
    display: 'flex',
    flexDirection: 'column',
    gap: '2',
    p: '2',
    borderRightWidth: { md: '1px' },
    borderBottomWidth: { base: '1px', md: '0' },
    borderColor: 'border.default',
  })
  let content: ReactNode
  if (error !== null)
    content = (
      <div className={css({ p: '6', w: 'full' })}>
        <Alert status="error">
          <strong>{t`Failed to load PDF`}</strong> <span>{error}</span>
        </Alert>
      </div>
    )
  else if (!url || !original) content = <Pending label={t`Loading preview`} />
  else if (logic)
    content = (
      <DocumentPreview
        logic={logic}
        input={{ ...scope, original }}
        evidence={evidence}
        url={url}
        name={name}
        onActor={onActor}
      />
    )
  else if (original.type.startsWith('image/'))
    content = (
      <img
        src={url}
        alt={t`Preview of ${name}`}
        className={css({ maxW: 'full', maxH: 'full', objectFit: 'contain' })}
      />
    )
  else
    content = (
      <a href={url} download={name} className={css({ p: '6', textDecoration: 'underline' })}>
        {t`Preview of ${name}`}
      </a>
    )
  return (
    <section aria-label={t`Preview`} className={area}>
      {content}
    </section>
  )
}

function Fields({ kind, document: d }: { kind: FinancialKind; document: FinancialDocument }) {
  const { t } = useLingui()
  const text = (value: string | null | undefined) => (value ? value : '—')
  const rows: [string, ReactNode][] = [
    [t`Invoice number`, text(d.invoice_number)],
    [
      kind === 'invoice' ? t`Invoice date` : t`Expense date`,
      formatDate(kind === 'invoice' ? d.invoice_date : d.expense_date),
    ],
    [t`Business name`, text(d.business_name)],
    [t`Business address`, text(d.business_address)],
    [t`VAT number`, text(d.vat_number)],
    [t`IBAN`, text(d.iban)],
    [t`Currency`, text(d.currency)],
    [t`VAT applicable`, d.has_vat === true ? t`Yes` : d.has_vat === false ? t`No` : '—'],
    [t`VAT amount`, formatAmount(d.total_vat_amount, d.currency)],
    [t`Total excluding VAT`, formatAmount(d.total_charge_excluding_vat, d.currency)],
    [t`Total including VAT`, formatAmount(d.total_invoice_including_vat, d.currency)],
  ]
  return (
    <section aria-labelledby="detail-fields-title">
      <h3 id="detail-fields-title" className={css({ fontWeight: 'semibold', mb: '2' })}>
        {t`Information`}
      </h3>
      <Definitions rows={rows} />
    </section>
  )
}

const findingText = (item: QualityItem) =>
  (i18n.locale === 'fr' ? item.messages?.fr : item.messages?.en) ?? item.messages?.en ?? item.code

function Quality({ actor }: { actor: DocumentDetailActor }) {
  const quality = useSelector(actor, (s) => s.context.quality)
  const loading = useSelector(actor, (s) => s.matches({ attachments: { quality: 'loading' } }))
  return <QualityFindings quality={quality} loading={loading} />
}

function QualityFindings({ quality, loading }: { quality: QualityData | null; loading: boolean }) {
  const { t } = useLingui()
  const list = (items: QualityItem[], label: string, tone: 'error' | 'warning') => (
    <ul
      aria-label={label}
      className={css({ display: 'flex', flexDirection: 'column', gap: '1.5', fontSize: 'sm' })}
    >
      {items.map((item) => (
        <li
          key={item.code}
          className={cx(
            css({ px: '3', py: '2', borderRadius: 'md', borderWidth: '1px' }),
            tone === 'error'
              ? css({ bg: 'danger.subtle', color: 'danger.fg', borderColor: 'red.200' })
              : css({ bg: 'amber.50', color: 'amber.800', borderColor: 'amber.200' }),
          )}
        >
          {findingText(item)}
        </li>
      ))}
    </ul>
  )
  let content: ReactNode = null
  if (loading) content = <Pending label={t`Loading quality data`} />
  else if (quality && !quality.errors.length && !quality.warnings.length)
    content = <p className={textRecipe({ tone: 'muted', size: 'sm' })}>{t`No quality issues`}</p>
  else if (quality)
    content = (
      <>
        {quality.errors.length ? list(quality.errors, t`Quality errors`, 'error') : null}
        {quality.warnings.length ? list(quality.warnings, t`Quality warnings`, 'warning') : null}
      </>
    )
  if (!content) return null
  return (
    <section aria-labelledby="detail-quality-title" className={stack({ gap: '2' })}>
      <h3 id="detail-quality-title" className={css({ fontWeight: 'semibold' })}>
        {t`Quality check`}
      </h3>
      {content}
    </section>
  )
}

/** Below 768 px, the secondary actions of a failed document fold behind "More actions". */
const foldedOnPhone = (open: boolean) =>
  css({
    display: { base: open ? 'flex' : 'none', md: 'contents' },
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: '2',
    flexBasis: 'full',
  })

function Actions({ actor }: { actor: DocumentDetailActor }) {
  const { t } = useLingui()
  const kind = useSelector(actor, (s) => s.context.kind)
  const failed = useSelector(actor, (s) => !!s.context.document && isFailedStatus(s.context.document.status))
  const idle = useSelector(actor, (s) => s.matches({ ready: 'idle' }))
  const working = useSelector(actor, isWorking)
  const category = useSelector(actor, (s) => s.context.category)
  const fileError = useSelector(actor, (s) => s.context.fileError)
  const fileInput = useRef<HTMLInputElement>(null)
  // A disclosure of the layout alone (no flow): the phone's footer keeps to the main action.
  const [more, setMore] = useState(false)
  const fileErrorText =
    fileError === INVOICE_PDF_ONLY
      ? t`Only PDF files are supported for invoices`
      : fileError && messageText(fileError)
  const reupload = (
    <>
      <Button
        variant="outline"
        disabled={!idle}
        title={t`Reads the original again; what you corrected is kept`}
        onClick={() => actor.send({ type: 'reprocess.start' })}
      >
        {t`Read again`}
      </Button>
      <Button variant="outline" disabled={!idle} onClick={() => actor.send({ type: 'reupload.start' })}>
        {kind === 'invoice' ? t`Reupload as expense` : t`Reupload as invoice`}
      </Button>
    </>
  )
  return (
    <>
      {failed ? (
        <>
          <div>
            <input
              ref={fileInput}
              id="detail-resubmit-file"
              type="file"
              accept={acceptAttribute(RESUBMIT_TYPES[kind])}
              className={css({ srOnly: true })}
              // The visible button opens it; one tab stop for one action.
              tabIndex={-1}
              disabled={!idle}
              aria-label={t`Resubmit with a new PDF`}
              onChange={(e) => {
                const file = e.target.files?.[0]
                e.target.value = ''
                if (file) actor.send({ type: 'resubmit.select', file })
              }}
            />
            <Button variant="solid" disabled={!idle} onClick={() => fileInput.current?.click()}>
              {t`Upload new PDF`}
            </Button>
          </div>
          <Button
            variant="ghost"
            aria-expanded={more}
            aria-controls="detail-more-actions"
            className={css({ display: { base: 'inline-flex', md: 'none' } })}
            onClick={() => setMore((open) => !open)}
          >
            {t`More actions`}
          </Button>
          <div id="detail-more-actions" className={foldedOnPhone(more)}>
            <div className={css({ display: 'flex', alignItems: 'flex-end', gap: '2', flexWrap: 'wrap' })}>
              <SelectField
                label={t`SharePoint category`}
                value={category}
                disabled={!idle}
                options={DOCUMENT_CATEGORIES.map((c) => ({
                  value: c,
                  label: i18n._(DOCUMENT_CATEGORY_LABEL[c]),
                }))}
                onChange={(e) =>
                  actor.send({ type: 'category.select', category: e.target.value as DocumentCategory })
                }
              />
              <Button variant="outline" disabled={!idle} onClick={() => actor.send({ type: 'store.upload' })}>
                {t`Upload to SharePoint`}
              </Button>
            </div>
            {reupload}
          </div>
        </>
      ) : (
        reupload
      )}
      {working ? (
        <span
          role="status"
          className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', color: 'fg.muted' })}
        >
          <Spinner size={4} />
          {t`Working…`}
        </span>
      ) : null}
      {fileErrorText ? (
        <div className={css({ flexBasis: 'full' })}>
          <Alert status="error">{fileErrorText}</Alert>
        </div>
      ) : null}
      <ReadAgainConfirm actor={actor} />
    </>
  )
}

/** Before a confirmed document is read again: its confirmation goes, and read values may change. */
function ReadAgainConfirm({ actor }: { actor: DocumentDetailActor }) {
  const { t } = useLingui()
  const open = useSelector(actor, (s) => s.matches({ ready: 'confirmingReprocess' }))
  return (
    <ConfirmDialog
      open={open}
      title={t`Read this document again?`}
      description={t`It has been confirmed. Reading it again clears the confirmation and may change the values read from the page; what was corrected is kept.`}
      confirmLabel={t`Read again`}
      cancelLabel={t`Cancel`}
      onConfirm={() => actor.send({ type: 'reprocess.confirm' })}
      onCancel={() => actor.send({ type: 'reprocess.cancel' })}
    />
  )
}

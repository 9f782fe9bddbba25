import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { type DragEvent, useId, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import type { ActorRefFrom } from 'xstate'
import { acceptAttribute, FINANCIAL_KIND, FINANCIAL_KINDS } from '../../../../contract'
import { groupLabel } from '../../../../contract/document-labels'
import {
  DOCUMENT_CATEGORIES,
  EXPENSE_FILE_TYPES,
  INVOICE_TABS,
  type UploadDialogMachine,
  type UploadTab,
} from '../../../machines/uploads/upload-dialog.machine'
import { isReceiptPhoto } from '../../../machines/uploads/upload-item.machine'
import { Button } from '../../components/button'
import { FileIcon, UploadIcon } from '../../components/icons'
import { SelectField } from '../../components/select'
import { Sheet } from '../../components/sheet'
import { Tabs } from '../../components/tabs'
import { messageText } from '../../message-texts'
import { formatFileSize } from './format'
import { PhotoThumbnail } from './photo-thumbnail'

export type UploadDialogActor = ActorRefFrom<UploadDialogMachine>

/**
 * Accepted by the file picker, per tab (drops are checked by the machine); documents take anything.
 * Expenses take photos too, and no `capture`: a phone offers its camera and its photo library.
 */
const ACCEPT: Partial<Record<UploadTab, string>> = Object.fromEntries(
  FINANCIAL_KINDS.map((kind) => [
    FINANCIAL_KIND[kind].plural,
    acceptAttribute(kind === 'expense' ? EXPENSE_FILE_TYPES : FINANCIAL_KIND[kind].accepted),
  ]),
)

/** A chosen file's remove button: a touch target of 44 × 44 px on phones. */
const removeFile = css({
  color: 'fg.muted',
  fontSize: 'xs',
  _hover: { color: 'red.600' },
  mdDown: { display: 'inline-flex', alignItems: 'center', justifyContent: 'center', minW: '11', minH: '11' },
})

/** The invoice/expense dialog (two tabs) or the document dialog (a select of the nine categories). */
export default function UploadDialog({ dialog }: { dialog: UploadDialogActor }) {
  const { t, i18n } = useLingui()
  const kind = useSelector(dialog, (s) => (s.matches({ open: 'document' }) ? 'document' : 'invoice'))
  const tab = useSelector(dialog, (s) => s.context.tab)
  const selected = useSelector(dialog, (s) => s.context.selected)
  const error = useSelector(dialog, (s) => s.context.error)
  const tabLabel = (value: UploadTab) => groupLabel(i18n, value)
  const close = () => dialog.send({ type: 'dialog.close' })
  const errorId = useId()

  return (
    <Sheet
      open
      placement="center"
      onClose={close}
      closeLabel={t`Close`}
      title={kind === 'document' ? t`Upload documents` : t`Upload invoices and expenses`}
      description={
        kind === 'document'
          ? t`Choose a category, then add the files to store under it.`
          : t`Invoices: PDF, JPG or PNG. Expenses: PDF, or a photo of the receipt (JPG or PNG) sent as a PDF.`
      }
      footer={
        <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2' })}>
          <Button variant="outline" onClick={close}>
            <Trans>Cancel</Trans>
          </Button>
          <Button onClick={() => dialog.send({ type: 'dialog.submit' })}>
            <UploadIcon />
            <Trans>Upload</Trans>
          </Button>
        </div>
      }
    >
      <UploadTarget
        dialog={dialog}
        kind={kind}
        tab={tab}
        describedBy={error ? errorId : undefined}
        tabLabel={tabLabel}
      />
      {error ? (
        <p id={errorId} role="alert" className={css({ color: 'red.600', fontSize: 'sm', mt: '3' })}>
          {messageText(error)}
        </p>
      ) : null}
      {selected.length ? (
        <section aria-label={t`Selected files`} className={css({ mt: '4' })}>
          <h3 className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '2' })}>
            <Trans>Selected files ({selected.length})</Trans>
          </h3>
          <ul
            className={css({
              maxH: { base: '10rem', md: '15rem' },
              overflowY: 'auto',
              display: 'flex',
              flexDirection: 'column',
              gap: '1',
              pr: '1',
            })}
          >
            {selected.map((s, index) => (
              <li
                key={`${s.tab}:${s.file.name}:${s.file.size}:${s.file.lastModified}`}
                className={css({
                  display: 'flex',
                  alignItems: 'center',
                  gap: '2',
                  fontSize: 'sm',
                  px: '2',
                  py: '1.5',
                  borderRadius: 'md',
                  bg: 'bg.muted',
                })}
              >
                {s.tab === 'expenses' && isReceiptPhoto({ file: s.file, documentType: 'expense' }) ? (
                  <PhotoThumbnail photo={s.file} size="8" />
                ) : (
                  <FileIcon />
                )}
                <span className={css({ flex: '1', minW: '0', truncate: true })} title={s.file.name}>
                  {s.file.name}
                </span>
                <span className={css({ color: 'fg.muted', fontSize: 'xs', whiteSpace: 'nowrap' })}>
                  {tabLabel(s.tab)} · {formatFileSize(s.file.size)}
                </span>
                <button
                  type="button"
                  className={removeFile}
                  aria-label={t`Remove ${s.file.name}`}
                  onClick={() => dialog.send({ type: 'file.remove', index })}
                >
                  ✕
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Sheet>
  )
}

/** Where the files go: the invoice/expense tabs, or a select of the nine document categories. */
function UploadTarget({
  dialog,
  kind,
  tab,
  describedBy,
  tabLabel,
}: {
  dialog: UploadDialogActor
  kind: 'document' | 'invoice'
  tab: UploadTab
  describedBy: string | undefined
  tabLabel: (value: UploadTab) => string
}) {
  const { t } = useLingui()
  return kind === 'document' ? (
    // Nine categories: a select, which fits a phone, where tabs would clip them.
    <div className={stack({ gap: '4' })}>
      <SelectField
        label={t`Category`}
        value={tab}
        onChange={(e) => dialog.send({ type: 'tab.select', tab: e.currentTarget.value as UploadTab })}
        options={DOCUMENT_CATEGORIES.map((value) => ({ value, label: tabLabel(value) }))}
      />
      <DropZone
        accept={ACCEPT[tab]}
        onFiles={(files) => dialog.send({ type: 'files.add', files })}
        describedBy={describedBy}
        label={tabLabel(tab)}
      />
    </div>
  ) : (
    <Tabs.Root
      value={tab}
      onValueChange={(d) => dialog.send({ type: 'tab.select', tab: d.value as UploadTab })}
      className={stack({ gap: '4' })}
    >
      <Tabs.List className={css({ overflowX: 'auto', flexWrap: 'nowrap' })}>
        {INVOICE_TABS.map((value) => (
          <Tabs.Trigger key={value} value={value} className={css({ whiteSpace: 'nowrap' })}>
            {tabLabel(value)}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {INVOICE_TABS.map((value) => (
        <Tabs.Content key={value} value={value}>
          {value === tab ? (
            <DropZone
              accept={ACCEPT[value]}
              onFiles={(files) => dialog.send({ type: 'files.add', files })}
              describedBy={describedBy}
              label={tabLabel(value)}
            />
          ) : null}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  )
}

function DropZone(props: {
  accept: string | undefined
  onFiles: (files: File[]) => void
  describedBy: string | undefined
  label: string
}) {
  const input = useRef<HTMLInputElement>(null)
  const [over, setOver] = useState(false)
  const { t } = useLingui()
  const onDrop = (e: DragEvent) => {
    e.preventDefault()
    setOver(false)
    const files = [...e.dataTransfer.files]
    if (files.length) props.onFiles(files)
  }
  return (
    <section
      aria-label={t`Drop files for ${props.label}`}
      onDragOver={(e) => {
        e.preventDefault()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-over={over || undefined}
      className={css({
        borderWidth: '2px',
        borderStyle: 'dashed',
        borderColor: 'border.default',
        borderRadius: 'lg',
        p: '6',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: '2',
        textAlign: 'center',
        color: 'fg.muted',
        fontSize: 'sm',
        '&[data-over]': { borderColor: 'accent.default', bg: 'accent.subtle' },
      })}
    >
      <UploadIcon />
      <p>
        <Trans>Drag and drop files here, or</Trans>
      </p>
      <Button
        variant="outline"
        size="sm"
        onClick={() => input.current?.click()}
        aria-describedby={props.describedBy}
      >
        <Trans>Choose files</Trans>
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label={t`Files for ${props.label}`}
        {...(props.accept ? { accept: props.accept } : {})}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])]
          e.target.value = ''
          if (files.length) props.onFiles(files)
        }}
      />
    </section>
  )
}

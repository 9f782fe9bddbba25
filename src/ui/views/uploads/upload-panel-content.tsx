import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { useEffect, useRef } from 'react'
import { css, cx } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { button } from 'styled-system/recipes'
import { groupLabel } from '../../../../contract/document-labels'
import type { UploadStatus } from '../../../machines/uploads/upload-item.machine'
import {
  isCancellableUpload,
  isViewableUpload,
  type QueueEntry,
  type UploadQueueActor,
} from '../../../machines/uploads/upload-queue.machine'
import { failureText } from '../../message-texts'
import { batchByMinute, formatFileSize } from './format'
import { PhotoThumbnail } from './photo-thumbnail'

const STATUS_COLOR: Record<UploadStatus, string> = {
  pending: 'gray.500',
  unsent: 'orange.700',
  uploading: 'blue.600',
  waiting: 'orange.700',
  in_progress: 'blue.600',
  processing: 'blue.600',
  success: 'green.600',
  error: 'red.600',
  cancelled: 'gray.500',
}

function useStatusLabel() {
  const { t } = useLingui()
  return (status: UploadStatus) =>
    ({
      pending: t`Pending`,
      unsent: t`Not sent`,
      uploading: t`Uploading`,
      waiting: t`Waiting for network`,
      in_progress: t`Sent`,
      processing: t`Processing`,
      success: t`Completed`,
      error: t`Failed`,
      cancelled: t`Cancelled`,
    })[status]
}

/** The queue's categories of invoices and expenses are labels (translated); document categories are names. */
function useCategoryLabel() {
  const { i18n } = useLingui()
  return (category: string) => groupLabel(i18n, category)
}

/**
 * The panel's height (with its margin) as `--upload-panel-height` on the page, 0 once it is gone:
 * the toasts stand above it instead of covering it.
 */
function usePanelHeight() {
  const region = useRef<HTMLElement>(null)
  useEffect(() => {
    const element = region.current
    const root = document.documentElement
    if (!element || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => {
      const { top } = element.getBoundingClientRect()
      root.style.setProperty('--upload-panel-height', `${Math.max(0, window.innerHeight - top)}px`)
    })
    observer.observe(element)
    return () => {
      observer.disconnect()
      root.style.removeProperty('--upload-panel-height')
    }
  }, [])
  return region
}

/** The floating upload progress panel, bottom right: one row per queued file until the list is cleared. */
export default function UploadPanelContent({ queue }: { queue: UploadQueueActor }) {
  const { t, i18n } = useLingui()
  const uploads = useSelector(queue, (s) => s.context.uploads)
  const open = useSelector(queue, (s) => s.context.panelOpen)
  const unseen = useSelector(queue, (s) => s.context.unseen)
  const label = useStatusLabel()
  const active = uploads.filter((u) =>
    ['pending', 'uploading', 'waiting', 'in_progress', 'processing'].includes(u.status),
  )
  const time = (ms: number) => i18n.date(new Date(ms), { hour: '2-digit', minute: '2-digit' })
  const region = usePanelHeight()

  return (
    <section
      ref={region}
      aria-label={t`Uploads`}
      className={css({
        position: 'fixed',
        right: { base: '2', md: '6' },
        bottom: { base: '2', md: '6' },
        zIndex: 'banner',
        w: { base: 'calc(100vw - 1rem)', sm: '96' },
        bg: 'bg.surface',
        borderWidth: '1px',
        borderColor: 'border.default',
        borderRadius: 'xl',
        boxShadow: 'xl',
        overflow: 'hidden',
      })}
    >
      <PanelHeader queue={queue} open={open} unseen={unseen} active={active} uploads={uploads} />
      {open ? (
        <div className={css({ maxH: '24rem', overflowY: 'auto', p: '2' })}>
          {batchByMinute(uploads).map((batch) => (
            <section key={batch.minute} className={css({ mb: '2' })} aria-label={time(batch.minute)}>
              <div
                className={css({
                  display: 'flex',
                  flexWrap: 'wrap',
                  gap: '2',
                  alignItems: 'baseline',
                  px: '1',
                  py: '1',
                  fontSize: 'xs',
                  color: 'fg.muted',
                })}
              >
                <span className={css({ fontWeight: 'semibold', color: 'fg.default' })}>
                  {time(batch.minute)}
                </span>
                {Object.entries(batch.counts).map(([status, count]) => (
                  <span
                    key={status}
                    style={{
                      color: `var(--colors-${STATUS_COLOR[status as UploadStatus].replace('.', '-')})`,
                    }}
                  >
                    {label(status as UploadStatus)}: {count}
                  </span>
                ))}
              </div>
              <ul className={stack({ gap: '1' })}>
                {batch.uploads.map((u) => (
                  <UploadRow key={u.id} upload={u} queue={queue} time={time} label={label} />
                ))}
              </ul>
            </section>
          ))}
        </div>
      ) : null}
    </section>
  )
}

/** The panel's header: the count (toggles the list), the new-results dot, and the clear buttons. */
function PanelHeader({
  queue,
  open,
  unseen,
  active,
  uploads,
}: {
  queue: UploadQueueActor
  open: boolean
  unseen: boolean
  active: QueueEntry[]
  uploads: QueueEntry[]
}) {
  const { t } = useLingui()
  const small = cx(button({ variant: 'ghost', size: 'sm' }), css({ fontSize: 'xs', h: '7', px: '2' }))
  // Several files a reload left unsent are sent again with one press (each row has its own too).
  const unsent = uploads.filter((u) => u.status === 'unsent').length
  return (
    <header
      className={css({
        display: 'flex',
        alignItems: 'center',
        gap: '2',
        px: '3',
        py: '2',
        borderBottomWidth: open ? '1px' : '0',
        borderColor: 'border.default',
      })}
    >
      <button
        type="button"
        className={css({ flex: '1', display: 'flex', alignItems: 'center', gap: '2', textAlign: 'left' })}
        aria-expanded={open}
        onClick={() => queue.send({ type: 'panel.toggle' })}
      >
        <span className={css({ fontWeight: 'semibold', fontSize: 'sm' })}>
          {uploads.some((u) => u.status === 'waiting') ? (
            <Trans>Waiting for network</Trans>
          ) : active.length ? (
            <Trans>
              Uploading {active.length} of {uploads.length}
            </Trans>
          ) : (
            <Trans>Uploads ({uploads.length})</Trans>
          )}
        </span>
        {unseen ? (
          <span
            role="img"
            aria-label={t`New results`}
            className={css({
              w: '2.5',
              h: '2.5',
              borderRadius: 'full',
              bg: 'green.500',
              animation: 'pulse',
            })}
          />
        ) : null}
        <span className={css({ ml: 'auto', color: 'fg.muted', fontSize: 'xs' })}>
          {open ? t`Collapse` : t`Expand`}
        </span>
      </button>
      {unsent > 1 ? (
        <button type="button" className={small} onClick={() => queue.send({ type: 'uploads.resendAll' })}>
          <Trans>Send all again</Trans>
        </button>
      ) : null}
      <button type="button" className={small} onClick={() => queue.send({ type: 'uploads.clearCompleted' })}>
        <Trans>Clear completed</Trans>
      </button>
      <button type="button" className={small} onClick={() => queue.send({ type: 'uploads.clearAll' })}>
        <Trans>Clear all</Trans>
      </button>
    </header>
  )
}

function UploadRow({
  upload,
  queue,
  time,
  label,
}: {
  upload: QueueEntry
  queue: UploadQueueActor
  time: (ms: number) => string
  label: (s: UploadStatus) => string
}) {
  const { t } = useLingui()
  const categoryLabel = useCategoryLabel()
  const progress = useSelector(upload.ref, (s) => s?.context.progress ?? 0)
  const photo = useSelector(upload.ref, (s) => s?.context.photo ?? null)
  const showBar = ['uploading', 'in_progress', 'processing'].includes(upload.status)
  return (
    <li className={css({ px: '2', py: '2', borderRadius: 'md', _hover: { bg: 'bg.muted' } })}>
      <div className={css({ display: 'flex', alignItems: 'center', gap: '2' })}>
        {photo ? <PhotoThumbnail photo={photo} /> : null}
        <span
          className={css({ flex: '1', minW: '0', fontSize: 'sm', fontWeight: 'medium', truncate: true })}
          title={upload.fileName}
        >
          {upload.fileName}
        </span>
        <span
          className={css({ fontSize: 'xs', fontWeight: 'medium', whiteSpace: 'nowrap' })}
          style={{ color: `var(--colors-${STATUS_COLOR[upload.status].replace('.', '-')})` }}
        >
          {label(upload.status)}
        </span>
        {isViewableUpload(upload) ? (
          <button
            type="button"
            className={cx(
              button({ variant: 'link', size: 'sm' }),
              css({ fontSize: 'xs', h: 'auto', mdDown: { minH: '11', minW: '11' } }),
            )}
            aria-label={t`View ${upload.fileName}`}
            onClick={() => queue.send({ type: 'upload.view', id: upload.id })}
          >
            <Trans>View</Trans>
          </button>
        ) : null}
        {upload.status === 'unsent' ? (
          <button
            type="button"
            className={cx(
              button({ variant: 'link', size: 'sm' }),
              css({ fontSize: 'xs', h: 'auto', mdDown: { minH: '11', minW: '11' } }),
            )}
            aria-label={t`Send again: ${upload.fileName}`}
            onClick={() => queue.send({ type: 'upload.resend', id: upload.id })}
          >
            <Trans>Send again</Trans>
          </button>
        ) : null}
        {isCancellableUpload(upload) ? (
          <button
            type="button"
            className={css({ fontSize: 'xs', color: 'fg.muted', _hover: { color: 'red.600' } })}
            aria-label={
              upload.status === 'unsent'
                ? t`Remove ${upload.fileName}`
                : t`Cancel upload of ${upload.fileName}`
            }
            onClick={() => queue.send({ type: 'upload.cancel', id: upload.id })}
          >
            ✕
          </button>
        ) : null}
      </div>
      <div className={css({ display: 'flex', gap: '2', fontSize: 'xs', color: 'fg.muted', mt: '0.5' })}>
        <span>{formatFileSize(upload.fileSize)}</span>
        <span>·</span>
        <span>{categoryLabel(upload.category)}</span>
        {upload.completedAt ? (
          <>
            <span>·</span>
            <span>{time(upload.completedAt)}</span>
          </>
        ) : null}
      </div>
      {upload.error ? (
        <p className={css({ fontSize: 'xs', color: 'red.600', mt: '0.5' })}>{failureText(upload.error)}</p>
      ) : null}
      {showBar ? (
        <div
          role="progressbar"
          aria-label={t`Progress of ${upload.fileName}`}
          aria-valuemin={0}
          aria-valuemax={100}
          {...(upload.status === 'processing' ? {} : { 'aria-valuenow': progress })}
          className={css({ mt: '1.5', h: '1.5', borderRadius: 'full', bg: 'bg.muted', overflow: 'hidden' })}
        >
          <div
            className={css({
              h: 'full',
              bg: 'blue.500',
              transition: 'width 0.2s',
              '&[data-indeterminate]': { animation: 'pulse' },
            })}
            data-indeterminate={upload.status === 'processing' || undefined}
            style={{ width: `${upload.status === 'processing' ? 100 : progress}%` }}
          />
        </div>
      ) : null}
    </li>
  )
}

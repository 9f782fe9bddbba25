import { useLingui } from '@lingui/react/macro'
import { css } from 'styled-system/css'

/** Panda's CSS variables, not `token()`: that would bring the whole token table into the bundle. */
const failedTone = { bg: 'var(--colors-status-failed-bg)', fg: 'var(--colors-status-failed-fg)' }
/** A row status's colour: completed green, processing blue, pending yellow, failed and rejected red, any other grey. */
const tones: Record<string, { bg: string; fg: string }> = {
  completed: { bg: 'var(--colors-status-completed-bg)', fg: 'var(--colors-status-completed-fg)' },
  processing: { bg: 'var(--colors-status-processing-bg)', fg: 'var(--colors-status-processing-fg)' },
  pending: { bg: 'var(--colors-status-pending-bg)', fg: 'var(--colors-status-pending-fg)' },
  failed: failedTone,
  rejected: failedTone,
}
const otherTone = { bg: 'var(--colors-status-other-bg)', fg: 'var(--colors-status-other-fg)' }

export function StatusBadge({ status }: { status: string }) {
  const { t } = useLingui()
  const labels: Record<string, string> = {
    completed: t`Completed`,
    processing: t`Processing`,
    pending: t`Pending`,
    failed: t`Failed`,
    rejected: t`Rejected`,
  }
  const tone = tones[status] ?? otherTone
  return (
    <span
      data-status={status}
      style={{ background: tone.bg, color: tone.fg }}
      className={css({
        display: 'inline-flex',
        px: '2',
        py: '0.5',
        borderRadius: 'full',
        fontSize: 'xs',
        fontWeight: 'medium',
      })}
    >
      {labels[status] ?? status}
    </span>
  )
}

import { useLingui } from '@lingui/react/macro'
import { css } from 'styled-system/css'
import { token } from 'styled-system/tokens'

const failedTone = { bg: token('colors.status.failed.bg'), fg: token('colors.status.failed.fg') }
/** A row status's colour: completed green, processing blue, pending yellow, failed and rejected red, any other grey. */
const tones: Record<string, { bg: string; fg: string }> = {
  completed: { bg: token('colors.status.completed.bg'), fg: token('colors.status.completed.fg') },
  processing: { bg: token('colors.status.processing.bg'), fg: token('colors.status.processing.fg') },
  pending: { bg: token('colors.status.pending.bg'), fg: token('colors.status.pending.fg') },
  failed: failedTone,
  rejected: failedTone,
}
const otherTone = { bg: token('colors.status.other.bg'), fg: token('colors.status.other.fg') }

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

import { useLingui } from '@lingui/react/macro'
import { css } from 'styled-system/css'

/** A row status's colour: completed green, processing blue, pending yellow, failed red, any other grey. */
const tones: Record<string, { bg: string; fg: string }> = {
  completed: { bg: '#dcfce7', fg: '#166534' },
  processing: { bg: '#dbeafe', fg: '#1e40af' },
  pending: { bg: '#fef9c3', fg: '#854d0e' },
  failed: { bg: '#fee2e2', fg: '#991b1b' },
}

export function StatusBadge({ status }: { status: string }) {
  const { t } = useLingui()
  const labels: Record<string, string> = {
    completed: t`Completed`,
    processing: t`Processing`,
    pending: t`Pending`,
    failed: t`Failed`,
    rejected: t`Rejected`,
  }
  const tone = tones[status] ?? { bg: '#f1f5f9', fg: '#334155' }
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

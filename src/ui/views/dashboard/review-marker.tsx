/**
 * Beside a completed row's status: "Needs review" when processing left warnings, the reasons shown
 * on hover and on keyboard focus; a duplicate's reason names the earlier document and opens it.
 */
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useId } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { DuplicateOf, LogEntry } from '../../../../contract'

/** The warnings processing may leave on a completed document, in the interface's language. */
const WARNING_TEXTS: Record<string, MessageDescriptor> = {
  duplicate: msg`Likely duplicate of an earlier document`,
  date_in_future: msg`The document date is in the future`,
  vat_number_invalid: msg`The VAT number fails its format or check key`,
}
const OTHER_WARNING = msg`Processing left a warning on this document`

/** A completed row whose processing left warnings. */
const needsReview = (log: Pick<LogEntry, 'status' | 'warnings'>) =>
  log.status === 'completed' && (log.warnings?.length ?? 0) > 0

const wrapper = css({
  position: 'relative',
  display: 'inline-flex',
  '&:hover > [data-reasons], &:focus-within > [data-reasons]': {
    clip: 'auto',
    clipPath: 'none',
    w: 'max-content',
    h: 'auto',
    overflow: 'visible',
    whiteSpace: 'normal',
  },
})
const marker = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1',
  px: '2',
  minH: { base: '11', md: '6' },
  borderRadius: 'full',
  fontSize: 'xs',
  fontWeight: 'medium',
  bg: 'amber.100',
  color: 'amber.900',
  whiteSpace: 'nowrap',
  cursor: 'help',
})
// Visually hidden until the marker is hovered or focused, but always in the tab order (its link).
const reasons = css({
  position: 'absolute',
  top: '100%',
  insetStart: '0',
  zIndex: 'tooltip',
  mt: '1',
  p: '3',
  maxW: '72',
  w: '1px',
  h: '1px',
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'md',
  boxShadow: 'lg',
  fontSize: 'sm',
  color: 'fg.default',
  textAlign: 'start',
  cursor: 'auto',
})

export function ReviewMarker({
  log,
  onOpenDuplicate,
}: {
  log: Pick<LogEntry, 'status' | 'warnings' | 'duplicate'>
  onOpenDuplicate: (duplicate: DuplicateOf) => void
}) {
  const id = useId()
  const { i18n } = useLingui()
  if (!needsReview(log)) return null
  return (
    <span className={wrapper}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the reasons show on keyboard focus too */}
      <span tabIndex={0} aria-describedby={id} className={marker}>
        <span aria-hidden="true">⚠</span>
        <Trans>Needs review</Trans>
      </span>
      <span id={id} data-reasons="" className={reasons}>
        <ul
          className={css({ display: 'flex', flexDirection: 'column', gap: '1', listStyle: 'disc', ps: '4' })}
        >
          {(log.warnings ?? []).map((code) =>
            code === 'duplicate' && log.duplicate ? (
              <li key={code}>
                <DuplicateReason duplicate={log.duplicate} onOpen={onOpenDuplicate} />
              </li>
            ) : (
              <li key={code}>{i18n._(WARNING_TEXTS[code] ?? OTHER_WARNING)}</li>
            ),
          )}
        </ul>
      </span>
    </span>
  )
}

function DuplicateReason({
  duplicate,
  onOpen,
}: {
  duplicate: DuplicateOf
  onOpen: (duplicate: DuplicateOf) => void
}) {
  const name = duplicate.name
  return (
    <Trans>
      Likely duplicate of{' '}
      <button
        type="button"
        className={button({ variant: 'link', size: 'sm' })}
        onClick={() => onOpen(duplicate)}
      >
        {name}
      </button>
    </Trans>
  )
}

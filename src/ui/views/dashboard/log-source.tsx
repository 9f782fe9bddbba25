/** Under a dashboard row's name: how an e-mailed document arrived (an e-mail icon and the sender). */
import { useLingui } from '@lingui/react/macro'
import { css } from 'styled-system/css'
import type { LogEntry } from '../../../../contract'
import { MailIcon } from '../../components/icons'
import { messageText } from '../../message-texts'

const line = css({
  display: 'flex',
  alignItems: 'center',
  gap: '1',
  maxW: '200px',
  fontSize: 'xs',
  color: 'fg.muted',
})
const icon = css({ display: 'inline-flex', flexShrink: 0, '& svg': { w: '3.5', h: '3.5' } })

/** Nothing for an upload; for a mail, the icon (named for screen readers) and the sender's address. */
export function LogSource({ log }: { log: Pick<LogEntry, 'source' | 'sender' | 'subject'> }) {
  const { t } = useLingui()
  if (log.source !== 'email') return null
  return (
    <span className={line} title={log.subject ?? undefined}>
      <span role="img" aria-label={t`Received by e-mail`} className={icon}>
        <MailIcon />
      </span>
      {log.sender ? <span className={css({ truncate: true })}>{log.sender}</span> : null}
    </span>
  )
}

const reasonLine = css({ display: 'block', maxW: '200px', fontSize: 'xs', color: 'danger.fg' })

/** Under a rejected entry's name: why it was not processed, in the interface's language. */
export function LogReason({ log }: { log: Pick<LogEntry, 'status' | 'reason'> }) {
  if (log.status !== 'rejected' || !log.reason) return null
  return <span className={reasonLine}>{messageText(log.reason)}</span>
}

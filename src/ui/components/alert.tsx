import { Trans } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { alert } from 'styled-system/recipes'
import type { CallFailure } from '../../machines/shared/failure'
import { failureText } from '../message-texts'
import { Button } from './button'

export function Alert({ status, children }: { status: 'error' | 'info' | 'success'; children: ReactNode }) {
  return (
    <div role={status === 'error' ? 'alert' : 'status'} className={alert({ status })}>
      {children}
    </div>
  )
}

/**
 * A failed call's message, translated by its code (which a problem's detail in words decides);
 * a server error (5xx) shows `fallback` instead. Nothing without a failure.
 */
export function FailureAlert({ failure, fallback }: { failure: CallFailure | null; fallback: string }) {
  if (!failure) return null
  return <Alert status="error">{failure.status >= 500 ? fallback : failureText(failure)}</Alert>
}

const retry = {
  center: css({ display: 'flex', flexDirection: 'column', gap: '3', alignItems: 'center' }),
  start: css({ display: 'flex', flexDirection: 'column', gap: '3', alignItems: 'flex-start' }),
}

/** A load that failed: the error, and a Retry button under it (centred, or at the start). */
export function RetryAlert({
  children,
  onRetry,
  align = 'center',
}: {
  children: ReactNode
  onRetry: () => void
  align?: 'center' | 'start'
}) {
  return (
    <div className={retry[align]}>
      <Alert status="error">{children}</Alert>
      <Button variant="outline" onClick={onRetry}>
        <Trans>Retry</Trans>
      </Button>
    </div>
  )
}

import type { ReactNode } from 'react'
import { alert } from 'styled-system/recipes'
import type { CallFailure } from '../../machines/shared/failure'
import { messageText } from '../message-texts'

export function Alert({ status, children }: { status: 'error' | 'info' | 'success'; children: ReactNode }) {
  return (
    <div role={status === 'error' ? 'alert' : 'status'} className={alert({ status })}>
      {children}
    </div>
  )
}

/**
 * A failed call's message from the server, translated (with `detail`, the problem's detail first);
 * a server error (5xx) shows `fallback` instead. Nothing without a failure.
 */
export function FailureAlert({
  failure,
  fallback,
  detail,
}: {
  failure: CallFailure | null
  fallback: string
  detail?: boolean
}) {
  if (!failure) return null
  const text = detail ? (failure.detail ?? failure.message) : failure.message
  return <Alert status="error">{failure.status >= 500 ? fallback : messageText(text)}</Alert>
}

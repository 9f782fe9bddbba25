import type { ReactNode } from 'react'
import { alert } from 'styled-system/recipes'

export function Alert({ status, children }: { status: 'error' | 'info' | 'success'; children: ReactNode }) {
  return (
    <div role={status === 'error' ? 'alert' : 'status'} className={alert({ status })}>
      {children}
    </div>
  )
}

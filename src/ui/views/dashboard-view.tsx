import { Trans } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { useAppActors } from '../app-context'

export function DashboardView() {
  const { session } = useAppActors()
  const name = useSelector(session, (s) => s.context.user?.name ?? '')
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', maxW: '6xl', mx: 'auto' })}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', letterSpacing: 'tight' })}>
        <Trans>Welcome back, {name}!</Trans>
      </h1>
      <p className={css({ color: 'fg.muted' })}>
        <Trans>Here is what is happening with your documents.</Trans>
      </p>
    </div>
  )
}

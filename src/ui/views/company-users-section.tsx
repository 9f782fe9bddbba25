import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { useAppActors, useScreenActor } from '../app-context'
import { Alert } from '../components/alert'
import { Button } from '../components/button'

/** Company administrators see their company's users, read-only. */
export function CompanyUsersSection({ companyId }: { companyId: number }) {
  const { machines } = useAppActors()
  const actor = useScreenActor(machines.companyUsers, { input: { companyId } })
  const phase = useSelector(actor, (s) => s.value)
  const users = useSelector(actor, (s) => s.context.users)
  const { t } = useLingui()
  return (
    <div className={stack({ gap: '4' })}>
      <Alert status="info">
        <Trans>To add or remove users of your company, please contact your service provider.</Trans>
      </Alert>
      {phase === 'loading' ? (
        <div role="status" aria-label={t`Loading users`} className={stack({ gap: '2' })}>
          {[0, 1, 2].map((i) => (
            <div
              key={i}
              className={css({ h: '10', borderRadius: 'md', bg: 'bg.subtle', animation: 'pulse' })}
            />
          ))}
        </div>
      ) : null}
      {phase === 'failed' ? (
        <div className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <Alert status="error">
            <Trans>Failed to load company users</Trans>
          </Alert>
          <Button variant="outline" size="sm" onClick={() => actor.send({ type: 'users.retry' })}>
            <Trans>Retry</Trans>
          </Button>
        </div>
      ) : null}
      {phase === 'ready' ? (
        <div className={css({ overflowX: 'auto' })}>
          <table className={css({ w: 'full', fontSize: 'sm', borderCollapse: 'collapse', minW: 'lg' })}>
            <thead>
              <tr
                className={css({
                  textAlign: 'left',
                  color: 'fg.muted',
                  borderBottomWidth: '1px',
                  borderColor: 'border.default',
                })}
              >
                <th className={css({ py: '2', pr: '4', fontWeight: 'medium' })}>
                  <Trans>Name</Trans>
                </th>
                <th className={css({ py: '2', pr: '4', fontWeight: 'medium' })}>
                  <Trans>Email</Trans>
                </th>
                <th className={css({ py: '2', fontWeight: 'medium' })}>
                  <Trans>Role</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id} className={css({ borderBottomWidth: '1px', borderColor: 'border.default' })}>
                  <td className={css({ py: '2', pr: '4' })}>
                    {u.name} {u.surname}
                  </td>
                  <td className={css({ py: '2', pr: '4' })}>{u.email}</td>
                  <td className={css({ py: '2' })}>
                    {u.company_role === 'COMPANY_ADMIN' ? t`Admin` : t`User`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  )
}

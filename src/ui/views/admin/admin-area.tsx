/**
 * The administration area of /settings (platform administrators): Companies, New company and
 * Users tabs. Loaded lazily by the settings page: `lazy(() => import('./admin/admin-area'))`.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { use, useCallback } from 'react'
import { css } from 'styled-system/css'
import { isPlatformAdmin as isPlatformAdminUser } from '../../../../contract'
import { useAppActors, useScreenActor } from '../../app-context'
import { Tabs } from '../../components/tabs'
import { CompaniesTab } from './companies-tab'
import { NewCompanyTab } from './new-company-tab'
import { UsersTab } from './users-tab'

function AdminArea() {
  const { session, loadAdmin } = useAppActors()
  // Suspends (the settings page shows a spinner) until the admin API and machines are loaded.
  const machines = use(loadAdmin())
  const email = useSelector(session, (s) => s.context.user?.email ?? '')
  const isPlatformAdmin = useSelector(session, (s) => isPlatformAdminUser(s.context.user))
  const companies = useScreenActor(machines.adminCompanies, { input: { currentUserEmail: email } })
  const users = useScreenActor(machines.adminUsers, { input: { currentUserEmail: email } })
  const companyOptions = useSelector(companies, (s) => s.context.companies)
  const { t } = useLingui()
  const refreshCompanies = useCallback(() => companies.send({ type: 'list.refresh' }), [companies])

  return (
    <Tabs.Root defaultValue="companies" lazyMount={false}>
      <Tabs.List aria-label={t`Administration`}>
        <Tabs.Trigger value="companies">
          <Trans>Companies</Trans>
        </Tabs.Trigger>
        <Tabs.Trigger value="new-company">
          <Trans>New company</Trans>
        </Tabs.Trigger>
        <Tabs.Trigger value="users">
          <Trans>Users</Trans>
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="companies">
        <CompaniesTab list={companies} />
      </Tabs.Content>
      <Tabs.Content value="new-company">
        <div className={css({ pt: '2' })}>
          <NewCompanyTab machine={machines.createCompany} onCreated={refreshCompanies} />
        </div>
      </Tabs.Content>
      <Tabs.Content value="users">
        <UsersTab list={users} companies={companyOptions} canInvite={isPlatformAdmin} />
      </Tabs.Content>
    </Tabs.Root>
  )
}

export default AdminArea

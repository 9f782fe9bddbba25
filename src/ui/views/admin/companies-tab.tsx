/** Companies tab: the table, the enable/disable confirmation and the edit sheet. */
import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { Company } from '../../../../contract'
import { type AdminCompaniesMachine, selectedCompany } from '../../../machines/admin/admin-companies.machine'
import { Badge } from '../../components/badge'
import { Td, Tr } from '../../components/table'
import { AdminListTable, RowActions, StatusConfirmDialog, useListBusy } from './admin-list'
import { type CompanyEditActor, CompanyEditSheet } from './company-edit-sheet'

export type AdminCompaniesActor = ActorRefFrom<AdminCompaniesMachine>

export function CompaniesTab({ list }: { list: AdminCompaniesActor }) {
  const { t } = useLingui()
  const companies = useSelector(list, (s) => s.context.companies)
  const busy = useListBusy(list)
  const target = useSelector(list, (s) => selectedCompany(s.context))
  const editor = useSelector(list, (s) => s.children.companyEdit as CompanyEditActor | undefined)

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <AdminListTable
        list={list}
        label={t`Companies`}
        columns={[t`Name`, t`Admins`, t`Other users`, t`Status`]}
        count={companies.length}
        failedText={<Trans>Failed to fetch companies</Trans>}
        emptyText={<Trans>No companies yet. Create one in the New company tab.</Trans>}
      >
        {companies.map((c) => (
          <CompanyRow key={c.id} company={c} busy={busy} list={list} />
        ))}
      </AdminListTable>
      <StatusConfirmDialog
        list={list}
        enabled={target?.enabled ?? false}
        title={target?.enabled ? t`Disable company?` : t`Enable company?`}
        description={
          target?.enabled
            ? t`${target.name} and its users will no longer have access until it is enabled again.`
            : t`${target?.name ?? ''} will be available to its users again.`
        }
      />
      {editor ? <CompanyEditSheet actor={editor} /> : null}
    </div>
  )
}

/** A company's row: name, admins, other users, status, and its edit / enable-disable actions. */
function CompanyRow({
  company: c,
  busy,
  list,
}: {
  company: Company
  busy: boolean
  list: AdminCompaniesActor
}) {
  const admins = c.users.filter((u) => u.company_role === 'COMPANY_ADMIN')
  const others = c.users.length - admins.length
  return (
    <Tr>
      <Td className={css({ fontWeight: 'medium' })}>{c.name}</Td>
      <Td>
        {admins.length === 0 ? (
          <span className={css({ color: 'fg.subtle' })}>-</span>
        ) : (
          admins.map((a) => `${a.name} ${a.surname}`).join(', ')
        )}
      </Td>
      <Td>{others}</Td>
      <Td>
        <Badge tone={c.enabled ? 'success' : 'neutral'}>
          {c.enabled ? (
            <Trans context="company status">Active</Trans>
          ) : (
            <Trans context="company status">Disabled</Trans>
          )}
        </Badge>
      </Td>
      <Td>
        <RowActions
          row={c}
          busy={busy}
          onEdit={() => list.send({ type: 'company.edit', companyId: c.id })}
          onToggle={() => list.send({ type: 'status.toggle', companyId: c.id })}
        />
      </Td>
    </Tr>
  )
}

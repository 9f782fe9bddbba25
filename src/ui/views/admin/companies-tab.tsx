/** Companies tab: the table, the enable/disable confirmation and the edit sheet. */
import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { Company } from '../../../contract'
import { type AdminCompaniesMachine, selectedCompany } from '../../../machines/admin/admin-companies.machine'
import { Alert } from '../../components/alert'
import { Badge } from '../../components/badge'
import { Button } from '../../components/button'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { DataTable, MessageRow, SkeletonRows, Td, Th, Tr } from '../../components/table'
import { type CompanyEditActor, CompanyEditSheet } from './company-edit-sheet'

export type AdminCompaniesActor = ActorRefFrom<AdminCompaniesMachine>

const COLUMNS = 5

export function CompaniesTab({ list }: { list: AdminCompaniesActor }) {
  const { t } = useLingui()
  const companies = useSelector(list, (s) => s.context.companies)
  const loading = useSelector(list, (s) => s.hasTag('loading'))
  const failed = useSelector(list, (s) => s.matches('failed'))
  const busy = useSelector(list, (s) => s.hasTag('busy'))
  const confirming = useSelector(list, (s) => s.matches('confirmingStatus') || s.matches('updatingStatus'))
  const target = useSelector(list, (s) => selectedCompany(s.context))
  const editor = useSelector(list, (s) => s.children.companyEdit as CompanyEditActor | undefined)

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <DataTable
        label={t`Companies`}
        busy={busy}
        head={
          <>
            <Th>
              <Trans>Name</Trans>
            </Th>
            <Th>
              <Trans>Admins</Trans>
            </Th>
            <Th>
              <Trans>Other users</Trans>
            </Th>
            <Th>
              <Trans>Status</Trans>
            </Th>
            <Th className={css({ textAlign: 'right' })}>
              <Trans>Actions</Trans>
            </Th>
          </>
        }
      >
        {loading && companies.length === 0 ? <SkeletonRows columns={COLUMNS} /> : null}
        {failed ? (
          <MessageRow columns={COLUMNS}>
            <div
              className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3' })}
            >
              <Alert status="error">
                <Trans>Failed to fetch companies</Trans>
              </Alert>
              <Button variant="outline" onClick={() => list.send({ type: 'list.retry' })}>
                <Trans>Retry</Trans>
              </Button>
            </div>
          </MessageRow>
        ) : null}
        {!loading && !failed && companies.length === 0 ? (
          <MessageRow columns={COLUMNS}>
            <Trans>No companies yet. Create one in the New company tab.</Trans>
          </MessageRow>
        ) : null}
        {failed ? null : companies.map((c) => <CompanyRow key={c.id} company={c} busy={busy} list={list} />)}
      </DataTable>
      <ConfirmDialog
        open={confirming}
        danger={target?.enabled ?? false}
        closeOnInteractOutside={false}
        title={target?.enabled ? t`Disable company?` : t`Enable company?`}
        description={
          target?.enabled
            ? t`${target.name} and its users will no longer have access until it is enabled again.`
            : t`${target?.name ?? ''} will be available to its users again.`
        }
        confirmLabel={target?.enabled ? t`Disable` : t`Enable`}
        cancelLabel={t`Cancel`}
        onConfirm={() => list.send({ type: 'status.confirm' })}
        onCancel={() => list.send({ type: 'status.cancel' })}
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
  const { t } = useLingui()
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
        {c.enabled ? (
          <Badge tone="success">
            <Trans context="company status">Active</Trans>
          </Badge>
        ) : (
          <Badge tone="neutral">
            <Trans context="company status">Disabled</Trans>
          </Badge>
        )}
      </Td>
      <Td>
        <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
          <Button
            variant="outline"
            size="sm"
            disabled={busy}
            aria-label={t`Edit ${c.name}`}
            onClick={() => list.send({ type: 'company.edit', companyId: c.id })}
          >
            <Trans>Edit</Trans>
          </Button>
          <Button
            variant="ghost"
            size="sm"
            disabled={busy}
            aria-label={c.enabled ? t`Disable ${c.name}` : t`Enable ${c.name}`}
            onClick={() => list.send({ type: 'status.toggle', companyId: c.id })}
          >
            {c.enabled ? <Trans>Disable</Trans> : <Trans>Enable</Trans>}
          </Button>
        </div>
      </Td>
    </Tr>
  )
}

/** Users tab: the table, the enable/disable confirmation, the edit dialog and the invite dialog. */
import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import { type AdminUser, GLOBAL_ROLES } from '../../../../contract'
import { type AdminUsersMachine, selectedUser } from '../../../machines/admin/admin-users.machine'
import type { InviteUserMachine } from '../../../machines/admin/invite-user.machine'
import { Alert } from '../../components/alert'
import { Badge } from '../../components/badge'
import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import { SelectField } from '../../components/select'
import { Sheet } from '../../components/sheet'
import { Spinner } from '../../components/spinner'
import { Td, Tr } from '../../components/table'
import { formValues, translateErrors } from '../../forms'
import { failureText } from '../../message-texts'
import { AdminListTable, RowActions, StatusConfirmDialog, useListBusy } from './admin-list'
import { InviteUserDialog } from './invite-user-dialog'
import { companiesSummary, roleLabel } from './labels'

export type AdminUsersActor = ActorRefFrom<AdminUsersMachine>
type InviteActor = ActorRefFrom<InviteUserMachine>

const fullName = (u: { name: string; surname: string }) => `${u.name} ${u.surname}`

export function UsersTab({
  list,
  companies,
  canInvite,
}: {
  list: AdminUsersActor
  companies: { id: number; name: string }[]
  canInvite: boolean
}) {
  const { t } = useLingui()
  const users = useSelector(list, (s) => s.context.users)
  const busy = useListBusy(list)
  const editing = useSelector(list, (s) => s.matches('editing'))
  const target = useSelector(list, (s) => selectedUser(s.context))
  const invite = useSelector(list, (s) => s.children.inviteUser as InviteActor | undefined)

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      {canInvite ? (
        <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
          <Button onClick={() => list.send({ type: 'invite.open' })} disabled={busy}>
            <Trans>Invite user</Trans>
          </Button>
        </div>
      ) : null}
      <AdminListTable
        list={list}
        label={t`Users`}
        columns={[t`Name`, t`Email`, t`Status`, t`Role`, t`Companies`, t`2FA`]}
        count={users.length}
        failedText={<Trans>Failed to fetch users</Trans>}
        emptyText={<Trans>No users yet.</Trans>}
      >
        {users.map((u) => (
          <UserRow key={u.id} user={u} busy={busy} list={list} />
        ))}
      </AdminListTable>
      <StatusConfirmDialog
        list={list}
        enabled={target?.enabled ?? false}
        title={target?.enabled ? t`Disable user?` : t`Enable user?`}
        description={
          target?.enabled
            ? t`${target ? fullName(target) : ''} will be signed out and can no longer sign in until enabled again.`
            : t`${target ? fullName(target) : ''} will be able to sign in again.`
        }
      />
      {editing && target ? <EditUserDialog list={list} /> : null}
      {invite && canInvite ? <InviteUserDialog actor={invite} companies={companies} /> : null}
    </div>
  )
}

/** A user's row: name, e-mail, status, role, companies, 2FA, and its edit / enable-disable actions. */
function UserRow({ user: u, busy, list }: { user: AdminUser; busy: boolean; list: AdminUsersActor }) {
  const { i18n } = useLingui()
  return (
    <Tr muted={!u.enabled}>
      <Td className={css({ fontWeight: 'medium', whiteSpace: 'nowrap' })}>{fullName(u)}</Td>
      <Td>{u.email}</Td>
      <Td>
        {!u.validated ? (
          <Badge tone="warning">
            <Trans>Invited</Trans>
          </Badge>
        ) : u.enabled ? (
          <Badge tone="success">
            <Trans>Active</Trans>
          </Badge>
        ) : (
          <Badge tone="neutral">
            <Trans>Disabled</Trans>
          </Badge>
        )}
      </Td>
      <Td className={css({ whiteSpace: 'nowrap' })}>{roleLabel(i18n, u.role)}</Td>
      <Td
        className={css({ whiteSpace: 'nowrap' })}
        title={u.companies.map((c) => c.company_name).join(', ') || undefined}
      >
        {companiesSummary(i18n, u)}
      </Td>
      <Td>
        <Badge tone={u.is_2fa_enabled ? 'success' : 'neutral'}>
          {u.is_2fa_enabled ? <Trans>On</Trans> : <Trans>Off</Trans>}
        </Badge>
      </Td>
      <Td>
        <RowActions
          row={{ name: fullName(u), enabled: u.enabled }}
          busy={busy}
          onEdit={() => list.send({ type: 'user.edit', userId: u.id })}
          onToggle={() => list.send({ type: 'status.toggle', userId: u.id })}
        />
      </Td>
    </Tr>
  )
}

function EditUserDialog({ list }: { list: AdminUsersActor }) {
  const { t, i18n } = useLingui()
  const user = useSelector(list, (s) => selectedUser(s.context))
  const saving = useSelector(list, (s) => s.hasTag('savingUser'))
  const failure = useSelector(list, (s) => s.context.editFailure)
  const errors = translateErrors(useSelector(list, (s) => s.context.editErrors))
  if (!user) return null
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    list.send({ type: 'user.save', values: formValues(e.currentTarget) })
  }
  return (
    <Sheet
      open
      placement="center"
      busy={saving}
      onClose={() => list.send({ type: 'user.close' })}
      title={<Trans>Edit user</Trans>}
      description={user.email}
      closeLabel={t`Close`}
      footer={
        <>
          <Button variant="outline" onClick={() => list.send({ type: 'user.close' })} disabled={saving}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" form="edit-user-form" disabled={saving} aria-busy={saving}>
            {saving ? <Spinner size={4} /> : null}
            <Trans>Save changes</Trans>
          </Button>
        </>
      }
    >
      <form id="edit-user-form" onSubmit={onSubmit} noValidate>
        <fieldset disabled={saving} className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          {failure ? (
            <Alert status="error">
              {failure.status >= 500 ? t`Failed to update user` : failureText(failure)}
            </Alert>
          ) : null}
          <TextField label={t`Name`} name="name" defaultValue={user.name} error={errors.name} required />
          <TextField
            label={t`Surname`}
            name="surname"
            defaultValue={user.surname}
            error={errors.surname}
            required
          />
          <SelectField
            label={t`Role`}
            name="role"
            defaultValue={user.role}
            error={errors.role}
            options={GLOBAL_ROLES.map((r) => ({ value: r, label: roleLabel(i18n, r) }))}
          />
        </fieldset>
      </form>
    </Sheet>
  )
}

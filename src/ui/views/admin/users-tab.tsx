/** Users tab: the table, the enable/disable confirmation, the edit dialog and the invite dialog. */
import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import { type AdminUser, GLOBAL_ROLES } from '../../../contract'
import { type AdminUsersMachine, selectedUser } from '../../../machines/admin/admin-users.machine'
import type { InviteUserMachine } from '../../../machines/admin/invite-user.machine'
import { Alert } from '../../components/alert'
import { Badge } from '../../components/badge'
import { Button } from '../../components/button'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { TextField } from '../../components/field'
import { SelectField } from '../../components/select'
import { Sheet } from '../../components/sheet'
import { Spinner } from '../../components/spinner'
import { DataTable, MessageRow, SkeletonRows, Td, Th, Tr } from '../../components/table'
import { formValues, translateErrors } from '../../forms'
import { failureText } from '../../message-texts'
import { InviteUserDialog } from './invite-user-dialog'
import { companiesSummary, roleLabel } from './labels'

export type AdminUsersActor = ActorRefFrom<AdminUsersMachine>
type InviteActor = ActorRefFrom<InviteUserMachine>

const COLUMNS = 7

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
  const loading = useSelector(list, (s) => s.hasTag('loading'))
  const failed = useSelector(list, (s) => s.matches('failed'))
  const busy = useSelector(list, (s) => s.hasTag('busy'))
  const confirming = useSelector(list, (s) => s.matches('confirmingStatus') || s.matches('updatingStatus'))
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
      <DataTable
        label={t`Users`}
        busy={busy}
        head={
          <>
            <Th>
              <Trans>Name</Trans>
            </Th>
            <Th>
              <Trans>Email</Trans>
            </Th>
            <Th>
              <Trans>Status</Trans>
            </Th>
            <Th>
              <Trans>Role</Trans>
            </Th>
            <Th>
              <Trans>Companies</Trans>
            </Th>
            <Th>
              <Trans>2FA</Trans>
            </Th>
            <Th className={css({ textAlign: 'right' })}>
              <Trans>Actions</Trans>
            </Th>
          </>
        }
      >
        {loading && users.length === 0 ? <SkeletonRows columns={COLUMNS} /> : null}
        {failed ? (
          <MessageRow columns={COLUMNS}>
            <div
              className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3' })}
            >
              <Alert status="error">
                <Trans>Failed to fetch users</Trans>
              </Alert>
              <Button variant="outline" onClick={() => list.send({ type: 'list.retry' })}>
                <Trans>Retry</Trans>
              </Button>
            </div>
          </MessageRow>
        ) : null}
        {!loading && !failed && users.length === 0 ? (
          <MessageRow columns={COLUMNS}>
            <Trans>No users yet.</Trans>
          </MessageRow>
        ) : null}
        {failed ? null : users.map((u) => <UserRow key={u.id} user={u} busy={busy} list={list} />)}
      </DataTable>
      <ConfirmDialog
        open={confirming}
        danger={target?.enabled ?? false}
        closeOnInteractOutside={false}
        title={target?.enabled ? t`Disable user?` : t`Enable user?`}
        description={
          target?.enabled
            ? t`${target ? fullName(target) : ''} will be signed out and can no longer sign in until enabled again.`
            : t`${target ? fullName(target) : ''} will be able to sign in again.`
        }
        confirmLabel={target?.enabled ? t`Disable` : t`Enable`}
        cancelLabel={t`Cancel`}
        onConfirm={() => list.send({ type: 'status.confirm' })}
        onCancel={() => list.send({ type: 'status.cancel' })}
      />
      {editing && target ? <EditUserDialog list={list} /> : null}
      {invite && canInvite ? <InviteUserDialog actor={invite} companies={companies} /> : null}
    </div>
  )
}

/** A user's row: name, e-mail, status, role, companies, 2FA, and its edit / enable-disable actions. */
function UserRow({ user: u, busy, list }: { user: AdminUser; busy: boolean; list: AdminUsersActor }) {
  const { t, i18n } = useLingui()
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
        {u.is_2fa_enabled ? (
          <Badge tone="success">
            <Trans>On</Trans>
          </Badge>
        ) : (
          <Badge tone="neutral">
            <Trans>Off</Trans>
          </Badge>
        )}
      </Td>
      <Td>
        <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
          <Button
            variant="outline"
            size="sm"
            disabled={busy}
            aria-label={t`Edit ${fullName(u)}`}
            onClick={() => list.send({ type: 'user.edit', userId: u.id })}
          >
            <Trans>Edit</Trans>
          </Button>
          <Button
            variant="ghost"
            size="sm"
            disabled={busy}
            aria-label={u.enabled ? t`Disable ${fullName(u)}` : t`Enable ${fullName(u)}`}
            onClick={() => list.send({ type: 'status.toggle', userId: u.id })}
          >
            {u.enabled ? <Trans>Disable</Trans> : <Trans>Enable</Trans>}
          </Button>
        </div>
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

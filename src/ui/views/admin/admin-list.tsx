/**
 * What the administration's two lists (companies, users) show alike around their own rows: the
 * table with its skeleton, failed (retry) and empty rows, the row's edit / enable-disable actions
 * and the enable/disable confirmation. Both run on the list states of `machines/admin/admin-list`.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { AdminCompaniesMachine } from '../../../machines/admin/admin-companies.machine'
import type { AdminUsersMachine } from '../../../machines/admin/admin-users.machine'
import { Alert } from '../../components/alert'
import { Button } from '../../components/button'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { DataTable, MessageRow, SkeletonRows, Th } from '../../components/table'

export type AdminListActor = ActorRefFrom<AdminCompaniesMachine> | ActorRefFrom<AdminUsersMachine>

/** `busy` while the list loads or a change is sent: the row actions wait. */
export const useListBusy = (list: AdminListActor) => useSelector(list, (s) => s.hasTag('busy'))

/** The table: one header a column (the last, "Actions", right-aligned), then the rows once loaded. */
export function AdminListTable({
  list,
  label,
  columns,
  count,
  failedText,
  emptyText,
  children,
}: {
  list: AdminListActor
  label: string
  /** The column headers before "Actions". */
  columns: string[]
  /** How many rows are loaded. */
  count: number
  failedText: ReactNode
  emptyText: ReactNode
  children: ReactNode
}) {
  const loading = useSelector(list, (s) => s.hasTag('loading'))
  const failed = useSelector(list, (s) => s.matches('failed'))
  const busy = useListBusy(list)
  const span = columns.length + 1
  return (
    <DataTable
      label={label}
      busy={busy}
      head={
        <>
          {columns.map((column) => (
            <Th key={column}>{column}</Th>
          ))}
          <Th className={css({ textAlign: 'right' })}>
            <Trans>Actions</Trans>
          </Th>
        </>
      }
    >
      {loading && count === 0 ? <SkeletonRows columns={span} /> : null}
      {failed ? (
        <MessageRow columns={span}>
          <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3' })}>
            <Alert status="error">{failedText}</Alert>
            <Button variant="outline" onClick={() => list.send({ type: 'list.retry' })}>
              <Trans>Retry</Trans>
            </Button>
          </div>
        </MessageRow>
      ) : null}
      {!loading && !failed && count === 0 ? <MessageRow columns={span}>{emptyText}</MessageRow> : null}
      {failed ? null : children}
    </DataTable>
  )
}

/** A row's last cell: "Edit" and "Enable"/"Disable", both named after the row for screen readers. */
export function RowActions({
  row,
  busy,
  onEdit,
  onToggle,
}: {
  row: { name: string; enabled: boolean }
  busy: boolean
  onEdit: () => void
  onToggle: () => void
}) {
  const { t } = useLingui()
  return (
    <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
      <Button variant="outline" size="sm" disabled={busy} aria-label={t`Edit ${row.name}`} onClick={onEdit}>
        <Trans>Edit</Trans>
      </Button>
      <Button
        variant="ghost"
        size="sm"
        disabled={busy}
        aria-label={row.enabled ? t`Disable ${row.name}` : t`Enable ${row.name}`}
        onClick={onToggle}
      >
        {row.enabled ? <Trans>Disable</Trans> : <Trans>Enable</Trans>}
      </Button>
    </div>
  )
}

/** The enable/disable confirmation, open while the list confirms or sends the change. */
export function StatusConfirmDialog({
  list,
  enabled,
  title,
  description,
}: {
  list: AdminListActor
  /** The selected row is enabled: the dialog disables it. */
  enabled: boolean
  title: string
  description: string
}) {
  const { t } = useLingui()
  const open = useSelector(list, (s) => s.matches('confirmingStatus') || s.matches('updatingStatus'))
  return (
    <ConfirmDialog
      open={open}
      danger={enabled}
      closeOnInteractOutside={false}
      title={title}
      description={description}
      confirmLabel={enabled ? t`Disable` : t`Enable`}
      cancelLabel={t`Cancel`}
      onConfirm={() => list.send({ type: 'status.confirm' })}
      onCancel={() => list.send({ type: 'status.cancel' })}
    />
  )
}

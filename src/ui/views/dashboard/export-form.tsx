/**
 * The export dialog's form: the kind, a date range, a status and the separator. Loaded with its
 * own chunk when the Export button is first pointed at, focused or pressed (the dialog widget is
 * tens of KiB the dashboard's first screen does not need).
 */
import { useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { FinancialKind } from '../../../../contract'
import {
  EXPORT_STATUSES,
  type ExportMachine,
  type ExportStatus,
  type Separator,
} from '../../../machines/dashboard/export.machine'
import { TextField } from '../../components/field'
import { FormDialog } from '../../components/form-dialog'
import { SelectField } from '../../components/select'

export type ExportActor = ActorRefFrom<ExportMachine>

/** The dialog of a running `export` actor. */
export default function ExportForm({ actor }: { actor: ExportActor }) {
  const { t } = useLingui()
  const open = useSelector(actor, (s) => s.matches('open'))
  const kind = useSelector(actor, (s) => s.context.kind)
  const status = useSelector(actor, (s) => s.context.status)
  const separator = useSelector(actor, (s) => s.context.separator)
  const startDate = useSelector(actor, (s) => s.context.startDate)
  const endDate = useSelector(actor, (s) => s.context.endDate)
  const rangeError = useSelector(actor, (s) => s.context.rangeError)
  const statusLabels: Record<(typeof EXPORT_STATUSES)[number], string> = {
    completed: t`Completed`,
    failed: t`Failed`,
    processing: t`Processing`,
  }
  return (
    <FormDialog
      open={open}
      busy={false}
      onClose={() => actor.send({ type: 'export.cancel' })}
      onSubmit={() => actor.send({ type: 'export.submit' })}
      title={t`Export to CSV`}
      description={t`One row per document with every field, its status, upload date and file name.`}
      formId="export-form"
      submitLabel={t`Download`}
    >
      <SelectField
        label={t`Documents`}
        value={kind}
        options={[
          { value: 'invoice', label: t`Invoices` },
          { value: 'expense', label: t`Expenses` },
        ]}
        onChange={(e) => actor.send({ type: 'kind.select', kind: e.target.value as FinancialKind })}
      />
      <div
        className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '3' })}
      >
        <TextField
          type="date"
          label={t`From`}
          value={startDate}
          onChange={(e) => actor.send({ type: 'range.change', startDate: e.target.value, endDate })}
        />
        <TextField
          type="date"
          label={t`To`}
          value={endDate}
          error={rangeError ? t`The end date is before the start date` : undefined}
          onChange={(e) => actor.send({ type: 'range.change', startDate, endDate: e.target.value })}
        />
      </div>
      <SelectField
        label={t`Status`}
        value={status}
        options={[
          { value: '', label: t`All statuses` },
          ...EXPORT_STATUSES.map((s) => ({ value: s, label: statusLabels[s] })),
        ]}
        onChange={(e) => actor.send({ type: 'status.select', status: e.target.value as ExportStatus })}
      />
      <SelectField
        label={t`Separator`}
        value={separator}
        options={[
          { value: ';', label: t`Semicolon (;)` },
          { value: ',', label: t`Comma (,)` },
        ]}
        onChange={(e) => actor.send({ type: 'separator.select', separator: e.target.value as Separator })}
      />
    </FormDialog>
  )
}

/**
 * The dashboard's CSV export: a button, then a dialog to choose the kind, a date range, a status
 * and the separator. The view reads the `export` actor and sends; the machine starts the download.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { FinancialKind } from '../../../contract'
import {
  EXPORT_STATUSES,
  type ExportMachine,
  type ExportStatus,
  type Separator,
} from '../../../machines/dashboard/export.machine'
import { type Filters, NO_FILTERS } from '../../../machines/dashboard/filters.machine'
import { useAppActors, useScreenActor } from '../../app-context'
import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import { FormDialog } from '../../components/form-dialog'
import { SelectField } from '../../components/select'
import { i18n } from '../../i18n'

export type ExportActor = ActorRefFrom<ExportMachine>

/** The user's day as yyyy-mm-dd, in their time zone (the worklist's date presets count from it). */
function localToday(): string {
  const now = new Date()
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/** The Export button of the selected company's dashboard and its dialog, opened with the worklist's `filters`. */
export function ExportButton({ companyId, filters }: { companyId: number; filters: Filters }) {
  const { machines } = useAppActors()
  const actor = useScreenActor(machines.exportDocuments, { input: { companyId } })
  return <ExportView actor={actor} filters={filters} />
}

/** The button and the dialog of a running `export` actor; the dialog starts from `filters`. */
export function ExportView({ actor, filters = NO_FILTERS }: { actor: ExportActor; filters?: Filters }) {
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
    <>
      <Button
        variant="outline"
        size="sm"
        aria-haspopup="dialog"
        onClick={() =>
          actor.send({
            type: 'export.open',
            language: i18n.locale === 'fr' ? 'fr' : 'en',
            filters,
            today: localToday(),
          })
        }
      >
        <Trans>Export CSV</Trans>
      </Button>
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
    </>
  )
}

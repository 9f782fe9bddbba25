/**
 * The dashboard's CSV export: a button, then a dialog to choose the kind, a date range, a status
 * and the separator. The view reads the `export` actor and sends; the machine starts the download.
 * The dialog's form travels in its own chunk (./export-form), fetched on the first intent.
 */
import { Trans } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { type ComponentType, Suspense, useState } from 'react'
import { type Filters, NO_FILTERS } from '../../../machines/dashboard/filters.machine'
import { useAppActors, useScreenActor } from '../../app-context'
import { Button } from '../../components/button'
import { i18n } from '../../i18n'
import { lazyRetrying } from '../../lazy-retrying'
import type { ExportActor } from './export-form'

const loadForm = () => import('./export-form')
const LazyExportForm = lazyRetrying(loadForm)
const preload = () => void loadForm().catch(() => undefined)

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

/**
 * The button and the dialog of a running `export` actor; the dialog starts from `filters`. `Form`
 * is the dialog (the lazy chunk by default; view tests give the module itself). Once opened, it
 * stays mounted so it can animate out.
 */
export function ExportView({
  actor,
  filters = NO_FILTERS,
  Form = LazyExportForm,
}: {
  actor: ExportActor
  filters?: Filters
  Form?: ComponentType<{ actor: ExportActor }>
}) {
  const open = useSelector(actor, (s) => s.matches('open'))
  const [mounted, setMounted] = useState(open)
  if (open && !mounted) setMounted(true)
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        aria-haspopup="dialog"
        onPointerEnter={preload}
        onFocus={preload}
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
      {mounted ? (
        <Suspense fallback={null}>
          <Form actor={actor} />
        </Suspense>
      ) : null}
    </>
  )
}

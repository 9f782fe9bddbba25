/**
 * The dashboard's CSV export: a button, then a dialog to choose the kind, a date range, a status
 * and the separator. The view reads the `export` actor and sends; the machine starts the download.
 * The dialog's form travels in its own chunk (./export-form), fetched on the first intent.
 */
import { Trans } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { type ComponentType, lazy, Suspense, useState } from 'react'
import { useAppActors, useScreenActor } from '../../app-context'
import { Button } from '../../components/button'
import { i18n } from '../../i18n'
import type { ExportActor } from './export-form'

const loadForm = () => import('./export-form')
const LazyExportForm = lazy(loadForm)
const preload = () => void loadForm().catch(() => undefined)

/** The Export button of the selected company's dashboard and its dialog. */
export function ExportButton({ companyId }: { companyId: number }) {
  const { machines } = useAppActors()
  const actor = useScreenActor(machines.exportDocuments, { input: { companyId } })
  return <ExportView actor={actor} />
}

/**
 * The button and the dialog of a running `export` actor. `Form` is the dialog (the lazy chunk by
 * default; view tests give the module itself). Once opened, it stays mounted so it can animate out.
 */
export function ExportView({
  actor,
  Form = LazyExportForm,
}: {
  actor: ExportActor
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
        onClick={() => actor.send({ type: 'export.open', language: i18n.locale === 'fr' ? 'fr' : 'en' })}
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

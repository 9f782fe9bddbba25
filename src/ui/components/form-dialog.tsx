/**
 * A form in a centred dialog: the fields (disabled while `busy`), Cancel and the submit button in the
 * footer. Submitting hands the form's values to `onSubmit`; the dialog stays open while busy.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import type { FormEvent, ReactNode } from 'react'
import { stack } from 'styled-system/patterns'
import { formValues } from '../forms'
import { BusyButton, Button } from './button'
import { Sheet } from './sheet'

export function FormDialog(props: {
  open: boolean
  busy: boolean
  onClose: () => void
  onSubmit: (values: Record<string, string>) => void
  title: ReactNode
  description?: ReactNode
  /** The form's id, which the footer's submit button names. */
  formId: string
  submitLabel: ReactNode
  children: ReactNode
}) {
  const { t } = useLingui()
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    props.onSubmit(formValues(e.currentTarget))
  }
  return (
    <Sheet
      open={props.open}
      placement="center"
      busy={props.busy}
      onClose={props.onClose}
      title={props.title}
      description={props.description}
      closeLabel={t`Close`}
      footer={
        <>
          <Button variant="outline" onClick={props.onClose} disabled={props.busy}>
            <Trans>Cancel</Trans>
          </Button>
          <BusyButton type="submit" form={props.formId} busy={props.busy}>
            {props.submitLabel}
          </BusyButton>
        </>
      }
    >
      <form id={props.formId} onSubmit={onSubmit} noValidate>
        <fieldset disabled={props.busy} className={stack({ gap: '4' })}>
          {props.children}
        </fieldset>
      </form>
    </Sheet>
  )
}

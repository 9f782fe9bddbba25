/** New company tab: a name (≥ 2 characters) and create; the company list reloads afterwards. */
import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { type FormEvent, useEffect, useRef } from 'react'
import { css } from 'styled-system/css'
import type { SubmissionMachine } from '../../../machines/shared/submission.machine'
import { useScreenActor } from '../../app-context'
import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import { Spinner } from '../../components/spinner'
import { formValues, translateErrors } from '../../forms'

export function NewCompanyTab({ machine, onCreated }: { machine: SubmissionMachine; onCreated: () => void }) {
  const actor = useScreenActor(machine)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const succeeded = useSelector(actor, (s) => s.matches('succeeded'))
  const errors = translateErrors(useSelector(actor, (s) => s.context.fieldErrors))
  const form = useRef<HTMLFormElement>(null)
  const { t } = useLingui()

  // A created company leaves an empty form, and the list shows it.
  useEffect(() => {
    if (!succeeded) return
    form.current?.reset()
    actor.send({ type: 'form.reset' })
    onCreated()
  }, [succeeded, actor, onCreated])

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    actor.send({ type: 'form.submit', values: formValues(e.currentTarget) })
  }

  return (
    <form
      ref={form}
      onSubmit={onSubmit}
      noValidate
      aria-label={t`New company`}
      className={css({ display: 'flex', flexDirection: 'column', gap: '4', maxW: 'md' })}
    >
      <TextField
        label={t`Company name`}
        name="name"
        autoComplete="organization"
        error={errors.name}
        hint={t`At least 2 characters. The other details can be filled in from the company list.`}
        required
      />
      <div>
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? <Spinner size={4} /> : null}
          <Trans>Create company</Trans>
        </Button>
      </div>
    </form>
  )
}

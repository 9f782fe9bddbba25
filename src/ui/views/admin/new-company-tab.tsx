/** New company tab: a name (≥ 2 characters) and create; the company list reloads afterwards. */
import { Trans, useLingui } from '@lingui/react/macro'
import { css } from 'styled-system/css'
import type { SubmissionMachine } from '../../../machines/shared/submission.machine'
import { BusyButton } from '../../components/button'
import { TextField } from '../../components/field'
import { useSubmissionForm } from '../../submission-form'

export function NewCompanyTab({ machine, onCreated }: { machine: SubmissionMachine; onCreated: () => void }) {
  // A created company leaves an empty form, and the list shows it.
  const { form, busy, errors, onSubmit } = useSubmissionForm(machine, {
    resetOnSuccess: true,
    onReset: onCreated,
  })
  const { t } = useLingui()

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
        <BusyButton type="submit" busy={busy}>
          <Trans>Create company</Trans>
        </BusyButton>
      </div>
    </form>
  )
}

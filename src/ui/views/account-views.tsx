/** The e-mailed-link screens: account activation, password reset request and confirmation. */
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { SubmissionMachine } from '../../machines/shared/submission.machine'
import { useAppActors, useScreenActor } from '../app-context'
import { Alert } from '../components/alert'
import { BusyButton } from '../components/button'
import { NewPasswordFields, TextField } from '../components/field'
import { formValues, translateErrors } from '../forms'
import { failureText } from '../message-texts'
import { AuthLayout } from './auth-layout'

const stack = css({ display: 'flex', flexDirection: 'column', gap: '4' })
const linkStyle = css({
  fontSize: 'sm',
  color: 'accent.fg',
  textAlign: 'center',
  _hover: { textDecoration: 'underline' },
})

/**
 * A form of these screens: its submission actor (which checks the values), the translated field
 * errors, and the submit handler that sends the draft values with `extra` (what the link carries).
 */
function useSubmissionForm(machine: SubmissionMachine, extra: Record<string, string> = {}) {
  const actor = useScreenActor(machine)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const failure = useSelector(actor, (s) => s.context.failure)
  const succeeded = useSelector(actor, (s) => s.matches('succeeded'))
  const errors = translateErrors(useSelector(actor, (s) => s.context.fieldErrors))
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    actor.send({ type: 'form.submit', values: { ...formValues(e.currentTarget), ...extra } })
  }
  return { busy, failure, succeeded, errors, onSubmit }
}

function SubmitButton({ busy, children }: { busy: boolean; children: React.ReactNode }) {
  return (
    <BusyButton type="submit" fullWidth busy={busy}>
      {children}
    </BusyButton>
  )
}

export function ActivateAccountView({ email, token }: { email: string; token: string }) {
  const { machines } = useAppActors()
  const { busy, failure, errors, onSubmit } = useSubmissionForm(machines.activation, { email, token })
  const { t } = useLingui()
  return (
    <AuthLayout title={t`Activate your account`} subtitle={t`Choose the password you will sign in with.`}>
      {failure ? (
        <Alert status="error">
          {failure.status >= 500 ? t`Account validation failed` : failureText(failure)}
        </Alert>
      ) : null}
      <form className={stack} onSubmit={onSubmit} noValidate>
        <TextField label={t`Email`} name="email" value={email} readOnly autoComplete="username" />
        <NewPasswordFields errors={errors} />
        <SubmitButton busy={busy}>
          <Trans>Activate Account</Trans>
        </SubmitButton>
      </form>
    </AuthLayout>
  )
}

export function ResetPasswordView() {
  const { machines } = useAppActors()
  const { busy, failure, succeeded, errors, onSubmit } = useSubmissionForm(machines.resetRequest)
  const { t } = useLingui()
  if (succeeded) {
    return (
      <AuthLayout title={t`Check Your Email`}>
        <p className={css({ fontSize: 'sm' })}>
          <Trans>
            If an account exists for that address, we have sent a link to choose a new password. It is valid
            for one hour.
          </Trans>
        </p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          <Trans>Nothing arrived after a few minutes? Look in your spam or junk folder.</Trans>
        </p>
        <Link to="/login" className={button({ fullWidth: true })}>
          <Trans>Return to login</Trans>
        </Link>
      </AuthLayout>
    )
  }
  return (
    <AuthLayout
      title={t`Reset your password`}
      subtitle={t`Enter the e-mail address of your account and we will send you a link to choose a new password.`}
    >
      {failure ? (
        <Alert status="error">
          {failure.status >= 500 ? t`Failed to send reset instructions` : failureText(failure)}
        </Alert>
      ) : null}
      <form className={stack} onSubmit={onSubmit} noValidate>
        <TextField
          label={t`Email`}
          name="email"
          type="email"
          autoComplete="username"
          error={errors.email}
          required
        />
        <SubmitButton busy={busy}>
          <Trans>Send reset link</Trans>
        </SubmitButton>
        <Link to="/login" className={linkStyle}>
          <Trans>Back to login</Trans>
        </Link>
      </form>
    </AuthLayout>
  )
}

export function ResetPasswordConfirmView({ email, token }: { email: string; token: string }) {
  const { machines } = useAppActors()
  const { busy, failure, errors, onSubmit } = useSubmissionForm(machines.resetConfirm, { email, token })
  const { t } = useLingui()
  return (
    <AuthLayout title={t`Choose a new password`} subtitle={email}>
      {failure ? (
        <Alert status="error">
          {failure.status >= 500 ? t`Password reset failed` : failureText(failure)}
        </Alert>
      ) : null}
      <form className={stack} onSubmit={onSubmit} noValidate>
        <NewPasswordFields errors={errors} />
        <SubmitButton busy={busy}>
          <Trans>Reset password</Trans>
        </SubmitButton>
        <Link to="/login" className={linkStyle}>
          <Trans>Back to login</Trans>
        </Link>
      </form>
    </AuthLayout>
  )
}

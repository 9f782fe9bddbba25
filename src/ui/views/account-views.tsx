/** The e-mailed-link screens: account activation, password reset request and confirmation. */
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { button, text } from 'styled-system/recipes'
import type { SubmissionMachine } from '../../machines/shared/submission.machine'
import { useAppActors } from '../app-context'
import { FailureAlert } from '../components/alert'
import { BusyButton } from '../components/button'
import { EmailField, NewPasswordFields, TextField } from '../components/field'
import { useSubmissionForm } from '../submission-form'
import { AuthLayout } from './auth-layout'

const column = stack({ gap: '4' })
const linkStyle = css({
  fontSize: 'sm',
  color: 'accent.fg',
  textAlign: 'center',
  _hover: { textDecoration: 'underline' },
})

function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <BusyButton type="submit" fullWidth busy={busy}>
      {children}
    </BusyButton>
  )
}

/** A screen of an e-mailed link that chooses a password: the link's e-mail and token go with it. */
function LinkPasswordView(props: {
  machine: SubmissionMachine
  link: { email: string; token: string }
  title: string
  subtitle: string
  failed: string
  /** The e-mail shown (read-only) above the password fields. */
  showEmail?: boolean
  submit: ReactNode
  back?: ReactNode
}) {
  const { busy, failure, errors, onSubmit } = useSubmissionForm(props.machine, { extra: props.link })
  const { t } = useLingui()
  return (
    <AuthLayout title={props.title} subtitle={props.subtitle}>
      <FailureAlert failure={failure} fallback={props.failed} />
      <form className={column} onSubmit={onSubmit} noValidate>
        {props.showEmail ? (
          <TextField
            label={t`Email`}
            name="email"
            value={props.link.email}
            readOnly
            autoComplete="username"
          />
        ) : null}
        <NewPasswordFields errors={errors} />
        <SubmitButton busy={busy}>{props.submit}</SubmitButton>
        {props.back}
      </form>
    </AuthLayout>
  )
}

export function ActivateAccountView(link: { email: string; token: string }) {
  const { machines } = useAppActors()
  const { t } = useLingui()
  return (
    <LinkPasswordView
      machine={machines.activation}
      link={link}
      title={t`Activate your account`}
      subtitle={t`Choose the password you will sign in with.`}
      failed={t`Account validation failed`}
      showEmail
      submit={<Trans>Activate Account</Trans>}
    />
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
        <p className={text({ tone: 'muted', size: 'sm' })}>
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
      <FailureAlert failure={failure} fallback={t`Failed to send reset instructions`} />
      <form className={column} onSubmit={onSubmit} noValidate>
        <EmailField errors={errors} />
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

export function ResetPasswordConfirmView(link: { email: string; token: string }) {
  const { machines } = useAppActors()
  const { t } = useLingui()
  return (
    <LinkPasswordView
      machine={machines.resetConfirm}
      link={link}
      title={t`Choose a new password`}
      subtitle={link.email}
      failed={t`Password reset failed`}
      submit={<Trans>Reset password</Trans>}
      back={
        <Link to="/login" className={linkStyle}>
          <Trans>Back to login</Trans>
        </Link>
      }
    />
  )
}

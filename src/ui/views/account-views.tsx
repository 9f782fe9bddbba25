/** The e-mailed-link screens: account activation, password reset request and confirmation. */
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { type ReactNode, useEffect } from 'react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { button, text } from 'styled-system/recipes'
import { contractMessages } from '../../../contract'
import type { EmailLink } from '../../machines/account/email-link.machine'
import { useAppActors, useScreenActor } from '../app-context'
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

function BackToLogin() {
  return (
    <Link to="/login" className={linkStyle}>
      <Trans>Back to login</Trans>
    </Link>
  )
}

/**
 * The page of an e-mailed link: its machine turns away a link without its token or e-mail (a
 * notice, then the login); a complete link shows the form.
 */
function EmailLinkView({ activation, link }: { activation: boolean; link: EmailLink }) {
  const { machines } = useAppActors()
  const linkActor = useScreenActor(activation ? machines.activationLink : machines.resetLink)
  const complete = useSelector(linkActor, (s) => s.matches('complete'))
  const { token, email } = link
  useEffect(() => {
    linkActor.send({ type: 'link.open', token, email })
  }, [linkActor, token, email])
  return complete ? <LinkPasswordView activation={activation} link={link} /> : null
}

/**
 * A screen of an e-mailed link that chooses a password; the link's e-mail and token go with it.
 * Activation shows the e-mail (read-only) above the fields; a reset names it in the subtitle and
 * offers the way back to the login.
 */
function LinkPasswordView({ activation, link }: { activation: boolean; link: EmailLink }) {
  const { machines } = useAppActors()
  const machine = activation ? machines.activation : machines.resetConfirm
  const { busy, failure, errors, onSubmit } = useSubmissionForm(machine, { extra: link })
  const { t } = useLingui()
  const refused = activation ? contractMessages.invalidValidationLink : contractMessages.invalidResetLink
  // A link the server refused (used, expired, cut short): say so and offer a way on.
  if (failure?.message === refused) return <InvalidLinkView activation={activation} />
  return (
    <AuthLayout
      title={activation ? t`Activate your account` : t`Choose a new password`}
      subtitle={activation ? t`Choose the password you will sign in with.` : link.email}
    >
      <FailureAlert
        failure={failure}
        fallback={activation ? t`Account validation failed` : t`Password reset failed`}
      />
      <form className={column} onSubmit={onSubmit} noValidate>
        {activation ? (
          <TextField label={t`Email`} name="email" value={link.email} readOnly autoComplete="username" />
        ) : null}
        <NewPasswordFields errors={errors} />
        <SubmitButton busy={busy}>
          {activation ? <Trans>Activate Account</Trans> : <Trans>Reset password</Trans>}
        </SubmitButton>
        {activation ? null : <BackToLogin />}
      </form>
    </AuthLayout>
  )
}

/** The page of an e-mailed link that cannot be used: the reason, and what to do instead. */
function InvalidLinkView({ activation }: { activation: boolean }) {
  const { t } = useLingui()
  return (
    <AuthLayout
      title={activation ? t`This activation link cannot be used` : t`This password reset link cannot be used`}
    >
      <p className={css({ fontSize: 'sm' })}>
        {activation ? (
          <Trans>
            The link is incomplete, has already been used or has expired (activation links are valid for 72
            hours). Ask your administrator to invite you again; a new e-mail will bring a new link.
          </Trans>
        ) : (
          <Trans>
            The link is incomplete, has already been used or has expired (reset links are valid for one hour).
            Ask for a new link below.
          </Trans>
        )}
      </p>
      {activation ? null : (
        <Link to="/reset-password" className={button({ fullWidth: true })}>
          <Trans>Request a new link</Trans>
        </Link>
      )}
      <BackToLogin />
    </AuthLayout>
  )
}

export function ActivateAccountView(link: EmailLink) {
  return <EmailLinkView activation link={link} />
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
        <BackToLogin />
      </form>
    </AuthLayout>
  )
}

export function ResetPasswordConfirmView(link: EmailLink) {
  return <EmailLinkView activation={false} link={link} />
}

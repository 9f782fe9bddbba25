import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import type { FirstAdminActor } from '../../machines/session/session.implementations'
import type { CallFailure } from '../../machines/shared/failure'
import { useAppActors, useScreenActor } from '../app-context'
import { Alert } from '../components/alert'
import { BusyButton } from '../components/button'
import { CurrentPasswordField, EmailField, NameFields, NewPasswordFields } from '../components/field'
import { Spinner } from '../components/spinner'
import { formValues, translateErrors } from '../forms'
import { failureText as textOfFailure } from '../message-texts'
import { AuthLayout } from './auth-layout'

const column = stack({ gap: '4' })

function useLoginFailureText(failure: CallFailure | null): string | null {
  const { t } = useLingui()
  if (!failure) return null
  if (failure.status === 401) return t`Login failed. Please check your credentials and try again.`
  return textOfFailure(failure)
}

export function LoginView({ redirectTo }: { redirectTo: string }) {
  const { machines } = useAppActors()
  const firstAdmin = useScreenActor(machines.firstAdmin)
  const mode = useSelector(firstAdmin, (s) =>
    s.matches('checking')
      ? 'checking'
      : s.matches('available')
        ? 'create'
        : s.matches('created')
          ? 'created'
          : 'login',
  )
  const { t } = useLingui()

  if (mode === 'checking') {
    return (
      <AuthLayout title={t`Sign in`}>
        <div role="status" className={css({ display: 'flex', justifyContent: 'center', py: '6' })}>
          <Spinner />
        </div>
      </AuthLayout>
    )
  }
  if (mode === 'create') return <FirstAdminForm actor={firstAdmin} />
  return (
    <LoginForm
      redirectTo={redirectTo}
      createdEmail={mode === 'created' ? (firstAdmin.getSnapshot().context.email ?? '') : null}
    />
  )
}

function LoginForm({ redirectTo, createdEmail }: { redirectTo: string; createdEmail: string | null }) {
  const { session } = useAppActors()
  const busy = useSelector(session, (s) => s.hasTag('busy'))
  const failure = useSelector(session, (s) => s.context.loginFailure)
  const failureText = useLoginFailureText(failure)
  const errors = translateErrors(useSelector(session, (s) => s.context.loginFieldErrors))
  const { t } = useLingui()

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const { email = '', password = '' } = formValues(e.currentTarget)
    session.send({ type: 'session.login', email, password, redirectTo })
  }

  return (
    <AuthLayout title={t`Sign in`} subtitle={t`Welcome back. Sign in to continue to your documents.`}>
      {createdEmail !== null ? (
        <Alert status="success">
          <Trans>Administrator created. You can now sign in.</Trans>
        </Alert>
      ) : null}
      {failureText ? <Alert status="error">{failureText}</Alert> : null}
      <form className={column} onSubmit={onSubmit} noValidate>
        {/* The one thing to do on this page: type the e-mail (issue 12, item 14). */}
        <EmailField errors={errors} defaultValue={createdEmail ?? ''} autoFocus />
        <CurrentPasswordField errors={errors} />
        <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
          <Link
            to="/reset-password"
            className={css({ fontSize: 'sm', color: 'accent.fg', _hover: { textDecoration: 'underline' } })}
          >
            <Trans>Forgot your password?</Trans>
          </Link>
        </div>
        <BusyButton type="submit" fullWidth busy={busy}>
          {busy ? <Trans>Signing in...</Trans> : <Trans>Sign in</Trans>}
        </BusyButton>
      </form>
    </AuthLayout>
  )
}

function FirstAdminForm({ actor }: { actor: FirstAdminActor }) {
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const failure = useSelector(actor, (s) => s.context.failure)
  const errors = translateErrors(useSelector(actor, (s) => s.context.fieldErrors))
  const { t } = useLingui()

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    actor.send({ type: 'firstAdmin.submit', values: formValues(e.currentTarget) })
  }

  return (
    <AuthLayout
      title={t`Create the first administrator`}
      subtitle={t`No platform administrator exists yet. The account you create here manages every company and user.`}
    >
      {failure ? <Alert status="error">{textOfFailure(failure)}</Alert> : null}
      <form className={column} onSubmit={onSubmit} noValidate>
        <EmailField errors={errors} />
        <NameFields errors={errors} labels={[t`First name`, t`Last name`]} autoComplete />
        <NewPasswordFields errors={errors} label={t`Password`} />
        <BusyButton type="submit" fullWidth busy={busy}>
          <Trans>Create administrator</Trans>
        </BusyButton>
      </form>
    </AuthLayout>
  )
}

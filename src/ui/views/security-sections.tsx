/** Settings sections for everyone: change password, two-factor authentication. */
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { CallFailure } from '../../machines/shared/failure'
import { useAppActors, useScreenActor } from '../app-context'
import { Alert } from '../components/alert'
import { BusyButton, Button } from '../components/button'
import { PasswordField, TextField } from '../components/field'
import { formValues, translateErrors } from '../forms'
import { codeOfMessage, failureText as textOfFailure } from '../message-texts'

const stack = css({ display: 'flex', flexDirection: 'column', gap: '4', maxW: 'md' })

/** The server's detail (or message) for a failed call, translated; a server error (5xx) shows the fallback instead. */
function serverDetail(failure: CallFailure | null, fallback: string): string | null {
  if (!failure) return null
  return failure.status >= 500 ? fallback : textOfFailure(failure)
}

export function ChangePasswordSection() {
  const { machines } = useAppActors()
  const actor = useScreenActor(machines.changePassword)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const failure = useSelector(actor, (s) => s.context.failure)
  const succeeded = useSelector(actor, (s) => s.matches('succeeded'))
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors)
  const errors = translateErrors(fieldErrors)
  // The extra alert shows when the confirmation differs from the new password (by its code).
  const mismatch = codeOfMessage(fieldErrors.confirmPassword ?? '') === 'passwordsDoNotMatch'
  const form = useRef<HTMLFormElement>(null)
  const { t } = useLingui()

  // A changed password leaves an empty form, ready for the next change.
  useEffect(() => {
    if (!succeeded) return
    form.current?.reset()
    actor.send({ type: 'form.reset' })
  }, [succeeded, actor])

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    actor.send({ type: 'form.submit', values: formValues(e.currentTarget) })
  }
  const failureText = serverDetail(
    failure,
    t`An error occurred while changing your password. Please try again later.`,
  )

  return (
    <form ref={form} className={stack} onSubmit={onSubmit} noValidate aria-label={t`Change password`}>
      {failureText ? <Alert status="error">{failureText}</Alert> : null}
      {mismatch ? (
        <Alert status="error">
          <Trans>New passwords do not match</Trans>
        </Alert>
      ) : null}
      <PasswordField
        label={t`Current password`}
        name="currentPassword"
        autoComplete="current-password"
        error={errors.currentPassword}
        required
      />
      <PasswordField
        label={t`New password`}
        name="newPassword"
        autoComplete="new-password"
        error={errors.newPassword}
        hint={t`At least 8 characters, with an uppercase letter, a lowercase letter and a number.`}
        required
      />
      <PasswordField
        label={t`Confirm new password`}
        name="confirmPassword"
        autoComplete="new-password"
        error={errors.confirmPassword}
        required
      />
      <div>
        <BusyButton type="submit" busy={busy}>
          <Trans>Change password</Trans>
        </BusyButton>
      </div>
    </form>
  )
}

export function TwoFactorSection() {
  const { session } = useAppActors()
  const enabled = useSelector(session, (s) => s.context.user?.is_2fa_enabled ?? false)
  const [disabling, setDisabling] = useState(false)
  if (!enabled) {
    return (
      <div className={stack}>
        <p className={css({ fontSize: 'sm' })}>
          <Trans>
            Two-factor authentication is off. Turn it on to protect your account with a code from your phone.
          </Trans>
        </p>
        <div>
          <Link to="/setup-2fa" search={{ redirect: '/settings' }} className={button({ variant: 'solid' })}>
            <Trans>Set up two-factor authentication</Trans>
          </Link>
        </div>
      </div>
    )
  }
  return (
    <div className={stack}>
      <p className={css({ fontSize: 'sm', display: 'flex', alignItems: 'center', gap: '2' })}>
        <span aria-hidden="true" className={css({ w: '2', h: '2', borderRadius: 'full', bg: 'green.500' })} />
        <Trans>Two-factor authentication is on.</Trans>
      </p>
      {disabling ? (
        <DisableTwoFactorPanel onCancel={() => setDisabling(false)} />
      ) : (
        <div>
          <Button variant="outline" onClick={() => setDisabling(true)}>
            <Trans>Disable two-factor authentication</Trans>
          </Button>
        </div>
      )}
    </div>
  )
}

function DisableTwoFactorPanel({ onCancel }: { onCancel: () => void }) {
  const { machines } = useAppActors()
  const actor = useScreenActor(machines.disableTwoFactor)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const failure = useSelector(actor, (s) => s.context.failure)
  const [method, setMethod] = useState<'password' | 'code'>('password')
  const errors = translateErrors(useSelector(actor, (s) => s.context.fieldErrors))
  const { t } = useLingui()

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    actor.send({ type: 'form.submit', values: { ...formValues(e.currentTarget), method } })
  }

  return (
    <form className={stack} onSubmit={onSubmit} noValidate aria-label={t`Disable two-factor authentication`}>
      {failure ? <Alert status="error">{textOfFailure(failure)}</Alert> : null}
      <fieldset className={css({ display: 'flex', gap: '4', fontSize: 'sm' })}>
        <legend className={css({ fontSize: 'sm', mb: '2' })}>
          <Trans>Confirm with</Trans>
        </legend>
        <label className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
          <input type="radio" checked={method === 'password'} onChange={() => setMethod('password')} />
          <Trans>your password</Trans>
        </label>
        <label className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
          <input type="radio" checked={method === 'code'} onChange={() => setMethod('code')} />
          <Trans>a code from your app</Trans>
        </label>
      </fieldset>
      {method === 'password' ? (
        <PasswordField
          label={t`Password`}
          name="password"
          autoComplete="current-password"
          error={errors.password}
          required
        />
      ) : (
        <TextField
          label={t`Authentication code`}
          name="token"
          autoComplete="one-time-code"
          inputMode="numeric"
          error={errors.token}
          required
        />
      )}
      <div className={css({ display: 'flex', gap: '2' })}>
        <BusyButton type="submit" variant="danger" busy={busy}>
          <Trans>Disable</Trans>
        </BusyButton>
        <Button variant="ghost" onClick={onCancel} disabled={busy}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  )
}

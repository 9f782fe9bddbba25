/** Settings sections for everyone: change password, two-factor authentication. */
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useAppActors, useScreenActor } from '../app-context'
import { Alert, FailureAlert } from '../components/alert'
import { BusyButton, Button } from '../components/button'
import { CodeField, CurrentPasswordField, NewPasswordFields } from '../components/field'
import { codeOfMessage, failureText as textOfFailure } from '../message-texts'
import { useSubmissionForm } from '../submission-form'

const stack = css({ display: 'flex', flexDirection: 'column', gap: '4', maxW: 'md' })

export function ChangePasswordSection() {
  const { machines } = useAppActors()
  // A changed password leaves an empty form, ready for the next change.
  const { form, busy, failure, fieldErrors, errors, onSubmit } = useSubmissionForm(machines.changePassword, {
    resetOnSuccess: true,
  })
  // The extra alert shows when the confirmation differs from the new password (by its code).
  const mismatch = codeOfMessage(fieldErrors.confirmPassword ?? '') === 'passwordsDoNotMatch'
  const { t } = useLingui()

  return (
    <form ref={form} className={stack} onSubmit={onSubmit} noValidate aria-label={t`Change password`}>
      <FailureAlert
        failure={failure}
        fallback={t`An error occurred while changing your password. Please try again later.`}
      />
      {mismatch ? (
        <Alert status="error">
          <Trans>New passwords do not match</Trans>
        </Alert>
      ) : null}
      <CurrentPasswordField errors={errors} label={t`Current password`} name="currentPassword" />
      <NewPasswordFields errors={errors} name="newPassword" confirmLabel={t`Confirm new password`} />
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
        <TwoFactorAdviceSwitch />
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

/** Whether sign-in advises setting up 2FA again (off once the advice was skipped). */
function TwoFactorAdviceSwitch() {
  const { machines, session } = useAppActors()
  const actor = useScreenActor(machines.twoFactorAdvice)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const advice = useSelector(session, (s) => s.context.user?.two_factor_advice ?? true)
  return (
    <label className={css({ display: 'flex', gap: '2', alignItems: 'center', fontSize: 'sm', minH: '11' })}>
      <input
        type="checkbox"
        role="switch"
        checked={advice}
        aria-checked={advice}
        disabled={busy}
        className={css({ w: '5', h: '5', accentColor: 'accent.default' })}
        onChange={(e) => {
          // A second change after a saved one starts a new submission.
          actor.send({ type: 'form.reset' })
          actor.send({ type: 'form.submit', values: { advice: e.currentTarget.checked } })
        }}
      />
      <Trans>Advise me to set up two-factor authentication when I sign in</Trans>
    </label>
  )
}

function DisableTwoFactorPanel({ onCancel }: { onCancel: () => void }) {
  const { machines } = useAppActors()
  const [method, setMethod] = useState<'password' | 'code'>('password')
  const { busy, failure, errors, onSubmit } = useSubmissionForm(machines.disableTwoFactor, {
    extra: { method },
  })
  const { t } = useLingui()

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
      {method === 'password' ? <CurrentPasswordField errors={errors} /> : <CodeField errors={errors} />}
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

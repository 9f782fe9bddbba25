import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { type FormEvent, useState } from 'react'
import { stack } from 'styled-system/patterns'
import { useAppActors } from '../app-context'
import { Alert } from '../components/alert'
import { BusyButton, Button } from '../components/button'
import { CodeField, choiceLabel } from '../components/field'
import { formValues, translateErrors } from '../forms'
import { failureText as textOfFailure } from '../message-texts'
import { AuthLayout } from './auth-layout'

/** /two-factor: the second sign-in step, driven by the session's `signedOut.secondFactor` state. */
export function TwoFactorView() {
  const { session } = useAppActors()
  const busy = useSelector(session, (s) => s.hasTag('busy'))
  const failure = useSelector(session, (s) => s.context.twoFactorFailure)
  const [useBackupCode, setUseBackupCode] = useState(false)
  const errors = translateErrors(useSelector(session, (s) => s.context.twoFactorFieldErrors))
  const { t } = useLingui()

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const { token = '', useBackupCode: backup } = formValues(e.currentTarget)
    session.send({ type: 'twoFactor.submit', token, useBackupCode: backup === 'on' })
  }
  const backToLogin = () => session.send({ type: 'session.reset' })
  const failureText = failure
    ? failure.status === 401
      ? t`2FA verification failed`
      : textOfFailure(failure)
    : null

  return (
    <AuthLayout
      title={t`Two-factor authentication`}
      subtitle={
        useBackupCode
          ? t`Enter one of your backup codes. Each code works once.`
          : t`Enter the 6-digit code from your authenticator app.`
      }
    >
      {failureText ? <Alert status="error">{failureText}</Alert> : null}
      <form className={stack({ gap: '4' })} onSubmit={onSubmit} noValidate>
        <CodeField key={useBackupCode ? 'backup' : 'totp'} backup={useBackupCode} autoFocus errors={errors} />
        <label className={choiceLabel}>
          <input
            type="checkbox"
            name="useBackupCode"
            checked={useBackupCode}
            onChange={(e) => setUseBackupCode(e.currentTarget.checked)}
          />
          <Trans>Use Backup Code</Trans>
        </label>
        <BusyButton type="submit" fullWidth busy={busy}>
          <Trans>Verify</Trans>
        </BusyButton>
        <Button variant="ghost" fullWidth onClick={backToLogin}>
          <Trans>Back to login</Trans>
        </Button>
      </form>
    </AuthLayout>
  )
}

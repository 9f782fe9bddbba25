import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import { css, cx } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { text } from 'styled-system/recipes'
import type { TwoFactorSetupActor } from '../../machines/account/account.implementations'
import { useAppActors, useScreenActor } from '../app-context'
import { Alert } from '../components/alert'
import { BusyButton, Button } from '../components/button'
import { ConfirmDialog } from '../components/confirm-dialog'
import { TextField } from '../components/field'
import { CheckIcon } from '../components/icons'
import { Spinner } from '../components/spinner'
import { formValues, translateErrors } from '../forms'
import { failureText as textOfFailure } from '../message-texts'
import { AuthLayout } from './auth-layout'

type SetupActor = TwoFactorSetupActor
const STEPS = ['intro', 'qrcode', 'verify'] as const
const row = css({ display: 'flex', gap: '2', justifyContent: 'space-between', flexWrap: 'wrap' })

/** /setup-2fa: intro → QR code and backup codes → verify, as the 2FA setup statechart says. */
export function SetupTwoFactorView({ email, redirectTo }: { email: string; redirectTo: string }) {
  const { machines } = useAppActors()
  const setup = useScreenActor(machines.twoFactorSetup(redirectTo), { input: { email } })
  const step = useSelector(setup, (s) => STEPS.find((name) => s.hasTag(`step:${name}`)) ?? 'verify')
  const { t } = useLingui()
  const labels = { intro: t`Introduction`, qrcode: t`Scan the QR code`, verify: t`Verify` }

  return (
    <AuthLayout title={t`Set up two-factor authentication`} wide>
      <ol
        aria-label={t`Steps`}
        className={css({ display: 'flex', gap: '2', fontSize: 'xs', color: 'fg.muted' })}
      >
        {STEPS.map((name, index) => (
          <li
            key={name}
            aria-current={name === step ? 'step' : undefined}
            className={css({
              flex: '1',
              pt: '2',
              borderTopWidth: '3px',
              borderColor: STEPS.indexOf(step) >= index ? 'accent.default' : 'border.default',
              '&[aria-current=step]': { color: 'accent.fg', fontWeight: 'semibold' },
            })}
          >
            {index + 1}. {labels[name]}
          </li>
        ))}
      </ol>
      {step === 'intro' ? <IntroStep setup={setup} /> : null}
      {step === 'qrcode' ? <QrCodeStep setup={setup} /> : null}
      {step === 'verify' ? <VerifyStep setup={setup} /> : null}
    </AuthLayout>
  )
}

function IntroStep({ setup }: { setup: SetupActor }) {
  const busy = useSelector(setup, (s) => s.hasTag('busy'))
  const confirming = useSelector(setup, (s) => s.matches({ intro: 'confirmingSkip' }))
  const failure = useSelector(setup, (s) => s.context.failure)
  const { t } = useLingui()
  return (
    <>
      <p className={text({ tone: 'muted', size: 'sm' })}>
        <Trans>
          Two-factor authentication adds a second step to signing in: after your password, you enter a code
          from an authenticator app on your phone. Even someone who learns your password cannot sign in
          without it.
        </Trans>
      </p>
      {failure ? <Alert status="error">{textOfFailure(failure)}</Alert> : null}
      <div className={row}>
        <Button variant="ghost" onClick={() => setup.send({ type: 'setup.skip' })} disabled={busy}>
          <Trans>Skip for now</Trans>
        </Button>
        <Button onClick={() => setup.send({ type: 'setup.start' })} disabled={busy} aria-busy={busy}>
          {busy ? <Spinner size={4} /> : null}
          <Trans>Get started</Trans>
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t`Skip 2FA Setup?`}
        description={t`Your account will be protected by your password only. You can set up two-factor authentication later in Settings.`}
        confirmLabel={t`Skip`}
        cancelLabel={t`Cancel`}
        onConfirm={() => setup.send({ type: 'skip.confirm' })}
        onCancel={() => setup.send({ type: 'skip.cancel' })}
      />
    </>
  )
}

function QrCodeStep({ setup }: { setup: SetupActor }) {
  const enrollment = useSelector(setup, (s) => s.context.enrollment)
  const copied = useSelector(setup, (s) => s.context.copied)
  const copying = useSelector(setup, (s) => s.matches({ qrcode: 'copying' }))
  const { t } = useLingui()
  if (!enrollment) return null
  const secret = enrollment.secret.replace(/(.{4})/g, '$1 ').trim()
  return (
    <>
      <div
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: '1fr', sm: 'auto 1fr' },
          gap: '6',
          alignItems: 'start',
        })}
      >
        <img
          src={enrollment.qrDataUrl}
          alt={t`QR code to scan with your authenticator app`}
          width={176}
          height={176}
          className={css({
            borderWidth: '1px',
            borderColor: 'border.default',
            borderRadius: 'md',
            mx: 'auto',
          })}
        />
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', fontSize: 'sm' })}>
          <p>
            <Trans>
              Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator,
              1Password…).
            </Trans>
          </p>
          <p className={text({ tone: 'muted' })}>
            <Trans>Cannot scan it? Enter this key in the app instead:</Trans>
          </p>
          <code
            data-testid="totp-secret"
            className={css({
              fontFamily: 'mono',
              bg: 'bg.muted',
              px: '2',
              py: '1',
              borderRadius: 'sm',
              wordBreak: 'break-all',
            })}
          >
            {secret}
          </code>
        </div>
      </div>
      <section aria-labelledby="backup-codes-title" className={stack({ gap: '2' })}>
        <h2 id="backup-codes-title" className={css({ fontWeight: 'semibold' })}>
          <Trans>Backup codes</Trans>
        </h2>
        <p className={text({ tone: 'muted', size: 'sm' })}>
          <Trans>Keep these codes somewhere safe. Each one signs you in once if you lose your phone.</Trans>
        </p>
        <ul
          aria-label={t`Backup codes`}
          className={css({
            display: 'grid',
            gridTemplateColumns: 'repeat(2, 1fr)',
            gap: '1',
            fontFamily: 'mono',
            fontSize: 'sm',
            bg: 'bg.muted',
            p: '3',
            borderRadius: 'md',
          })}
        >
          {enrollment.backupCodes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
        <div>
          <Button
            variant="outline"
            size="sm"
            onClick={() => setup.send({ type: 'codes.copy' })}
            disabled={copying}
          >
            {copied ? <CheckIcon /> : null}
            {copied ? <Trans>Copied</Trans> : <Trans>Copy all codes</Trans>}
          </Button>
        </div>
      </section>
      <div className={row}>
        <Button variant="outline" onClick={() => setup.send({ type: 'setup.back' })}>
          <Trans>Back</Trans>
        </Button>
        <Button onClick={() => setup.send({ type: 'setup.next' })}>
          <Trans>Next</Trans>
        </Button>
      </div>
    </>
  )
}

function VerifyStep({ setup }: { setup: SetupActor }) {
  const busy = useSelector(setup, (s) => s.hasTag('busy'))
  const completing = useSelector(setup, (s) => s.matches('complete') || s.status === 'done')
  const failure = useSelector(setup, (s) => s.context.failure)
  const errors = translateErrors(useSelector(setup, (s) => s.context.tokenErrors))
  const { t } = useLingui()

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    setup.send({ type: 'code.submit', token: formValues(e.currentTarget).token ?? '' })
  }
  const failureText = failure
    ? failure.status >= 500
      ? t`Failed to verify token. Please try again.`
      : textOfFailure(failure)
    : null

  return (
    <form className={stack({ gap: '4' })} onSubmit={onSubmit} noValidate>
      <p className={text({ tone: 'muted', size: 'sm' })}>
        <Trans>Enter the 6-digit code your authenticator app shows now.</Trans>
      </p>
      {failureText ? <Alert status="error">{failureText}</Alert> : null}
      <TextField
        label={t`Verification code`}
        name="token"
        autoComplete="one-time-code"
        inputMode="numeric"
        autoFocus
        error={errors.token}
        disabled={completing}
        required
      />
      <div className={row}>
        <Button variant="outline" onClick={() => setup.send({ type: 'setup.back' })} disabled={busy}>
          <Trans>Back</Trans>
        </Button>
        <BusyButton type="submit" busy={busy} className={cx(css({ minW: '32' }))}>
          <Trans>Verify and enable</Trans>
        </BusyButton>
      </div>
    </form>
  )
}

import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { card } from 'styled-system/recipes'
import { LANGUAGES, type Language } from '../../api/schemas'
import { useAppActors } from '../app-context'
import { Button } from '../components/button'
import { LogoutIcon } from '../components/icons'
import { Spinner } from '../components/spinner'
import { LANGUAGE_NAMES } from '../i18n'
import { ChangePasswordSection, TwoFactorSection } from './security-sections'

function Section({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={card({})}>
      <div className={css({ p: '6', display: 'flex', flexDirection: 'column', gap: '4' })}>
        <h2 id={`${id}-title`} className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
          {title}
        </h2>
        {children}
      </div>
    </section>
  )
}

export function SettingsView() {
  const { session, language } = useAppActors()
  const user = useSelector(session, (s) => s.context.user)
  const signingOut = useSelector(session, (s) => s.matches({ signedIn: 'signingOut' }))
  const current = useSelector(language, (s) => s.context.language)
  const { t } = useLingui()
  const roleLabel =
    user?.role === 'SAAS_ADMIN'
      ? t`SuperAdmin`
      : user?.role === 'INTERNAL_USER'
        ? t`Internal user`
        : t`Client user`

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6', maxW: '3xl', mx: 'auto' })}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', letterSpacing: 'tight' })}>
        <Trans>Settings</Trans>
      </h1>
      <Section id="account" title={<Trans>Account</Trans>}>
        <dl
          className={css({
            display: 'grid',
            gridTemplateColumns: 'max-content 1fr',
            columnGap: '6',
            rowGap: '2',
            fontSize: 'sm',
          })}
        >
          <dt className={css({ color: 'fg.muted' })}>
            <Trans>Name</Trans>
          </dt>
          <dd>
            {user?.name} {user?.surname}
          </dd>
          <dt className={css({ color: 'fg.muted' })}>
            <Trans>Email</Trans>
          </dt>
          <dd>{user?.email}</dd>
          <dt className={css({ color: 'fg.muted' })}>
            <Trans>Role</Trans>
          </dt>
          <dd>{roleLabel}</dd>
        </dl>
        <div>
          <Button
            variant="outline"
            onClick={() => session.send({ type: 'session.logout' })}
            disabled={signingOut}
          >
            {signingOut ? <Spinner size={4} /> : <LogoutIcon />}
            <Trans>Logout</Trans>
          </Button>
        </div>
      </Section>
      <Section id="password" title={<Trans>Change password</Trans>}>
        <ChangePasswordSection />
      </Section>
      <Section id="two-factor" title={<Trans>Two-factor authentication</Trans>}>
        <TwoFactorSection />
      </Section>
      <Section id="language" title={<Trans>Language</Trans>}>
        <fieldset className={css({ display: 'flex', gap: '4' })}>
          <legend className={css({ srOnly: true })}>{t`Interface language`}</legend>
          {LANGUAGES.map((lng: Language) => (
            <label
              key={lng}
              className={css({
                display: 'flex',
                alignItems: 'center',
                gap: '2',
                fontSize: 'sm',
                cursor: 'pointer',
              })}
            >
              <input
                type="radio"
                name="language"
                value={lng}
                checked={current === lng}
                onChange={() => language.send({ type: 'language.change', language: lng })}
              />
              <span lang={lng}>{LANGUAGE_NAMES[lng]}</span>
            </label>
          ))}
        </fieldset>
      </Section>
    </div>
  )
}

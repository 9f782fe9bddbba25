import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { type ReactNode, Suspense, useEffect, useState } from 'react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { card, text } from 'styled-system/recipes'
import { isPlatformAdmin as isPlatformAdminUser, LANGUAGES, type Language } from '../../../contract'
import { useAppActors } from '../app-context'
import { Button } from '../components/button'
import { choiceLabel } from '../components/field'
import { LogoutIcon } from '../components/icons'
import { Spinner } from '../components/spinner'
import { LANGUAGE_NAMES } from '../i18n'
import { lazyRetrying } from '../lazy-retrying'
import { useDocumentTitle } from '../page-focus'
import { CompanyUsersSection } from './company-users-section'
import { ChangePasswordSection, TwoFactorSection } from './security-sections'

/** Platform administration: its own chunk, fetched only for platform administrators. */
const AdminArea = lazyRetrying(() => import('./admin/admin-area'))
/** Personal API tokens: their own chunk, with their machine. */
const ApiTokensSection = lazyRetrying(() => import('./api-tokens/api-tokens-section'))

function SectionLoading() {
  return (
    <div role="status" className={css({ display: 'flex', justifyContent: 'center', py: '8' })}>
      <Spinner />
    </div>
  )
}

function Section({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={card({})} style={{ scrollMarginTop: '5rem' }}>
      <div className={css({ p: { base: '4', md: '6' }, display: 'flex', flexDirection: 'column', gap: '4' })}>
        <h2 id={`${id}-title`} className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
          {title}
        </h2>
        {children}
      </div>
    </section>
  )
}

/** The section in view, for the side navigation (the first one whose top passed the upper fifth). */
function useActiveSection(ids: string[]): string | undefined {
  const [active, setActive] = useState(ids[0])
  const key = ids.join(' ')
  useEffect(() => {
    const sectionIds = key.split(' ')
    if (typeof IntersectionObserver === 'undefined') return
    const visible = new Set<string>()
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) visible.add(entry.target.id)
          else visible.delete(entry.target.id)
        }
        const first = sectionIds.find((id) => visible.has(id))
        if (first) setActive(first)
      },
      { rootMargin: '-15% 0px -65% 0px' },
    )
    for (const id of sectionIds) {
      const element = document.getElementById(id)
      if (element) observer.observe(element)
    }
    return () => observer.disconnect()
  }, [key])
  return active
}

export function SettingsView() {
  const { session, companySelection, loadApiTokens } = useAppActors()
  const user = useSelector(session, (s) => s.context.user)
  const selected = useSelector(companySelection, (s) =>
    s.context.companies.find((c) => c.id === s.context.selectedId),
  )
  const { t } = useLingui()
  const isPlatformAdmin = isPlatformAdminUser(user)
  useDocumentTitle(t`Settings`)
  const isCompanyAdmin = !isPlatformAdmin && selected?.role === 'COMPANY_ADMIN'
  const roleLabel = isPlatformAdmin
    ? t`Platform administrator`
    : user?.role === 'INTERNAL_USER'
      ? t`Internal user`
      : t`Client user`

  const sections = [
    { id: 'account', title: t`Account` },
    { id: 'password', title: t`Change password` },
    { id: 'two-factor', title: t`Two-factor authentication` },
    { id: 'language', title: t`Language` },
    ...(loadApiTokens ? [{ id: 'api-tokens', title: t`API tokens` }] : []),
    ...(isPlatformAdmin ? [{ id: 'administration', title: t`User management` }] : []),
    ...(isCompanyAdmin ? [{ id: 'company-users', title: t`Company users` }] : []),
  ]
  const active = useActiveSection(sections.map((s) => s.id))

  return (
    <div className={css({ maxW: '6xl', mx: 'auto', display: 'flex', flexDirection: 'column', gap: '6' })}>
      <h1 className={text({ size: 'title' })}>
        <Trans>Settings</Trans>
      </h1>
      <div className={css({ display: 'flex', gap: '8', alignItems: 'flex-start' })}>
        <SectionNav sections={sections} active={active} />
        <div className={css({ flex: '1', minW: '0', display: 'flex', flexDirection: 'column', gap: '6' })}>
          <Section id="account" title={<Trans>Account</Trans>}>
            <AccountDetails roleLabel={roleLabel} />
          </Section>
          <Section id="password" title={<Trans>Change password</Trans>}>
            <ChangePasswordSection />
          </Section>
          <Section id="two-factor" title={<Trans>Two-factor authentication</Trans>}>
            <TwoFactorSection />
          </Section>
          <Section id="language" title={<Trans>Language</Trans>}>
            <LanguageChoice />
          </Section>
          {loadApiTokens ? (
            <Section id="api-tokens" title={<Trans>API tokens</Trans>}>
              <Suspense fallback={<SectionLoading />}>
                <ApiTokensSection load={loadApiTokens} />
              </Suspense>
            </Section>
          ) : null}
          {isPlatformAdmin ? (
            <Section id="administration" title={<Trans>User management</Trans>}>
              <Suspense fallback={<SectionLoading />}>
                <AdminArea />
              </Suspense>
            </Section>
          ) : null}
          {isCompanyAdmin && selected ? (
            <Section id="company-users" title={<Trans>Company users</Trans>}>
              <CompanyUsersSection key={selected.id} companyId={selected.id} />
            </Section>
          ) : null}
        </div>
      </div>
    </div>
  )
}

/** The sections' table of contents (wide screens), the section in view marked. */
function SectionNav({
  sections,
  active,
}: {
  sections: { id: string; title: string }[]
  active: string | undefined
}) {
  const { t } = useLingui()
  return (
    <nav
      aria-label={t`Settings sections`}
      className={css({
        display: { base: 'none', lg: 'block' },
        position: 'sticky',
        top: '24',
        w: '52',
        flexShrink: 0,
      })}
    >
      <ul className={stack({ gap: '1' })}>
        {sections.map((section) => (
          <li key={section.id}>
            <a
              href={`#${section.id}`}
              aria-current={active === section.id ? 'location' : undefined}
              className={css({
                display: 'block',
                px: '3',
                py: '2',
                borderRadius: 'md',
                fontSize: 'sm',
                color: 'fg.muted',
                borderLeftWidth: '2px',
                borderColor: 'transparent',
                _hover: { bg: 'bg.muted', color: 'fg.default' },
                '&[aria-current=location]': {
                  color: 'accent.fg',
                  borderColor: 'accent.default',
                  fontWeight: 'medium',
                },
              })}
            >
              {section.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/** The signed-in user's name, e-mail and role, and the logout button. */
function AccountDetails({ roleLabel }: { roleLabel: string }) {
  const { session } = useAppActors()
  const user = useSelector(session, (s) => s.context.user)
  const signingOut = useSelector(session, (s) => s.matches({ signedIn: 'signingOut' }))
  return (
    <>
      <dl
        className={css({
          display: 'grid',
          gridTemplateColumns: 'max-content 1fr',
          columnGap: '6',
          rowGap: '2',
          fontSize: 'sm',
        })}
      >
        <dt className={text({ tone: 'muted' })}>
          <Trans>Name</Trans>
        </dt>
        <dd>
          {user?.name} {user?.surname}
        </dd>
        <dt className={text({ tone: 'muted' })}>
          <Trans>Email</Trans>
        </dt>
        <dd className={css({ wordBreak: 'break-all' })}>{user?.email}</dd>
        <dt className={text({ tone: 'muted' })}>
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
    </>
  )
}

/** The interface language, one radio per language. */
function LanguageChoice() {
  const { language } = useAppActors()
  const current = useSelector(language, (s) => s.context.language)
  const { t } = useLingui()
  return (
    <fieldset className={css({ display: 'flex', gap: '4' })}>
      <legend className={css({ srOnly: true })}>{t`Interface language`}</legend>
      {LANGUAGES.map((lng: Language) => (
        <label key={lng} className={choiceLabel}>
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
  )
}

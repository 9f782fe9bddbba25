import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { card, text } from 'styled-system/recipes'
import { LogoMark } from '../components/icons'
import { LanguageMenu } from '../components/language-menu'
import { MAIN_ID, SkipLink, useDocumentTitle } from '../page-focus'

/** The frame of the public screens: brand, language switcher, one centred card; the title names the tab. */
export function AuthLayout({
  title,
  subtitle,
  children,
  wide = false,
}: {
  title: string
  subtitle?: ReactNode
  children: ReactNode
  wide?: boolean
}) {
  useDocumentTitle(title)
  return (
    <div className={css({ minH: '100dvh', display: 'flex', flexDirection: 'column' })}>
      <SkipLink />
      <header
        className={css({
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          px: '6',
          py: '4',
        })}
      >
        <div className={css({ display: 'flex', alignItems: 'center', gap: '2', fontWeight: 'semibold' })}>
          <LogoMark />
          <span>DocFlow</span>
        </div>
        <LanguageMenu />
      </header>
      <main
        id={MAIN_ID}
        tabIndex={-1}
        className={css({ flex: '1', display: 'grid', placeItems: 'center', px: '4', pb: '16' })}
      >
        <section className={css({ w: 'full', maxW: wide ? 'xl' : 'md' })} aria-labelledby="auth-title">
          <div className={card({})}>
            <div
              className={css({
                p: { base: '6', sm: '8' },
                display: 'flex',
                flexDirection: 'column',
                gap: '6',
              })}
            >
              <div className={stack({ gap: '1' })}>
                <h1 id="auth-title" className={text({ size: 'title' })}>
                  {title}
                </h1>
                {subtitle ? <p className={text({ tone: 'muted', size: 'sm' })}>{subtitle}</p> : null}
              </div>
              {children}
            </div>
          </div>
        </section>
      </main>
    </div>
  )
}

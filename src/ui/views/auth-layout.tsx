import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { card, text } from 'styled-system/recipes'
import { LogoMark } from '../components/icons'
import { LanguageMenu } from '../components/language-menu'

/** The frame of the public screens: brand, language switcher, one centred card. */
export function AuthLayout({
  title,
  subtitle,
  children,
  wide = false,
}: {
  title: ReactNode
  subtitle?: ReactNode
  children: ReactNode
  wide?: boolean
}) {
  return (
    <div className={css({ minH: '100dvh', display: 'flex', flexDirection: 'column' })}>
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
      <main className={css({ flex: '1', display: 'grid', placeItems: 'center', px: '4', pb: '16' })}>
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

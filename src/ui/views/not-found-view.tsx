/** The page for an address the app does not know: a chunk of its own (no first screen shows it). */
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { MAIN_ID, useDocumentTitle } from '../page-focus'

export function NotFoundView() {
  const { t } = useLingui()
  useDocumentTitle(t`Page not found`)
  return (
    <main
      id={MAIN_ID}
      tabIndex={-1}
      className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', px: '4' })}
    >
      <div
        className={css({
          textAlign: 'center',
          display: 'flex',
          flexDirection: 'column',
          gap: '4',
          alignItems: 'center',
        })}
      >
        <p className={css({ fontSize: '6xl', fontWeight: 'bold', color: 'accent.default' })}>404</p>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'semibold' })}>
          <Trans>Oops! Page not found</Trans>
        </h1>
        <Link to="/" className={button({ variant: 'solid' })}>
          <Trans>Return to Home</Trans>
        </Link>
      </div>
    </main>
  )
}

import { Trans, useLingui } from '@lingui/react/macro'
import { useSyncExternalStore } from 'react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Spinner } from '../components/spinner'
import { MAIN_ID, useDocumentTitle } from '../page-focus'

const block = css({ borderRadius: 'md', bg: 'bg.subtle', animation: 'pulse' })

/**
 * While the session is checked on a reload: the shell's frame (sidebar, header, page) with
 * placeholder blocks, so that a signed-in user sees the app settle rather than a loading screen.
 */
export function CheckingAuthView() {
  const { t } = useLingui()
  return (
    <div className={css({ display: 'flex', minH: '100dvh' })}>
      <aside
        aria-hidden="true"
        className={css({
          display: { base: 'none', md: 'block' },
          w: '64',
          flexShrink: 0,
          bg: 'bg.surface',
          borderRightWidth: '1px',
          borderColor: 'border.default',
        })}
      />
      <div className={css({ flex: '1', minW: '0', display: 'flex', flexDirection: 'column' })}>
        {/* Placed as the shell's header is (sticky, at its stacking level), so nothing moves when it comes. */}
        <header
          className={css({
            position: 'sticky',
            top: '0',
            zIndex: 'sticky',
            h: '16',
            display: 'flex',
            alignItems: 'center',
            gap: '3',
            px: { base: '4', md: '8' },
            bg: 'bg.surface',
            borderBottomWidth: '1px',
            borderColor: 'border.default',
          })}
        >
          <div className={cx(block, css({ h: '8', w: '40' }))} />
        </header>
        <main
          id={MAIN_ID}
          tabIndex={-1}
          className={css({
            flex: '1',
            p: { base: '4', md: '8' },
            display: 'flex',
            flexDirection: 'column',
            gap: '4',
          })}
        >
          <p role="status" className={css({ srOnly: true })}>
            {t`Loading`}
          </p>
          <div className={cx(block, css({ h: '8', w: '64' }))} />
          <div className={cx(block, css({ h: '24' }))} />
          <div className={cx(block, css({ h: '64' }))} />
        </main>
      </div>
    </div>
  )
}

/**
 * What a page shows in place of a screen that failed (its code could not be loaded, or it threw):
 * translated, and with one way on, reloading the page. Files not yet sent are kept by the browser
 * and offered again after the reload.
 */
export function RouteErrorView() {
  const { t } = useLingui()
  useDocumentTitle(t`Something went wrong`)
  return (
    <div
      role="alert"
      className={css({ minH: '60dvh', display: 'grid', placeItems: 'center', px: '4', textAlign: 'center' })}
    >
      <div
        className={css({
          display: 'flex',
          flexDirection: 'column',
          gap: '4',
          alignItems: 'center',
          maxW: 'md',
        })}
      >
        <h1 className={css({ fontSize: '2xl', fontWeight: 'semibold' })}>
          <Trans>Something went wrong</Trans>
        </h1>
        <p className={css({ color: 'fg.muted' })}>
          <Trans>This page could not be shown. Check your connection, then reload the page.</Trans>
        </p>
        <button
          type="button"
          className={button({ variant: 'solid' })}
          onClick={() => window.location.reload()}
        >
          <Trans>Reload the page</Trans>
        </button>
      </div>
    </div>
  )
}

/** The browser's belief that it is online (`navigator.onLine`), followed as it changes. */
function useOnline() {
  return useSyncExternalStore(
    (changed) => {
      window.addEventListener('online', changed)
      window.addEventListener('offline', changed)
      return () => {
        window.removeEventListener('online', changed)
        window.removeEventListener('offline', changed)
      }
    },
    () => navigator.onLine,
    () => true,
  )
}

/**
 * In place of a page whose code is still on its way (shown once the router's pending delay has
 * passed): while the browser is offline it says that the page opens when the connection is back,
 * which it then does by itself (the route's chunk is fetched again, src/api/code-chunks.ts).
 */
export function RoutePendingView() {
  const online = useOnline()
  return (
    <div
      role="status"
      className={css({
        minH: '40dvh',
        display: 'flex',
        gap: '3',
        alignItems: 'center',
        justifyContent: 'center',
        px: '4',
        textAlign: 'center',
        color: 'fg.muted',
      })}
    >
      {online ? (
        <>
          <Spinner />
          <Trans>Loading</Trans>
        </>
      ) : (
        <Trans>Waiting for network: this page opens as soon as the connection is back.</Trans>
      )}
    </div>
  )
}

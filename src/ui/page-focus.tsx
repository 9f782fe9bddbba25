/**
 * Where a page says what it is and where keyboard users land: the page's own `document.title`, the
 * skip link to the main region, and moving focus to the main heading after a route change.
 */
import { Trans } from '@lingui/react/macro'
import { useEffect } from 'react'
import { css } from 'styled-system/css'

/** The id of every page's main region, the skip link's target. */
export const MAIN_ID = 'main'

/** Sets the tab's title to the parts followed by the product name ("Settings · DocFlow"). */
export function useDocumentTitle(...parts: string[]) {
  const title = [...parts.filter(Boolean), 'DocFlow'].join(' · ')
  useEffect(() => {
    document.title = title
  }, [title])
}

/** Focuses the main region's first heading (or the region itself), made focusable by script only. */
export function focusMainHeading() {
  const main = document.getElementById(MAIN_ID)
  if (!main) return
  const target = main.querySelector<HTMLElement>('h1') ?? main
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1')
  target.focus({ preventScroll: true })
}

const skipLink = css({
  position: 'absolute',
  left: '2',
  top: '2',
  px: '4',
  py: '2',
  borderRadius: 'md',
  bg: 'bg.surface',
  color: 'accent.fg',
  fontWeight: 'medium',
  boxShadow: 'md',
  transform: 'translateY(-200%)',
  _focus: { transform: 'none' },
  zIndex: 'skipLink',
})

/** The first focusable element of every page: jumps past the header and navigation. */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_ID}`}
      className={skipLink}
      onClick={(e) => {
        e.preventDefault()
        focusMainHeading()
      }}
    >
      <Trans>Skip to main content</Trans>
    </a>
  )
}

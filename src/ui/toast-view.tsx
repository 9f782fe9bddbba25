/**
 * The toasts themselves, in the toasts' chunk with react-hot-toast (and goober, its CSS-in-JS):
 * loaded by src/ui/toasts.tsx on the first toast, so that no first screen carries them.
 */
import { createElement, useEffect } from 'react'
import { Toaster, type ToasterProps, toast, useToasterStore } from 'react-hot-toast'
import { css } from 'styled-system/css'

export type ToastKind = 'success' | 'error' | 'info' | 'warning'

const toastIcon = css({
  display: 'grid',
  placeItems: 'center',
  flexShrink: 0,
  w: '5',
  h: '5',
  borderRadius: 'full',
  color: 'white',
  fontSize: 'xs',
  fontWeight: 'bold',
  lineHeight: '1',
})

/** Info and warning icons drawn like react-hot-toast's own success and error icons (a filled disc). */
const InfoToastIcon = () => (
  <span aria-hidden="true" className={toastIcon} style={{ background: '#2563eb' }}>
    i
  </span>
)
const WarningToastIcon = () => (
  <span aria-hidden="true" className={toastIcon} style={{ background: '#b45309' }}>
    !
  </span>
)
const ICONS: Partial<Record<ToastKind, () => React.JSX.Element>> = {
  info: InfoToastIcon,
  warning: WarningToastIcon,
}

/** Shows one toast of its kind. */
export function show(kind: ToastKind, text: string): void {
  const icon = ICONS[kind]
  if (icon) toast(text, { icon: createElement(icon) })
  else toast[kind === 'success' ? 'success' : 'error'](text)
}

/** react-hot-toast's space between two toasts, and the stack's offset from the bottom of the screen. */
const GUTTER = 8
const OFFSET = 16

/**
 * The height the shown toasts take above the bottom of the screen (their gaps and offset included)
 * as `--toasts-height` on the page, 0 when none shows: the page's bottom padding grows with it, so
 * a toast never covers the last row.
 */
function ToastsHeight() {
  const { toasts } = useToasterStore()
  const heights = toasts.filter((t) => t.visible && t.height).map((t) => t.height ?? 0)
  const height = heights.length
    ? heights.reduce((sum, h) => sum + h, 0) + (heights.length - 1) * GUTTER + OFFSET
    : 0
  useEffect(() => {
    document.documentElement.style.setProperty('--toasts-height', `${height}px`)
  }, [height])
  useEffect(
    () => () => {
      document.documentElement.style.removeProperty('--toasts-height')
    },
    [],
  )
  return null
}

/** react-hot-toast's `Toaster` with the app's gutter, and the stack's height on the page. */
export function LoadedToaster(props: ToasterProps) {
  return (
    <>
      <Toaster gutter={GUTTER} {...props} />
      <ToastsHeight />
    </>
  )
}

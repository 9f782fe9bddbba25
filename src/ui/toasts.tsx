/**
 * Toasts off the critical path: react-hot-toast (and goober, its CSS-in-JS) is a chunk of its own,
 * loaded on the first toast; the toaster is rendered from then on. A toast asked for before the
 * chunk arrives is shown as soon as it has.
 */
import { createElement, useEffect, useState } from 'react'
import type { ToasterProps } from 'react-hot-toast'
import { css } from 'styled-system/css'

type ToastModule = typeof import('react-hot-toast')
export type ToastKind = 'success' | 'error' | 'info' | 'warning'

let loading: Promise<ToastModule> | undefined
const waiting = new Set<(module: ToastModule) => void>()
const loadToasts = () => {
  loading ??= import('react-hot-toast').then((module) => {
    for (const show of waiting) show(module)
    return module
  })
  return loading
}

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

export function showToast(kind: ToastKind, text: string): void {
  void loadToasts().then(({ toast }) => {
    const icon = ICONS[kind]
    if (icon) toast(text, { icon: createElement(icon) })
    else toast[kind === 'success' ? 'success' : 'error'](text)
  })
}

/** react-hot-toast's space between two toasts, and the stack's offset from the bottom of the screen. */
const GUTTER = 8
const OFFSET = 16

/**
 * The height the shown toasts take above the bottom of the screen (their gaps and offset included)
 * as `--toasts-height` on the page, 0 when none shows: the page's bottom padding grows with it, so
 * a toast never covers the last row.
 */
function ToastsHeight({ module }: { module: ToastModule }) {
  const { toasts } = module.useToasterStore()
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

/** react-hot-toast's `Toaster` (same props), rendered once the first toast has loaded its chunk. */
export function AppToaster(props: ToasterProps) {
  const [module, setModule] = useState<ToastModule | null>(null)
  useEffect(() => {
    const show = (loaded: ToastModule) => setModule(() => loaded)
    waiting.add(show)
    void loading?.then(show)
    return () => void waiting.delete(show)
  }, [])
  return module ? (
    <>
      <module.Toaster gutter={GUTTER} {...props} />
      <ToastsHeight module={module} />
    </>
  ) : null
}

/**
 * Toasts off the critical path: react-hot-toast (and goober, its CSS-in-JS) and the app's toast
 * components are a chunk of their own (toast-view.tsx), loaded on the first toast; the toaster is
 * rendered from then on. A toast asked for before the chunk arrives is shown as soon as it has (or,
 * when the network is away, once it is back: src/api/code-chunks.ts).
 */
import { useEffect, useState } from 'react'
import type { ToasterProps } from 'react-hot-toast'
import { loadOnce } from '../api/code-chunks'

import type { ToastKind } from './toast-view'

type ToastView = typeof import('./toast-view')

const waiting = new Set<(module: ToastView) => void>()
let loaded: ToastView | null = null
const loadToasts = loadOnce(() =>
  import('./toast-view').then((module) => {
    loaded = module
    for (const show of waiting) show(module)
    return module
  }),
)

export function showToast(kind: ToastKind, text: string): void {
  void loadToasts().then((module) => module.show(kind, text))
}

/** react-hot-toast's `Toaster` (same props), rendered once the first toast has loaded its chunk. */
export function AppToaster(props: ToasterProps) {
  const [module, setModule] = useState<ToastView | null>(null)
  useEffect(() => {
    const show = (view: ToastView) => setModule(() => view)
    waiting.add(show)
    if (loaded) show(loaded)
    return () => void waiting.delete(show)
  }, [])
  if (!module) return null
  const { LoadedToaster } = module
  return <LoadedToaster {...props} />
}

/**
 * Components whose code is fetched after the first screen (dialogs, the upload panel, the admin
 * area): React.lazy over `retryImport` (src/api/code-chunks.ts), so a chunk that cannot be fetched
 * is fetched again once the network is back while the component's Suspense fallback shows, instead
 * of the whole page giving way to an error.
 */
import { type ComponentType, type LazyExoticComponent, lazy } from 'react'
import { retryImport } from '../api/code-chunks'

/** React.lazy over `retryImport`. */
// biome-ignore lint/suspicious/noExplicitAny: React.lazy's own constraint (any component's props).
export function lazyRetrying<C extends ComponentType<any>>(
  load: () => Promise<{ default: C }>,
): LazyExoticComponent<C> {
  return lazy(() => retryImport(load))
}

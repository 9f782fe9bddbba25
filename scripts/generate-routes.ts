/**
 * Writes src/routeTree.gen.ts from the file routes in src/routes, as the router's Vite plugin does on
 * `vite build` and `vite dev`. `npm run prepare` (after `npm ci`) and `npm test` run it so that the
 * type check has the tree before any build; the file is generated, never committed.
 */
import { unpluginRouterGeneratorFactory } from '@tanstack/router-plugin'
import { routerOptions } from '../vite.config.ts'

type ResolvedHook = (config: { root: string }) => Promise<void> | void
const plugin = unpluginRouterGeneratorFactory(routerOptions, { framework: 'vite' })
const generator = Array.isArray(plugin) ? plugin[0] : plugin
// The generator writes the tree once Vite hands it the resolved configuration (its root).
const configResolved = (generator?.vite as { configResolved?: ResolvedHook } | undefined)?.configResolved
if (!configResolved) throw new Error('the router plugin no longer generates on configResolved')
await configResolved({ root: process.cwd() })

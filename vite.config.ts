import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import babel, { defineRolldownBabelPreset } from '@rolldown/plugin-babel'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import MagicString, { type SourceMap } from 'magic-string'
import { defineConfig, type PluginOption } from 'vite'
import { PREFETCH_GLOBAL } from './src/api/prefetched'
import { LANGUAGE_STORAGE_KEY } from './src/ui/i18n'

/** Lingui macros run through Babel (plugin-react 6 has no babel option), only in files that use them. */
const linguiMacroPreset = defineRolldownBabelPreset({
  preset: () => ({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
  rolldown: { filter: { code: /@lingui\/(react|core)\/macro/ } },
})

/** The file routes' generator options (src/routes → src/routeTree.gen.ts), for Vite and `npm run prepare`. */
export const routerOptions = {
  target: 'react',
  autoCodeSplitting: true,
  quoteStyle: 'single',
  semicolons: false,
} as const

export function appPlugins(options: { router?: boolean } = {}): PluginOption[] {
  return [
    prefetch(),
    options.router === false ? null : tanstackRouter(routerOptions),
    options.router === false ? null : retryRouteChunks(),
    react(),
    babel({ presets: [linguiMacroPreset] }),
  ]
}

/**
 * The router's code splitting (`autoCodeSplitting`) loads each route's page with a plain
 * `const $$splitComponentImporter = () => import('…?tsr-split=component')`: each such importer is
 * wrapped in `retryImport` (src/api/code-chunks.ts), so a page opened while the network is away
 * waits for it (the route's pending view says so) instead of failing into the error view, and
 * opens once it is back.
 */
function retryRouteChunks(): PluginOption {
  const helper = fileURLToPath(new URL('./src/api/code-chunks.ts', import.meta.url))
  return {
    name: 'docflow:retry-route-chunks',
    // After the router's code splitter (and the TSX transform) wrote the importers.
    enforce: 'post',
    transform: {
      filter: { id: /[\\/]src[\\/]routes[\\/][^?]*$/ },
      handler: (code) => wrapRouteImporters(code, helper),
    },
  }
}

/**
 * A route module's split importers wrapped in `retryImport` (imported from `helper`), with its
 * source map; null when it has none.
 */
export function wrapRouteImporters(code: string, helper: string): { code: string; map: SourceMap } | null {
  const importer = /(const \$\$split\w+Importer = \(\) => )(import\((['"`])[^'"`]+\3\))/g
  const out = new MagicString(code)
  for (const match of code.matchAll(importer)) {
    const at = match.index + match[1]!.length
    out.appendLeft(at, '$$retryImport(() => ')
    out.appendRight(at + match[2]!.length, ')')
  }
  if (!out.hasChanged()) return null
  out.prepend(`import { retryImport as $$retryImport } from ${JSON.stringify(helper)};\n`)
  return { code: out.toString(), map: out.generateMap({ hires: true }) }
}

const apiBase = process.env.VITE_API_BASE_URL ?? process.env.API_PREFIX ?? '/api'
const localesBase = process.env.VITE_LOCALES_BASE_URL ?? '/locales'

/** The file beside index.html that the server sends to a browser holding a session cookie. */
export const SIGNED_IN_INDEX = 'index.signed-in.html'

/**
 * The page's first script (src/api/prefetched.ts takes its answers): starts the message catalog
 * (the language as src/ui/i18n.ts's detectLanguage picks it) and the start-up session check (the
 * public `auth/session`, asked on every page), while the browser is still downloading the JavaScript.
 * In the page the server sends with a session cookie (`<html data-signed-in>`, SIGNED_IN_INDEX) it
 * also starts the user's companies and settings, which would otherwise wait for the entry to run,
 * the session check to answer and the screens' machines to load, one round trip after the other.
 */
function prefetchScript(): string {
  const api = apiBase.replace(/\/$/, '')
  return `(function () {
  var store = (window.${PREFETCH_GLOBAL} = {})
  function get(path) {
    var url = new URL(path, location.href).href
    store[url] = fetch(url, { credentials: 'include', headers: { accept: 'application/json' } }).catch(function () { return null })
  }
  var language = 'en'
  var stored = null
  try { stored = localStorage.getItem(${JSON.stringify(LANGUAGE_STORAGE_KEY)}) } catch (e) {}
  var candidates = [stored, navigator.language]
  for (var i = 0; i < candidates.length; i++) {
    var short = (candidates[i] || '').slice(0, 2).toLowerCase()
    if (short === 'en' || short === 'fr') { language = short; break }
  }
  get(${JSON.stringify(localesBase.replace(/\/$/, ''))} + '/' + language + '/common.json')
  get(${JSON.stringify(`${api}/auth/session`)})
  if (document.documentElement.hasAttribute('data-signed-in')) {
    get(${JSON.stringify(`${api}/users/companies`)})
    get(${JSON.stringify(`${api}/settings/me`)})
  }
})()`
}

/** The built chunks (file → its static imports, and the module it stands for, if any). */
type Chunks = Record<string, { type: string; imports?: string[]; facadeModuleId?: string | null }>

/**
 * The chunk files a signed-in page loads beyond the entry's own: the signed-in route's and the
 * shell's, the dashboard page's (the page a session opens on), the screens' machines, with what
 * they import.
 */
function signedInChunks(bundle: Chunks, entry: string, base: string): string[] {
  const closure = (files: string[], into = new Set<string>()) => {
    for (const file of files) {
      if (into.has(file) || bundle[file]?.type !== 'chunk') continue
      into.add(file)
      closure(bundle[file]?.imports ?? [], into)
    }
    return into
  }
  const loaded = closure([entry])
  const pages = Object.keys(bundle).filter((file) =>
    /src[\\/](routes[\\/]_authenticated(\.tsx|[\\/]_shell\.tsx|[\\/]_shell[\\/]index\.tsx)\?tsr-split=component|composition-screens\.ts)$/.test(
      bundle[file]?.facadeModuleId ?? '',
    ),
  )
  return [...closure(pages)].filter((file) => !loaded.has(file)).map((file) => `${base}${file}`)
}

/**
 * The page's first script, right after the charset (before the stylesheet: an inline script waits
 * for pending stylesheets); and, beside index.html, SIGNED_IN_INDEX: the same page marked
 * `data-signed-in` and preloading the signed-in app's chunks (`signedInChunks`).
 */
function prefetch(): PluginOption {
  let chunks: string[] = []
  return {
    name: 'docflow-prefetch',
    transformIndexHtml: {
      order: 'post',
      handler: (html, context) => {
        if (context.bundle && context.chunk)
          chunks = signedInChunks(context.bundle as Chunks, context.chunk.fileName, '/')
        return html.replace(/(<meta charset="UTF-8" \/>)/, `$1\n    <script>${prefetchScript()}</script>`)
      },
    },
    writeBundle(options, bundle) {
      const page = bundle['index.html']
      if (!options.dir || page?.type !== 'asset') return
      const links = chunks
        .map((href) => `    <link rel="modulepreload" crossorigin href="${href}">\n`)
        .join('')
      const html = String(page.source)
        .replace('<html ', '<html data-signed-in ')
        .replace('  </head>', `${links}  </head>`)
      writeFileSync(join(options.dir, SIGNED_IN_INDEX), html)
    },
  }
}

const apiTarget = `http://localhost:${process.env.API_PORT ?? 3000}`

export const alias = { 'styled-system': fileURLToPath(new URL('./styled-system', import.meta.url)) }

export default defineConfig({
  plugins: appPlugins(),
  // `npm start` builds and serves with the same environment: the app calls the API where the server mounts it.
  define: {
    'import.meta.env.VITE_API_BASE_URL': JSON.stringify(apiBase),
  },
  resolve: { alias },
  build: {
    outDir: 'dist',
    sourcemap: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // The libraries every screen needs travel as one chunk: fewer requests, and gzip compresses
        // one large file better than dozens of tiny ones. Widget libraries (Ark, zag) stay lazy.
        codeSplitting: {
          groups: [
            {
              name: 'core',
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack|xstate|@xstate|@lingui|ky|valibot|use-sync-external-store)[\\/]/,
            },
            {
              // The app's own always-needed modules: API client, root machines, shell components, and the
              // contract's barrel (contract/, beside src/).
              name: 'app',
              test: /(styled-system[\\/](helpers|css[\\/]\w+|patterns[\\/]\w+|recipes[\\/]create-recipe)\.mjs|src[\\/](composition\.ts|ui[\\/](i18n|messages|forms|form-schemas|app-context)\.tsx?|ui[\\/]components[\\/](button|spinner|icons|field|alert|lazy-on-intent|language-menu)\.tsx|machines[\\/](session|language|company-selection|sidebar)\.machine\.ts|api[\\/](http|index|auth|settings|companies|locales|code-chunks)\.ts)|[\\/]contract[\\/](common|accounts|administration|messages)\.ts)$/,
            },
            {
              // Loaded on the first toast (src/ui/toasts.tsx loads toast-view.tsx; the notices' texts too,
              // src/ui/notify.ts). After 'app', which keeps the style helpers toast-view.tsx shares.
              name: 'toasts',
              test: /node_modules[\\/](react-hot-toast|goober)[\\/]|src[\\/]ui[\\/]toast-view\.tsx$/,
            },
            {
              // The signed-in screens' machines (src/composition-screens.ts, loaded once the session is
              // signed in): the login page does without them. The unsent files' storage too (every dashboard
              // start reads it). Not the photo-to-PDF module, which comes with
              // pdf-lib only when a photo is sent as an expense.
              name: 'screens',
              test: /src[\\/](composition-screens\.ts|api[\\/](documents|logs|unsent-uploads)\.ts|machines[\\/](uploads[\\/](?!photo-to-pdf)[\w-]+|dashboard[\\/](dashboard|export|filters|row-actions)[\w.-]*)\.ts)$/,
            },
            {
              // The route files' eager halves (guards, search checks) and the page-focus helper: every
              // page loads them, as separate tiny chunks they cost a request each.
              name: 'routes',
              test: /src[\\/](routes[\\/][^?]*\.tsx?|routes[\\/]_authenticated\.tsx\?tsr-split=component|ui[\\/]page-focus\.tsx)$/,
            },
            {
              // The signed-in frame (header, navigation, upload panel), shared by every signed-in page.
              name: 'shell',
              test: /(src[\\/](ui[\\/]views[\\/](app-shell|app-nav|company-logo|company-switcher|uploads[\\/]upload-(panel|menu|label))\.tsx?|ui[\\/]components[\\/](style-context|table)\.tsx|machines[\\/]shell[\\/]sidebar\.machine\.ts|routes[\\/]_authenticated[\\/]_shell\.tsx\?tsr-split=component)|[\\/]contract[\\/]document-labels\.ts)$/,
            },
            {
              // The dashboard's first screen (its popovers and dialogs stay lazy).
              name: 'dashboard',
              test: /src[\\/](ui[\\/]views[\\/]dashboard[\\/](dashboard-view|log-source|row-focus|dashboard-context|status-badge)\.tsx?|routes[\\/]_authenticated[\\/]_shell[\\/]index\.tsx\?tsr-split=component)$/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    // Host is forwarded unchanged (not rewritten, as the string shorthand would): the API's CSRF
    // check then sees the page's origin (http://localhost:5173) as its own and accepts its requests.
    proxy: { '/api': { target: apiTarget, changeOrigin: false }, '/locales': apiTarget },
  },
})

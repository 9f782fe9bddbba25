/**
 * The API described: the OpenAPI 3.1 document generated from the routes' validators and
 * descriptions (`http/openapi.ts`), and a reference page rendered by Scalar's viewer, whose
 * script is served from node_modules (no CDN: the product runs self-hosted, and the page keeps
 * the Content-Security-Policy of every other page: scripts from this origin only, no inline one).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Context, Hono } from 'hono'
import { generateSpecs } from 'hono-openapi'

const packageJson = JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8')) as {
  version: string
}

/** The viewer's self-contained browser build, read once on first use. */
const viewerScript = (() => {
  let script: Buffer | null = null
  return () => {
    if (!script) {
      const entry = createRequire(import.meta.url).resolve('@scalar/api-reference')
      script = readFileSync(join(dirname(entry), 'browser', 'standalone.js'))
    }
    return script
  }
})()

/** The OpenAPI document of `app`, generated once (the routes do not change while it runs). */
export function openApiDocument(app: () => Hono<never>) {
  let document: Promise<object> | null = null
  return async (c: Context) => {
    document ??= generateSpecs(app(), {
      // `/openapi.json` and the viewer's scripts are routes like any other.
      excludeStaticFile: false,
      // Every operation describes the contract's error body as its `default` answer.
      defaultValidationErrorResponse: false,
      documentation: {
        info: {
          title: 'DocFlow API',
          version: packageJson.version,
          description:
            'Every call answers errors as `{message, detail?}`. Sign in with the session cookie (`POST /auth/login`) or send a personal API token as `Authorization: Bearer <token>` (Settings → API tokens).',
        },
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: 'sid' },
            bearer: { type: 'http', scheme: 'bearer' },
          },
        },
        security: [{ session: [] }, { bearer: [] }],
      },
    })
    return c.json(await document)
  }
}

/** The reference page: the viewer's script and the one starting it, both from this origin. */
export const docsPage = (prefix: string) => (c: Context) =>
  c.html(`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>DocFlow API</title>
  </head>
  <body>
    <div id="api-reference"></div>
    <script src="${prefix}/docs/scalar.js"></script>
    <script src="${prefix}/docs/start.js"></script>
  </body>
</html>
`)

export const viewer = (c: Context) => {
  c.header('Content-Type', 'text/javascript; charset=utf-8')
  return c.body(new Uint8Array(viewerScript()))
}

export const viewerStart = (prefix: string) => (c: Context) => {
  c.header('Content-Type', 'text/javascript; charset=utf-8')
  // The default fonts come from the viewer's servers: the page uses the system's instead.
  const config = { url: `${prefix}/openapi.json`, withDefaultFonts: false }
  return c.body(`Scalar.createApiReference('#api-reference', ${JSON.stringify(config)})\n`)
}

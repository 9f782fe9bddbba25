/** `GET /openapi.json` (the OpenAPI 3.1 document) and `GET /docs` (its reference page), public. */
import { Hono } from 'hono'
import type { AppEnv } from '../../http/context.ts'
import { binary, describe } from '../../http/openapi.ts'
import { docsPage, openApiDocument, viewer, viewerStart } from './docs.handlers.ts'

const tags = ['API description']
const script = { 200: binary('text/javascript', 'A script of the reference page') }

export function docsRoutes(prefix: string, app: () => Hono<never>) {
  return new Hono<AppEnv>()
    .get(
      '/openapi.json',
      describe({
        tags,
        summary: 'This document (OpenAPI 3.1)',
        responses: { 200: { description: 'The OpenAPI document', content: { 'application/json': {} } } },
      }),
      openApiDocument(app),
    )
    .get(
      '/docs',
      describe({ tags, summary: 'The reference page', responses: { 200: binary('text/html', 'The page') } }),
      docsPage(prefix),
    )
    .get('/docs/scalar.js', describe({ tags, summary: 'The viewer (Scalar)', responses: script }), viewer)
    .get(
      '/docs/start.js',
      describe({ tags, summary: 'Starts the viewer', responses: script }),
      viewerStart(prefix),
    )
}

/**
 * The one place that turns failures into the contract's error body `{message, detail?}`.
 * Routes throw; `onError` answers. A 5xx body never carries a stack.
 */
import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { Logger } from 'pino'
import * as v from 'valibot'
import type { FieldIssue } from '../../src/api/schemas.ts'

export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly detail?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

/** Validates with a shared valibot schema; 400 with one `{field, message}` per issue otherwise. */
export function parse<TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input)
  if (result.success) return result.output
  const detail: FieldIssue[] = result.issues.map((issue) => ({
    field: v.getDotPath(issue) ?? '',
    message: issue.message,
  }))
  throw new HttpError(400, 'Invalid input', detail)
}

/** The request body as JSON; 400 'Invalid JSON body' when it is empty or malformed. */
export async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json()
  } catch {
    throw new HttpError(400, 'Invalid JSON body')
  }
}

export function errorHandler(logger: Logger): ErrorHandler {
  return (error, c) => {
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value)
      const body =
        error.detail === undefined
          ? { message: error.message }
          : { message: error.message, detail: error.detail }
      return c.json(body, error.status)
    }
    if (error instanceof HTTPException && error.status < 500) {
      // Raised by Hono middleware (body limit, malformed request): keep its status, not its page.
      return c.json({ message: error.message || 'Bad request' }, error.status)
    }
    logger.error(
      { err: error, reqId: c.get('requestId' as never), method: c.req.method, path: c.req.path },
      'unhandled error',
    )
    return c.json({ message: 'Internal server error' }, 500)
  }
}

export const notFoundHandler: NotFoundHandler = (c) => c.json({ message: 'Not found' }, 404)

/**
 * The one place that turns failures into the contract's error body `{message, detail?}`.
 * Routes throw; `onError` answers. A 5xx body never carries a stack.
 */
import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { Logger } from 'pino'
import * as v from 'valibot'
import { contractMessages, type FieldIssue, IdParam, MAX_ID } from '../../contract/index.ts'
import { databaseError } from '../db/sql-state.ts'

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
  throw new HttpError(400, contractMessages.invalidInput, detail)
}

/** A positive integer beyond the int4 range of the id columns: no record can have it as id. */
export const beyondIdRange = (raw: string | undefined): boolean =>
  raw !== undefined && /^[1-9]\d*$/.test(raw) && (raw.length > 10 || Number(raw) > MAX_ID)

/**
 * A record id from the path: 400 when it is not a positive integer, 404 with `notFound` when it is
 * beyond the int4 range (no such record can exist; the database is not asked).
 */
export function parsePathId(raw: string | undefined, notFound: string): number {
  if (beyondIdRange(raw)) throw new HttpError(404, notFound)
  return parse(IdParam, raw) as number
}

/**
 * The SQLSTATE of a PostgreSQL "data exception" (class 22: 22P05 untranslatable character, 22021
 * invalid byte sequence such as NUL, 22003 numeric out of range, 22008 datetime overflow, 22007
 * bad datetime format…) that refused the request's statement, else null.
 */
function dataExceptionCode(error: unknown): string | null {
  const code = databaseError(error)?.code
  return code?.startsWith('22') ? code : null
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
    const dataException = dataExceptionCode(error)
    if (dataException) {
      // Input the schemas let through but the database refuses: the caller's fault, not a crash.
      // Logged (without the query's parameters) so the schema that missed it can be tightened.
      logger.warn(
        {
          sqlstate: dataException,
          reqId: c.get('requestId' as never),
          method: c.req.method,
          path: c.req.path,
        },
        'input refused by the database',
      )
      return c.json({ message: contractMessages.invalidInput }, 400)
    }
    logger.error(
      { err: error, reqId: c.get('requestId' as never), method: c.req.method, path: c.req.path },
      'unhandled error',
    )
    return c.json({ message: contractMessages.internalError }, 500)
  }
}

export const notFoundHandler: NotFoundHandler = (c) => c.json({ message: 'Not found' }, 404)

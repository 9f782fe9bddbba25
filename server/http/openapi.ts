/**
 * The route-level pieces the OpenAPI document is generated from (`hono-openapi` walks the app's
 * routes and reads what these attach): validators that keep this server's own checks and error
 * answers (`parse`, `readJson`, `parsePathId`) while naming the contract's valibot schema they
 * use, and `describe` for what a route answers. Nothing of the document is written by hand.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { createMiddleware } from 'hono/factory'
import { type DescribeRouteOptions, describeRoute, resolver, uniqueSymbol } from 'hono-openapi'
import * as v from 'valibot'
import { ErrorBody, IdParam } from '../../contract/index.ts'
import { parse, parsePathId, readJson } from './errors.ts'

type Target = 'json' | 'query' | 'param'
/** Where an input is documented: a validated target, a multipart body, or a header a handler reads. */
type DocumentedTarget = Target | 'form' | 'header'

/**
 * valibot's `object` ignores unknown keys (only `strictObject` refuses them), so its JSON Schema
 * leaves `additionalProperties` open: a client may send, and an answer may carry, more.
 */
const conversion = {
  overrideSchema: ({
    valibotSchema,
    jsonSchema,
  }: {
    valibotSchema: { type: string }
    jsonSchema: object
  }) => {
    if (valibotSchema.type !== 'object' || !('additionalProperties' in jsonSchema)) return undefined
    const { additionalProperties: _, ...open } = jsonSchema
    return open
  },
}

/**
 * The OpenAPI document's own conversion (hono-openapi hands it `options`): a tuple (a box's four
 * numbers) comes out in draft-07's form, an array of `items`, which OpenAPI 3.1's JSON Schema
 * 2020-12 spells `prefixItems`.
 */
const openApiConversion = {
  overrideSchema: ({
    valibotSchema,
    jsonSchema,
  }: {
    valibotSchema: { type: string }
    jsonSchema: object
  }) => {
    if (valibotSchema.type !== 'tuple' || !('items' in jsonSchema) || !Array.isArray(jsonSchema.items))
      return undefined
    const { items, ...rest } = jsonSchema
    return { ...rest, prefixItems: items, minItems: items.length, maxItems: items.length }
  },
}
const schemaOf = (schema: v.GenericSchema) => resolver(schema, { ...conversion, options: openApiConversion })

/** Marks a middleware with the schema it validates, where `hono-openapi` looks for it. */
export function documented<T extends MiddlewareHandler>(
  middleware: T,
  target: DocumentedTarget,
  schema: v.GenericSchema,
): T {
  return Object.assign(middleware, { [uniqueSymbol]: { target, ...schemaOf(schema) } })
}

const inputOf: Record<Target, (c: Context) => Promise<unknown> | unknown> = {
  json: (c) => readJson(c),
  query: (c) => c.req.query(),
  param: (c) => c.req.param(),
}

/**
 * Validates the JSON body, the query or the path with a contract schema; 400 with the contract's
 * error body otherwise (`'Invalid JSON body'` for a body that is not JSON). The handler reads the
 * output with `c.req.valid(target)`.
 */
export function validate<TSchema extends v.GenericSchema, T extends Target>(target: T, schema: TSchema) {
  const middleware = createMiddleware<
    // biome-ignore lint/suspicious/noExplicitAny: any environment; the input types what `valid()` returns
    any,
    string,
    { in: Record<T, v.InferInput<TSchema>>; out: Record<T, v.InferOutput<TSchema>> }
  >(async (c, next) => {
    c.req.addValidatedData(target, parse(schema, await inputOf[target](c)) as never)
    await next()
  })
  return documented(middleware, target, schema)
}

/**
 * One path segment checked by itself (an error names no field, as the calls always answered):
 * merged into `c.req.valid('param')` with the segments checked before it.
 */
export function pathParam<const N extends string, TSchema extends v.GenericSchema>(
  name: N,
  schema: TSchema,
  check: (raw: string | undefined) => v.InferOutput<TSchema> = (raw) => parse(schema, raw),
) {
  const middleware = createMiddleware<
    // biome-ignore lint/suspicious/noExplicitAny: any environment
    any,
    string,
    { in: { param: Record<N, string> }; out: { param: Record<N, v.InferOutput<TSchema>> } }
  >(async (c, next) => {
    const before = (c.req.valid('param' as never) ?? {}) as object
    c.req.addValidatedData('param', { ...before, [name]: check(c.req.param(name)) })
    await next()
  })
  return documented(middleware, 'param', v.object({ [name]: schema }))
}

/**
 * A record id in the path: 400 when it is not a positive integer, 404 with `notFound` beyond the
 * id range (see `parsePathId`).
 */
export const pathId = <const N extends string = 'id'>(notFound: string, name: N = 'id' as N) =>
  pathParam(name, IdParam, (raw) => parsePathId(raw, notFound))

/**
 * Documents (only) a value a route reads itself, such as a path segment or a header checked in the
 * handler.
 */
export function documentedInput(target: DocumentedTarget, schema: v.GenericSchema): MiddlewareHandler {
  return documented(
    createMiddleware((_c, next) => next()),
    target,
    schema,
  )
}

/** A JSON answer described by its contract schema. */
export const json = (schema: v.GenericSchema, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: schemaOf(schema) } },
})

/** An answer that is not JSON (a file, a page, a CSV export). */
export const binary = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: { type: 'string' as const, format: 'binary' } } },
})

const errorAnswer = json(ErrorBody, 'Error: `{message, detail?}`')

/** What a route answers; every route also documents the contract's error body. */
export function describe(spec: DescribeRouteOptions & { tags: string[]; summary: string }) {
  return describeRoute({ ...spec, responses: { ...spec.responses, default: errorAnswer } })
}

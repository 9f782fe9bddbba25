import * as v from 'valibot'
import { translateMessage } from './messages'

export type FieldErrors = Partial<Record<string, string>>

/** Validates form values with a shared schema; the first message of each field, translated. */
export function validateForm<S extends v.GenericSchema>(
  schema: S,
  values: unknown,
): { success: true; output: v.InferOutput<S> } | { success: false; errors: FieldErrors } {
  const result = v.safeParse(schema, values)
  if (result.success) return { success: true, output: result.output }
  const errors: FieldErrors = {}
  for (const issue of result.issues) {
    const key = v.getDotPath(issue) ?? 'form'
    errors[key] ??= translateMessage(issue.message)
  }
  return { success: false, errors }
}

export function formValues(form: HTMLFormElement): Record<string, string> {
  return Object.fromEntries([...new FormData(form).entries()].map(([k, val]) => [k, String(val)]))
}

/** A form machine's field errors (English source text), translated for display. */
export function translateErrors(errors: Partial<Record<string, string>>): FieldErrors {
  return Object.fromEntries(
    Object.entries(errors).flatMap(([key, message]) => (message ? [[key, translateMessage(message)]] : [])),
  )
}

import * as v from 'valibot'
import type { MessageCode } from '../contract'
import { codeOfMessage, messageText } from './message-texts'

export type FieldErrors = Partial<Record<string, string>>

/** Validates form values with a shared schema; the first message of each field, translated, and its code. */
export function validateForm<S extends v.GenericSchema>(
  schema: S,
  values: unknown,
):
  | { success: true; output: v.InferOutput<S> }
  | { success: false; errors: FieldErrors; codes: Partial<Record<string, MessageCode>> } {
  const result = v.safeParse(schema, values)
  if (result.success) return { success: true, output: result.output }
  const errors: FieldErrors = {}
  const codes: Partial<Record<string, MessageCode>> = {}
  for (const issue of result.issues) {
    const key = v.getDotPath(issue) ?? 'form'
    if (key in errors) continue
    errors[key] = messageText(issue.message)
    codes[key] = codeOfMessage(issue.message)
  }
  return { success: false, errors, codes }
}

export function formValues(form: HTMLFormElement): Record<string, string> {
  return Object.fromEntries([...new FormData(form).entries()].map(([k, val]) => [k, String(val)]))
}

import { messageText } from './message-texts'

export type FieldErrors = Partial<Record<string, string>>

export function formValues(form: HTMLFormElement): Record<string, string> {
  return Object.fromEntries([...new FormData(form).entries()].map(([k, val]) => [k, String(val)]))
}

/** A form machine's field errors (English source text), translated for display. */
export function translateErrors(errors: Partial<Record<string, string>>): FieldErrors {
  return Object.fromEntries(
    Object.entries(errors).flatMap(([key, message]) => (message ? [[key, messageText(message)]] : [])),
  )
}

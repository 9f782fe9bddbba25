/**
 * Field rules of the form machines: a valibot schema checks the draft values the view sends; each
 * field keeps the first message its rule gives (the English source text, translated by the view),
 * and a submit whose values break a rule is refused with these errors instead of being sent.
 */
import * as v from 'valibot'

/** Validation messages (English source text) by field; `form` holds a message with no field. */
export type FieldErrors<K extends string = string> = Partial<Record<K | 'form', string>>

/** The draft values as a form holds them: one string per field. */
export type FormValues = Record<string, string>

export function fieldErrorsOf<K extends string = string>(
  schema: v.GenericSchema,
  values: unknown,
): FieldErrors<K> {
  const result = v.safeParse(schema, values)
  if (result.success) return {}
  const errors: FieldErrors<K> = {}
  for (const issue of result.issues) {
    // An issue inside a field (an item of a list) belongs to that field.
    const key = (v.getDotPath(issue)?.split('.')[0] ?? 'form') as K | 'form'
    errors[key] ??= issue.message
  }
  return errors
}

export const isValidForm = (schema: v.GenericSchema, values: unknown): boolean =>
  v.safeParse(schema, values).success

type Submitted = { event: { values: unknown } }

/** Assigner of a submit that follows `schema`: the values it parsed, which are what is sent. */
export const parsedValues =
  <TSchema extends v.GenericSchema>(schema: TSchema) =>
  ({ event }: Submitted): v.InferOutput<TSchema> =>
    v.parse(schema, event.values)

/** Assigner of a submit that breaks `schema`: the field errors, shown by the fields. */
export const refusedValues =
  <K extends string = string>(schema: v.GenericSchema) =>
  ({ event }: Submitted): FieldErrors<K> =>
    fieldErrorsOf<K>(schema, event.values)

const BROKEN_RULE = 'A field breaks its rule: shown by the field, nothing is sent.'

/**
 * The two transitions of a submit checked by its form's schema: with valid values (`guard`), to
 * `target` with `accept`; otherwise `refuse` keeps the field errors and nothing is sent.
 */
export const checkedSubmit = <TGuard, TTarget extends string, TAccept, TRefuse>(submit: {
  guard: TGuard
  target: TTarget
  accept: TAccept
  refuse: TRefuse
  description?: string
}) =>
  [
    { guard: submit.guard, target: submit.target, actions: submit.accept },
    { description: submit.description ?? BROKEN_RULE, actions: submit.refuse },
  ] as const

/** Placeholders a machine declares in `setup()` for its implementations to fill with `provide()`. */
import { fromPromise, type NonReducibleUnknown } from 'xstate'

/** A promise actor named `name` that the implementations provide; running it unprovided fails loudly. */
export const promisePlaceholder = <TOutput, TInput = NonReducibleUnknown>(name: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`${name} not provided`)
  })

/** The 2FA setup form: the code the authenticator shows once the secret is added. */
import * as v from 'valibot'

const Code = (message: string) =>
  v.pipe(v.string(), v.trim(), v.minLength(6, message), v.maxLength(64, message))

export const SetupTokenForm = v.object({ token: Code('Token must be at least 6 characters') })

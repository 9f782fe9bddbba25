/** Form schemas of the second-factor screens: a code from the authenticator or a backup code. */
import * as v from 'valibot'

const Code = (message: string) =>
  v.pipe(v.string(), v.trim(), v.minLength(6, message), v.maxLength(64, message))

export const TwoFactorCodeForm = v.object({
  token: Code('Code must be at least 6 characters'),
  useBackupCode: v.optional(v.literal('on')),
})

export const SetupTokenForm = v.object({ token: Code('Token must be at least 6 characters') })

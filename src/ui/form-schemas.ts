/** Form schemas of the account screens: the shared payload rules plus what only a form has (confirmations). */
import * as v from 'valibot'
import { contractMessages, Email, NewPassword } from '../contract'

const Code = (message: string) =>
  v.pipe(v.string(), v.trim(), v.minLength(6, message), v.maxLength(64, message))

export const TwoFactorCodeForm = v.object({
  token: Code(contractMessages.codeTooShort),
  useBackupCode: v.optional(v.literal('on')),
})

export const SetupTokenForm = v.object({ token: Code(contractMessages.tokenTooShort) })

export const EmailForm = v.object({ email: Email })

/** Activation and reset: a mismatch says 'Passwords don't match'. */
export const NewPasswordForm = v.pipe(
  v.object({ password: NewPassword, confirmPassword: v.string() }),
  v.forward(
    v.partialCheck(
      [['password'], ['confirmPassword']],
      (input) => input.password === input.confirmPassword,
      contractMessages.passwordsDontMatch,
    ),
    ['confirmPassword'],
  ),
)

export const ChangePasswordForm = v.pipe(
  v.object({
    currentPassword: v.pipe(v.string(), v.minLength(1, contractMessages.currentPasswordRequired)),
    newPassword: NewPassword,
    confirmPassword: v.pipe(v.string(), v.minLength(1, contractMessages.passwordConfirmationRequired)),
  }),
  v.forward(
    v.partialCheck(
      [['newPassword'], ['confirmPassword']],
      (input) => input.newPassword === input.confirmPassword,
      contractMessages.passwordsDoNotMatch,
    ),
    ['confirmPassword'],
  ),
)

export const DisableTwoFactorForm = v.variant('method', [
  v.object({
    method: v.literal('password'),
    password: v.pipe(v.string(), v.minLength(1, contractMessages.passwordRequired)),
  }),
  v.object({ method: v.literal('code'), token: Code(contractMessages.codeTooShort) }),
])

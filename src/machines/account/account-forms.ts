/**
 * The account forms' rules: the shared payload rules plus what only a form has (confirmations),
 * each turned into what its call sends. The submission machines check the draft values with them.
 */
import * as v from 'valibot'
import { contractMessages, Email, NewPassword, TypedCode } from '../../../contract'

export const EmailForm = v.object({ email: Email })

/** Activation and reset by an e-mailed link: a mismatch says "Passwords don't match". */
export const LinkPasswordForm = v.pipe(
  v.object({ email: v.string(), token: v.string(), password: NewPassword, confirmPassword: v.string() }),
  v.forward(
    v.partialCheck(
      [['password'], ['confirmPassword']],
      (input) => input.password === input.confirmPassword,
      "Passwords don't match",
    ),
    ['confirmPassword'],
  ),
  v.transform(({ email, token, password }) => ({ email, token, password })),
)

export const ChangePasswordForm = v.pipe(
  v.object({
    currentPassword: v.pipe(v.string(), v.minLength(1, 'Current password is required')),
    newPassword: NewPassword,
    confirmPassword: v.pipe(v.string(), v.minLength(1, 'Password confirmation is required')),
  }),
  v.forward(
    v.partialCheck(
      [['newPassword'], ['confirmPassword']],
      (input) => input.newPassword === input.confirmPassword,
      'Passwords do not match',
    ),
    ['confirmPassword'],
  ),
  v.transform(({ currentPassword, newPassword }) => ({ currentPassword, newPassword })),
)

/** The current password, or a code from the authenticator, as the chosen `method` says. */
export const DisableTwoFactorForm = v.pipe(
  v.variant('method', [
    v.object({
      method: v.literal('password'),
      password: v.pipe(v.string(), v.minLength(1, 'Password is required')),
    }),
    v.object({ method: v.literal('code'), token: TypedCode(contractMessages.codeTooShort) }),
  ]),
  v.transform((input) =>
    input.method === 'password' ? { password: input.password } : { token: input.token },
  ),
)

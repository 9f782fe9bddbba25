/** The account forms' rules, as their submission machines apply them to the draft values. */
import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import {
  ChangePasswordForm,
  DisableTwoFactorForm,
  EmailForm,
  LinkPasswordForm,
} from '../../src/machines/account/account-forms'
import { fieldErrorsOf } from '../../src/machines/shared/form'
import { createSubmissionMachine } from '../../src/machines/shared/submission.machine'

const submitted = (schema: Parameters<typeof createSubmissionMachine>[0], values: Record<string, string>) => {
  const actor = createActor(createSubmissionMachine(schema)).start()
  actor.send({ type: 'form.submit', values })
  const snapshot = actor.getSnapshot()
  actor.stop()
  return { state: snapshot.value, input: snapshot.context.input, errors: snapshot.context.fieldErrors }
}

describe('account forms', () => {
  it('sends the link password with the e-mail and token, without the confirmation', () => {
    const values = {
      email: 'ada@example.com',
      token: 't0k',
      password: 'Secret123',
      confirmPassword: 'Secret123',
    }
    expect(submitted(LinkPasswordForm, values)).toEqual({
      state: 'submitting',
      input: { email: 'ada@example.com', token: 't0k', password: 'Secret123' },
      errors: {},
    })
  })

  it('refuses a link password whose confirmation differs', () => {
    const values = {
      email: 'ada@example.com',
      token: 't0k',
      password: 'Secret123',
      confirmPassword: 'Secret124',
    }
    expect(submitted(LinkPasswordForm, values)).toEqual({
      state: 'editing',
      input: null,
      errors: { confirmPassword: "Passwords don't match" },
    })
  })

  it('sends the current and new passwords of a password change', () => {
    const values = { currentPassword: 'Old12345', newPassword: 'Secret123', confirmPassword: 'Secret123' }
    expect(submitted(ChangePasswordForm, values).input).toEqual({
      currentPassword: 'Old12345',
      newPassword: 'Secret123',
    })
    expect(fieldErrorsOf(ChangePasswordForm, { ...values, confirmPassword: 'Other123' })).toEqual({
      confirmPassword: 'Passwords do not match',
    })
  })

  it('disables 2FA with the password or with a code, as the chosen method says', () => {
    expect(submitted(DisableTwoFactorForm, { method: 'password', password: 'pw', token: '' }).input).toEqual({
      password: 'pw',
    })
    expect(
      submitted(DisableTwoFactorForm, { method: 'code', password: '', token: ' 123456 ' }).input,
    ).toEqual({
      token: '123456',
    })
    expect(fieldErrorsOf(DisableTwoFactorForm, { method: 'code', token: '123' })).toEqual({
      token: 'Code must be at least 6 characters',
    })
  })

  it('asks for a valid e-mail before sending a reset link', () => {
    expect(fieldErrorsOf(EmailForm, { email: 'ada' })).toEqual({
      email: 'Please enter a valid email address',
    })
    expect(submitted(EmailForm, { email: 'Ada@Example.com' }).input).toEqual({ email: 'ada@example.com' })
  })
})

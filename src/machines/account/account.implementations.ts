/**
 * The account screens' machines (2FA setup, the e-mailed links' check, account activation,
 * password reset and change, 2FA removal) filled from the auth API, the notices, the router, the
 * clipboard and the session actor (which they tell about a changed user).
 */
import type * as v from 'valibot'
import { type ActorRefFrom, fromPromise } from 'xstate'
import { TwoFactorAdvice } from '../../../contract'
import type { Api } from '../../api'
import type { SessionActor } from '../session/session.implementations'
import type { Navigator } from '../shared/deps'
import { type AccountNotice, type Notify, notice } from '../shared/notice'
import { createSubmissionMachine, type SubmissionMachine } from '../shared/submission.machine'
import { ChangePasswordForm, DisableTwoFactorForm, EmailForm, LinkPasswordForm } from './account-forms'
import { emailLinkMachine } from './email-link.machine'
import { twoFactorSetupMachine } from './two-factor-setup.machine'

export type TwoFactorSetupActor = ActorRefFrom<typeof twoFactorSetupMachine>

export type AccountDeps = {
  api: Pick<Api, 'auth' | 'settings'>
  notify: Notify
  navigate: Navigator
  clipboard: Pick<Clipboard, 'writeText'>
  session: Pick<SessionActor, 'send'>
}

export function createAccountImplementations({ api, notify, navigate, clipboard, session }: AccountDeps) {
  /**
   * A form checked by `schema` whose success toasts (and maybe navigates) and whose failure toasts
   * the server's message.
   */
  const submission = <S extends v.GenericSchema, T extends v.InferOutput<S>>(
    schema: S,
    submit: (input: T) => Promise<unknown>,
    on: { succeeded?: AccountNotice; failed: AccountNotice; afterwards?: (input: T) => void },
  ): SubmissionMachine =>
    createSubmissionMachine(schema).provide({
      actors: { submit: fromPromise(({ input }) => submit(input as T)) },
      actions: {
        succeeded: (_, { input }) => {
          if (on.succeeded) notify(notice(`account.${on.succeeded}`))
          on.afterwards?.(input as T)
        },
        failed: (_, { failure }) =>
          notify(
            notice(`account.${on.failed}`, { message: failure.status === 500 ? undefined : failure.message }),
          ),
      },
    })
  const toLogin = () => navigate.toPath('/login')
  /** An e-mailed link's check: one without its token or e-mail shows `incomplete`, then the login. */
  const emailLink = (incomplete: AccountNotice) =>
    emailLinkMachine.provide({
      actions: {
        notifyIncomplete: () => notify(notice(`account.${incomplete}`)),
        navigateToLogin: () => navigate.toPath('/login', { replace: true }),
      },
    })

  return {
    /** 2FA setup for the signed-in user; `redirectTo` is where to go when it is done or skipped. */
    twoFactorSetup: (redirectTo: string) =>
      twoFactorSetupMachine.provide({
        actors: {
          generate: fromPromise(({ input }) => api.auth.generateTwoFactor(input.email)),
          copyCodes: fromPromise(({ input }) => clipboard.writeText(input.text)),
          verify: fromPromise(async ({ input }) => {
            await api.auth.verifyTwoFactor(input)
          }),
          reloadUser: fromPromise(() => api.auth.loggedIn()),
          skipAdvice: fromPromise(async () => {
            await api.settings.saveTwoFactorAdvice(false)
            return api.auth.loggedIn()
          }),
        },
        actions: {
          notify: (_, { notice: code, message }) => notify(notice(`twoFactorSetup.${code}`, { message })),
          publishUser: (_, { user }) => session.send({ type: 'session.userLoaded', user }),
          leave: () => navigate.toPath(redirectTo),
        },
      }),
    activationLink: emailLink('invalidValidationLink'),
    activation: submission(LinkPasswordForm, api.auth.validateMail, {
      succeeded: 'accountValidated',
      failed: 'accountValidationFailed',
      afterwards: toLogin,
    }),
    resetRequest: submission(EmailForm, api.auth.requestPasswordReset, { failed: 'resetRequestFailed' }),
    resetLink: emailLink('invalidResetLink'),
    resetConfirm: submission(LinkPasswordForm, api.auth.confirmPasswordReset, {
      succeeded: 'passwordReset',
      failed: 'passwordResetFailed',
      afterwards: toLogin,
    }),
    changePassword: submission(ChangePasswordForm, api.auth.changePassword, {
      succeeded: 'passwordChanged',
      failed: 'passwordChangeFailed',
    }),
    /** The Settings switch: sign-in advises setting up 2FA again (or not). */
    twoFactorAdvice: submission(TwoFactorAdvice, ({ advice }) => api.settings.saveTwoFactorAdvice(advice), {
      succeeded: 'twoFactorAdviceSaved',
      failed: 'twoFactorAdviceFailed',
      afterwards: () => session.send({ type: 'session.refresh' }),
    }),
    disableTwoFactor: submission(DisableTwoFactorForm, api.auth.disableTwoFactor, {
      succeeded: 'twoFactorDisabled',
      failed: 'twoFactorDisableFailed',
      afterwards: () => session.send({ type: 'session.refresh' }),
    }),
  }
}

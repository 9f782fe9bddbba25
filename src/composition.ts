/**
 * Wires the machines to the outside world: API calls become actors, notices become toasts,
 * navigation goes through the router. Only the composition root (`main.tsx`) calls this.
 */
import type { Messages } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import toast from 'react-hot-toast'
import { createActor, fromPromise, type InspectionEvent } from 'xstate'
import type { Api } from './api'
import type { Catalog } from './api/locales'
import type { Language, LoginInput } from './api/schemas'
import type { AdminMachines } from './composition-admin'
import type { DetailMachines } from './composition-details'
import { createUploadActors } from './composition-uploads'
import { companySelectionMachine } from './machines/company-selection.machine'
import { companyUsersMachine } from './machines/company-users.machine'
import { rowActionsMachine } from './machines/dashboard/row-actions.machine'
import { dashboardMachine, toQuery } from './machines/dashboard.machine'
import { firstAdminMachine } from './machines/first-admin.machine'
import { languageMachine } from './machines/language.machine'
import { type SecondFactor, sessionMachine } from './machines/session.machine'
import { submissionMachine } from './machines/submission.machine'
import { twoFactorSetupMachine } from './machines/two-factor-setup.machine'
import type { AppActors } from './ui/app-context'
import { activateLanguage, i18n, LANGUAGE_STORAGE_KEY } from './ui/i18n'
import {
  type AccountNotice,
  type AdminNotice,
  accountNotices,
  adminNotices,
  companyNoticeText,
  dashboardNoticeText,
  noticeText,
  sessionNotices,
  twoFactorSetupNotices,
} from './ui/messages'

export const SELECTED_COMPANY_KEY = 'selectedCompanyId'

export type Navigator = {
  toPath(path: string): void
  toLogin(returnHere: boolean): void
}

type Toastable = { kind: 'success' | 'error' | 'info'; message: import('@lingui/core').MessageDescriptor }

function showToast(notice: Toastable, serverMessage?: string) {
  const text = noticeText(notice, serverMessage)
  if (notice.kind === 'info') toast(text, { icon: 'ℹ️' })
  else toast[notice.kind](text)
}

export const notifyAccount = (notice: AccountNotice, serverMessage?: string) =>
  showToast(accountNotices[notice], serverMessage)

export const notifyAdmin = (notice: AdminNotice, serverMessage?: string) =>
  showToast(adminNotices[notice], serverMessage)

let adminMachines: Promise<AdminMachines> | undefined
let detailMachines: Promise<DetailMachines> | undefined

export function createAppActors(deps: {
  api: Api
  navigate: Navigator
  storage: Storage
  clipboard: Pick<Clipboard, 'writeText'>
  initialLanguage: Language
  inspect?: ((event: InspectionEvent) => void) | undefined
}): AppActors {
  const { api, navigate, storage, inspect } = deps
  const options = inspect ? { inspect } : {}

  const session = createActor(
    sessionMachine.provide({
      actors: {
        fetchUser: fromPromise(() => api.auth.loggedIn()),
        login: fromPromise(({ input }: { input: LoginInput }) => api.auth.login(input)),
        logout: fromPromise(() => api.auth.logout()),
        completeTwoFactorLogin: fromPromise(async ({ input }: { input: LoginInput & SecondFactor }) => {
          await api.auth.completeTwoFactorLogin(input)
        }),
      },
      actions: {
        notify: (_, { notice }) => showToast(sessionNotices[notice]),
        navigateAfterSignIn: (_, { to, setupTwoFactor }) =>
          navigate.toPath(
            setupTwoFactor ? `/setup-2fa${to === '/' ? '' : `?redirect=${encodeURIComponent(to)}`}` : to,
          ),
        navigateToLogin: (_, { returnHere }) => navigate.toLogin(returnHere),
        navigateToSecondFactor: () => navigate.toPath('/two-factor'),
      },
    }),
    options,
  )

  const language = createActor(
    languageMachine.provide({
      actors: {
        loadCatalog: fromPromise(({ input }: { input: { language: Language } }) =>
          api.locales.load(input.language),
        ),
      },
      actions: {
        activate: (_, { language: lng, catalog }: { language: Language; catalog: Catalog }) =>
          activateLanguage(lng, catalog as Messages),
        persist: (_, { language: lng }) => storage.setItem(LANGUAGE_STORAGE_KEY, lng),
        saveRemote: (_, { language: lng }) => {
          if (!session.getSnapshot().matches('signedIn')) return
          // Spec 02 §8: a failed save is only logged.
          api.settings.saveMine(lng).catch((error: unknown) => console.warn('Language not saved', error))
        },
        notifyChangeFailed: () =>
          toast.error(i18n._(msg`The language could not be changed. Please try again.`)),
      },
    }),
    { ...options, input: { language: deps.initialLanguage } },
  )

  const companySelection = createActor(
    companySelectionMachine.provide({
      actors: {
        loadCompanies: fromPromise(async () => {
          const stored = Number(storage.getItem(SELECTED_COMPANY_KEY))
          const companies = (await api.companies.mine()).map((c) => ({
            ...c,
            logoUrl: c.logo_path ? api.companies.logoUrl(c.id, c.logo_path) : null,
          }))
          return { companies, storedId: Number.isInteger(stored) && stored > 0 ? stored : null }
        }),
      },
      actions: {
        persist: (_, { id }) => storage.setItem(SELECTED_COMPANY_KEY, String(id)),
        notify: (_, { notice, name }) => {
          const text = companyNoticeText(notice, name)
          if (notice === 'companyChanged') toast.success(text)
          else toast.error(text)
        },
      },
    }),
    options,
  )

  // Signing in loads the user's companies and their saved language; signing out forgets them.
  let wasSignedIn = false
  session.subscribe((snapshot) => {
    const signedIn = snapshot.matches('signedIn')
    if (signedIn === wasSignedIn) return
    wasSignedIn = signedIn
    if (!signedIn) return companySelection.send({ type: 'companies.clear' })
    companySelection.send({ type: 'companies.load' })
    // Spec 02 §8: a failed settings fetch silently keeps the local language.
    api.settings
      .getMine()
      .then(({ language: saved }) => language.send({ type: 'language.restore', language: saved }))
      .catch(() => undefined)
  })

  const firstAdmin = firstAdminMachine.provide({
    actors: {
      setupStatus: fromPromise(() => api.auth.setupStatus()),
      createFirstAdmin: fromPromise(({ input }) => api.auth.createFirstAdmin(input)),
    },
  })

  /** 2FA setup for the signed-in user; `redirectTo` is where to go when it is done or skipped. */
  const twoFactorSetup = (redirectTo: string) =>
    twoFactorSetupMachine.provide({
      actors: {
        generate: fromPromise(({ input }) => api.auth.generateTwoFactor(input.email)),
        copyCodes: fromPromise(({ input }) => deps.clipboard.writeText(input.text)),
        verify: fromPromise(async ({ input }) => {
          await api.auth.verifyTwoFactor(input)
        }),
        reloadUser: fromPromise(() => api.auth.loggedIn()),
      },
      actions: {
        notify: (_, { notice, message }) => showToast(twoFactorSetupNotices[notice], message),
        publishUser: (_, { user }) => session.send({ type: 'session.userLoaded', user }),
        leave: () => navigate.toPath(redirectTo),
      },
    })

  /** A form whose success toasts (and maybe navigates) and whose failure toasts the server's message. */
  const submission = <T>(
    submit: (input: T) => Promise<unknown>,
    on: { succeeded?: AccountNotice; failed: AccountNotice; afterwards?: (input: T) => void },
  ) =>
    submissionMachine.provide({
      actors: { submit: fromPromise(({ input }) => submit(input as T)) },
      actions: {
        succeeded: (_, { input }) => {
          if (on.succeeded) notifyAccount(on.succeeded)
          on.afterwards?.(input as T)
        },
        failed: (_, { failure }) =>
          notifyAccount(on.failed, failure.status === 500 ? undefined : failure.message),
      },
    })

  const refreshSession = () => session.send({ type: 'session.refresh' })

  // The dashboard on screen (if any) subscribes; each upload that completes or fails refreshes it.
  const dashboardRefresh = new Set<() => void>()
  const { uploadQueue, uploadDialog } = createUploadActors({
    api,
    session,
    companySelection,
    inspect,
    refreshDashboard: () => {
      for (const refresh of dashboardRefresh) refresh()
    },
  })

  const loadAdmin = () => {
    adminMachines ??= Promise.all([api.loadAdmin(), import('./composition-admin')]).then(([admin, module]) =>
      module.createAdminMachines({ admin }),
    )
    return adminMachines
  }

  const loadDetails = () => {
    detailMachines ??= Promise.all([api.loadDetails(), import('./composition-details')]).then(
      ([details, module]) => module.createDetailMachines({ details, uploadQueue }),
    )
    return detailMachines
  }

  return {
    session,
    language,
    companySelection,
    uploadQueue,
    uploadDialog,
    onUploadsSettled: (refresh: () => void) => {
      dashboardRefresh.add(refresh)
      return () => dashboardRefresh.delete(refresh)
    },
    inspect,
    loadAdmin,
    loadDetails,
    machines: {
      firstAdmin,
      dashboard: dashboardMachine.provide({
        actors: {
          fetchLogs: fromPromise(async ({ input }) => {
            // The summary counts every row of the company on the server; the table is a page of the filtered rows.
            const [page, summary] = await Promise.all([
              api.logs.list(input.companyId, toQuery(input, new Date())),
              api.logs.summary(input.companyId),
            ])
            return { ...page, summary }
          }),
          fetchMore: fromPromise(({ input }) => api.logs.list(input.companyId, toQuery(input, new Date()))),
          rowActions: rowActionsMachine.provide({
            actors: { deleteRow: fromPromise(({ input }) => api.logs.remove(input.companyId, input.log)) },
            actions: {
              notify: (_, { notice, value }) => {
                const text = dashboardNoticeText(notice, value)
                if (notice === 'documentDeleted') toast.success(text)
                else toast.error(text)
              },
            },
          }),
        },
        actions: {
          notifyFailed: (_, { searching, message }) =>
            toast.error(
              message || i18n._(searching ? msg`Failed to search logs` : msg`Failed to fetch logs`),
            ),
        },
      }),
      companyUsers: companyUsersMachine.provide({
        actors: { loadUsers: fromPromise(({ input }) => api.companies.users(input.companyId)) },
        actions: { notifyFailed: () => toast.error(i18n._(msg`Failed to fetch company users`)) },
      }),
      twoFactorSetup,
      activation: submission(api.auth.validateMail, {
        succeeded: 'accountValidated',
        failed: 'accountValidationFailed',
        afterwards: () => navigate.toPath('/login'),
      }),
      resetRequest: submission(api.auth.requestPasswordReset, { failed: 'resetRequestFailed' }),
      resetConfirm: submission(api.auth.confirmPasswordReset, {
        succeeded: 'passwordReset',
        failed: 'passwordResetFailed',
        afterwards: () => navigate.toPath('/login'),
      }),
      changePassword: submission(api.auth.changePassword, {
        succeeded: 'passwordChanged',
        failed: 'passwordChangeFailed',
      }),
      disableTwoFactor: submission(api.auth.disableTwoFactor, {
        succeeded: 'twoFactorDisabled',
        failed: 'twoFactorDisableFailed',
        afterwards: refreshSession,
      }),
    },
  }
}

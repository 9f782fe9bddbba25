/**
 * The long-lived actors and the screen machines (already provided with their implementations),
 * created once by the composition root (`main.tsx`) and read by views.
 */
import { useActorRef } from '@xstate/react'
import { createContext, type ReactNode, use } from 'react'
import type { ActorOptions, ActorRefFrom, AnyActorLogic, InspectionEvent } from 'xstate'
import type { AdminMachines } from '../composition-admin'
import type { DetailMachines } from '../composition-details'
import type { dashboardMachine } from '../machines/dashboard/dashboard.machine'
import type { firstAdminMachine } from '../machines/session/first-admin.machine'
import type { sessionMachine } from '../machines/session/session.machine'
import type { twoFactorSetupMachine } from '../machines/session/two-factor-setup.machine'
import type { SubmissionMachine } from '../machines/shared/submission.machine'
import type { companySelectionMachine } from '../machines/shell/company-selection.machine'
import type { companyUsersMachine } from '../machines/shell/company-users.machine'
import type { languageMachine } from '../machines/shell/language.machine'
import type { UploadDialogMachine } from '../machines/uploads/upload-dialog.machine'
import type { UploadQueueActor } from '../machines/uploads/upload-queue.machine'

export type SessionActor = ActorRefFrom<typeof sessionMachine>
export type DashboardActor = ActorRefFrom<typeof dashboardMachine>
export type CompanySelectionActor = ActorRefFrom<typeof companySelectionMachine>
export type FirstAdminActor = ActorRefFrom<typeof firstAdminMachine>
export type TwoFactorSetupActor = ActorRefFrom<typeof twoFactorSetupMachine>
export type LanguageActor = ActorRefFrom<typeof languageMachine>

export type AppActors = {
  session: SessionActor
  language: LanguageActor
  /** The selected company (header switcher; every company-scoped screen reads it). */
  companySelection: CompanySelectionActor
  /** The upload queue (one child per file, the status poll) and the upload dialogs; absent in view
   * tests that do not upload. */
  uploadQueue?: UploadQueueActor
  uploadDialog?: ActorRefFrom<UploadDialogMachine>
  /** Calls `refresh` after each upload that completes or fails; returns the unsubscribe. */
  onUploadsSettled?: (refresh: () => void) => () => void
  machines: {
    firstAdmin: typeof firstAdminMachine
    dashboard: typeof dashboardMachine
    companyUsers: typeof companyUsersMachine
    twoFactorSetup: (redirectTo: string) => typeof twoFactorSetupMachine
    activation: SubmissionMachine
    resetRequest: SubmissionMachine
    resetConfirm: SubmissionMachine
    changePassword: SubmissionMachine
    disableTwoFactor: SubmissionMachine
  }
  /** The administration area's machines, loaded with their chunk (the same promise every time). */
  loadAdmin: () => Promise<AdminMachines>
  /** The invoice / expense detail dialog's machine, loaded with its chunk (the same promise every
   * time); absent in view tests that open no detail dialog. */
  loadDetails?: () => Promise<DetailMachines>
  /** The Stately inspector (or a test's observer), also given to screen-scoped actors. */
  inspect?: ((event: InspectionEvent) => void) | undefined
}

const AppActorsContext = createContext<AppActors | null>(null)

export function AppActorsProvider({ value, children }: { value: AppActors; children: ReactNode }) {
  return <AppActorsContext value={value}>{children}</AppActorsContext>
}

export function useAppActors(): AppActors {
  const actors = use(AppActorsContext)
  if (!actors) throw new Error('useAppActors outside AppActorsProvider')
  return actors
}

/** A screen-scoped actor (lives as long as the view), visible to the inspector like the root actors. */
export function useScreenActor<TLogic extends AnyActorLogic>(
  logic: TLogic,
  options: Omit<ActorOptions<TLogic>, 'inspect'> = {},
): ActorRefFrom<TLogic> {
  const { inspect } = useAppActors()
  return useActorRef(logic, {
    ...options,
    ...(inspect ? { inspect } : {}),
  } as ActorOptions<TLogic>) as ActorRefFrom<TLogic>
}

/**
 * The long-lived actors and the screen machines (already provided with their implementations),
 * created once by the composition root (`main.tsx`) and read by views.
 */
import { createContext, type ReactNode, use } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { firstAdminMachine } from '../machines/first-admin.machine'
import type { languageMachine } from '../machines/language.machine'
import type { sessionMachine } from '../machines/session.machine'
import type { SubmissionMachine } from '../machines/submission.machine'
import type { twoFactorSetupMachine } from '../machines/two-factor-setup.machine'

export type SessionActor = ActorRefFrom<typeof sessionMachine>
export type LanguageActor = ActorRefFrom<typeof languageMachine>

export type AppActors = {
  session: SessionActor
  language: LanguageActor
  machines: {
    firstAdmin: typeof firstAdminMachine
    twoFactorSetup: (redirectTo: string) => typeof twoFactorSetupMachine
    activation: SubmissionMachine
    resetRequest: SubmissionMachine
    resetConfirm: SubmissionMachine
    changePassword: SubmissionMachine
    disableTwoFactor: SubmissionMachine
  }
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

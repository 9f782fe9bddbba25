/**
 * Hands the long-lived actors and the screen machines (built by `composeApp` in composition.ts)
 * to the views.
 */
import { useActorRef } from '@xstate/react'
import { createContext, type ReactNode, use } from 'react'
import type { ActorOptions, ActorRefFrom, AnyActorLogic } from 'xstate'
import type { AppActors } from '../composition'

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

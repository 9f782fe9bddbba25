/**
 * The model paths replayed on the rendered view: every step a person can take is done through the
 * UI (Testing Library's user-event), the others (server answers, timers) through the fakes; after
 * each step the live actor must be where the graph said and the view must show that state.
 */
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactElement } from 'react'
import { describe, expect, it } from 'vitest'
import {
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type EventObject,
  type InspectionEvent,
  waitFor as waitForActor,
} from 'xstate'
import {
  type ControlledActors,
  Coverage,
  createControlledActors,
  describePath,
  edgeCoverPaths,
  leafStates,
  SimulatedClock,
  stateKey,
} from './graph'
import type { ModelSpec } from './model'

export type User = ReturnType<typeof userEvent.setup>

export type ViewModelSpec<M extends AnyStateMachine> = Omit<ModelSpec<M>, 'states'> & {
  /** Renders the view for the provided machine. Return the actor when the test creates it; else the
   * view's own actor (useScreenActor) is found through `inspect`. */
  mount: (
    machine: M,
    inspect: (event: InspectionEvent) => void,
    clock: SimulatedClock,
  ) => {
    element: ReactElement
    actor?: AnyActorRef
  }
  /** How a person sends each event through the view. */
  ui: Record<string, (user: User, event: EventObject & Record<string, unknown>) => Promise<void>>
  /** What the view shows in each leaf state. */
  views: Record<string, (snapshot: AnyMachineSnapshot) => void>
  render: (element: ReactElement) => unknown
}

export function describeViewModel<M extends AnyStateMachine>(name: string, spec: ViewModelSpec<M>) {
  describe(name, () => {
    const paths = edgeCoverPaths(spec.machine, spec)
    const coverage = new Coverage(spec.machine)

    it.each(paths.map((p) => [describePath(p), p] as const))('path: %s', async (_label, path) => {
      const controls: ControlledActors = createControlledActors(spec.actors)
      const clock = new SimulatedClock()
      const log: string[] = []
      const provided = (
        spec.provide ? spec.provide(spec.machine, controls, (e) => log.push(e)) : spec.machine
      ).provide({
        actors: controls.actors,
      } as never) as M
      let found: AnyActorRef | undefined
      const inspect = (event: InspectionEvent) => {
        coverage.inspect(event)
        if (event.type === '@xstate.actor' && (event.actorRef as { logic?: unknown }).logic === provided) {
          found = event.actorRef as AnyActorRef
        }
      }
      const mounted = spec.mount(provided, inspect, clock)
      const view = spec.render(mounted.element) as { unmount: () => void }
      await waitFor(() => expect(mounted.actor ?? found).toBeDefined())
      const actor = (mounted.actor ?? found) as AnyActorRef
      const user = userEvent.setup()

      const check = async (snapshot: AnyMachineSnapshot) => {
        coverage.observe(snapshot)
        for (const leaf of leafStates(snapshot)) {
          const assertView = spec.views[leaf]
          expect(assertView, `no view assertion for ${leaf}`).toBeDefined()
          await waitFor(() => assertView!(snapshot))
        }
      }
      await check(actor.getSnapshot())

      for (const step of path.steps) {
        const { event } = step
        if (event.type === 'xstate.init') continue
        const done = /^xstate\.done\.actor\.(.+)$/.exec(event.type)
        const error = /^xstate\.error\.actor\.(.+)$/.exec(event.type)
        const after = /^xstate\.after\.(\d+)\./.exec(event.type)
        const viaUi = spec.ui[event.type]
        if (done) controls.resolve(done[1]!, (event as { output?: unknown }).output)
        else if (error) controls.reject(error[1]!, (event as { error?: unknown }).error)
        else if (after) clock.increment(Number(after[1]))
        else if (viaUi) await viaUi(user, event as EventObject & Record<string, unknown>)
        else actor.send(event)
        const expected = stateKey(step.state, spec)
        const reached = await waitForActor(
          actor,
          (s) => stateKey(s as AnyMachineSnapshot, spec) === expected,
          {
            timeout: 2000,
          },
        ).catch(() => {
          throw new Error(
            `After ${event.type}: expected ${expected}, live actor is in ${stateKey(actor.getSnapshot(), spec)}`,
          )
        })
        await check(reached as AnyMachineSnapshot)
      }
      view.unmount()
    })

    it('covers every state and transition through the view', () => {
      const report = coverage.report()
      console.log(report.table())
      expect(report.states.missed).toEqual([])
      expect(report.transitions.missed).toEqual([])
    })
  })
}

export { screen }

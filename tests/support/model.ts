/**
 * `describeModel` turns a machine into a vitest suite: one test per generated path, replayed on a
 * live actor, a guard test (samples for every invoke outcome, an assertion for every leaf state)
 * and a final test that prints the coverage table and demands every state and transition.
 */
import { describe, expect, it } from 'vitest'
import { type Actor, type AnyMachineSnapshot, type AnyStateMachine, createActor } from 'xstate'
import {
  actorEventTypes,
  allStateNodes,
  type ControlledActors,
  Coverage,
  createControlledActors,
  describePath,
  edgeCoverPaths,
  executeStep,
  leafStates,
  type ModelOptions,
  type Replay,
  SimulatedClock,
} from './graph'

export type ModelSpec<M extends AnyStateMachine> = ModelOptions & {
  machine: M
  /** Names of the machine's promise actors to replace with controllable fakes. */
  actors: readonly string[]
  /** Fills the machine's other placeholders (actions, delays) for the test. */
  provide?: (machine: M, controls: ControlledActors, record: (entry: string) => void) => M
  /**
   * Several inputs whose contexts take different branches (a PDF, a photo): paths are generated
   * from each and the coverage is of them all together. Replaces `input`.
   */
  inputs?: readonly unknown[]
  /** One assertion per leaf state ('signedOut.idle'), run each time a path reaches it. */
  states: Record<string, (snapshot: AnyMachineSnapshot, log: readonly string[]) => void>
}

export function startReplay<M extends AnyStateMachine>(spec: ModelSpec<M>, coverage?: Coverage) {
  const controls = createControlledActors(spec.actors)
  const clock = new SimulatedClock()
  const log: string[] = []
  const provided = (
    spec.provide ? spec.provide(spec.machine, controls, (e) => log.push(e)) : spec.machine
  ).provide({
    actors: controls.actors,
  } as never) as M
  const actor = createActor(provided as AnyStateMachine, {
    clock,
    ...(spec.input === undefined ? {} : { input: spec.input }),
    ...(coverage ? { inspect: coverage.inspect } : {}),
  }) as unknown as Actor<M>
  actor.start()
  return { replay: { actor, clock, controls } satisfies Replay<Actor<M>>, log }
}

export function describeModel<M extends AnyStateMachine>(name: string, spec: ModelSpec<M>) {
  describe(name, () => {
    const inputs = spec.inputs ?? [spec.input]
    const runs = inputs.flatMap((input, i) =>
      edgeCoverPaths(spec.machine, { ...spec, input }).map((path) => ({
        label: `${inputs.length > 1 ? `input ${i + 1}: ` : ''}${describePath(path)}`,
        spec: { ...spec, input },
        path,
      })),
    )
    const paths = runs.map((r) => r.path)
    const coverage = new Coverage(spec.machine)

    it('finds paths', () => expect(paths.length).toBeGreaterThan(0))

    it('has a payload sample for every invoke outcome and an assertion for every leaf state', () => {
      const missingSamples = actorEventTypes(spec.machine).filter((t) => !spec.events[t]?.length)
      expect(missingSamples, 'event samples missing').toEqual([])
      // Every promise actor the machine invokes must be a controllable fake (machine children are exempt).
      const invoked = allStateNodes(spec.machine).flatMap((n) =>
        n.invoke.map((i) => i.src).filter((src): src is string => typeof src === 'string'),
      )
      const promiseActors = invoked.filter((src) => {
        const logic = (spec.machine.implementations.actors as Record<string, { config?: unknown }>)[src]
        return typeof logic?.config === 'function'
      })
      expect(
        [...new Set(promiseActors)].filter((src) => !spec.actors.includes(src)),
        'invoked actors without a fake',
      ).toEqual([])
      const leaves = allStateNodes(spec.machine)
        .filter((n) => n.type === 'atomic' || n.type === 'final')
        .map((n) => n.path.join('.'))
      expect(
        leaves.filter((l) => !spec.states[l]),
        'state assertions missing',
      ).toEqual([])
    })

    it.each(runs.map((r) => [r.label, r] as const))('path: %s', async (_label, run) => {
      const { replay, log } = startReplay(run.spec, coverage)
      const check = (s: AnyMachineSnapshot) => {
        coverage.observe(s)
        for (const leaf of leafStates(s)) spec.states[leaf]?.(s, log)
      }
      check(replay.actor.getSnapshot() as AnyMachineSnapshot)
      for (const step of run.path.steps) check(await executeStep(replay, step, run.spec))
      replay.actor.stop()
    })

    it('covers every state and transition', () => {
      const report = coverage.report()
      console.log(report.table())
      expect(report.states.missed).toEqual([])
      expect(report.transitions.missed).toEqual([])
    })
  })
}

/**
 * Model-based testing harness: the only importer of @xstate/graph.
 *
 * 1. `edgeCoverPaths` walks the machine's graph (pure transitions, no actors run) and returns one
 *    path per edge: the shortest path to the edge's source, then the edge. Every reachable state
 *    and every reachable transition (back-edges included) is on some path.
 * 2. `replayPath` runs a path on a LIVE actor whose invoked actors are controllable fakes and whose
 *    clock is a `SimulatedClock`: a done/error event of an invoke settles the fake, a delayed event
 *    advances the clock, any other event is sent. After each step the live actor must be in the
 *    state the graph predicted, then that state's assertion runs.
 * 3. `Coverage` records which transition definitions the live actors took (from the inspector's
 *    microsteps) and which state nodes they visited, and prints the table.
 */
import { getAdjacencyMap, getShortestPaths, type StatePath } from '@xstate/graph'
import {
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type EventObject,
  fromPromise,
  getNextTransitions,
  getStateNodes,
  type InspectionEvent,
  SimulatedClock,
  waitFor,
} from 'xstate'

export type Path = StatePath<AnyMachineSnapshot, EventObject>

export type ModelOptions = {
  /** Payload samples by event type; a type without samples is sent as `{ type }`. */
  events: Record<string, (EventObject & Record<string, unknown>)[]>
  /** The part of the context that makes two states different (default: none). */
  contextKey?: (context: unknown) => unknown
  limit?: number
  /** The machine's input, for machines whose context is built from it. */
  input?: unknown
  /**
   * Which events can be sent in a state (default: all the machine accepts). A view test uses it
   * to follow only what the screen offers, e.g. a row's button exists only once the rows are shown.
   */
  allowed?: (snapshot: AnyMachineSnapshot, event: EventObject) => boolean
}

export function stateKey(snapshot: AnyMachineSnapshot, options: Pick<ModelOptions, 'contextKey'>): string {
  return JSON.stringify({ value: snapshot.value, context: options.contextKey?.(snapshot.context) ?? null })
}

/**
 * An event as text, files and blobs by what tells them apart: JSON shows a File as `{}`, and the
 * graph keeps one of two samples that differ only by their file (a PDF and a JPEG look alike).
 */
export function eventKey(event: EventObject): string {
  return JSON.stringify(event, (_key, value: unknown) =>
    value instanceof Blob
      ? { blob: value.type, size: value.size, ...(value instanceof File ? { name: value.name } : {}) }
      : value,
  )
}

/**
 * The event types a snapshot reacts to: those of its active states' transitions that do something
 * (a target, actions or a re-entry), eventless ones left out, in document order of the states.
 */
export function eventTypes(snapshot: AnyMachineSnapshot): string[] {
  const acting = getNextTransitions(snapshot).filter(
    (t) => t.eventType && (t.target || t.actions.length || t.reenter),
  )
  return [...new Set(acting.sort((a, b) => a.source.order - b.source.order).map((t) => t.eventType))]
}

/** The state nodes active in a snapshot, the root first. */
export function activeStateNodes(snapshot: AnyMachineSnapshot): AnyStateNode[] {
  return [...new Set(getStateNodes(snapshot.machine.root, snapshot.value))]
}

function traversalOptions(options: ModelOptions) {
  return {
    serializeState: (s: AnyMachineSnapshot) => stateKey(s, options),
    serializeEvent: eventKey,
    events: (s: AnyMachineSnapshot) =>
      eventTypes(s)
        .filter((type) => type !== '*')
        .flatMap((type) => options.events[type] ?? [{ type }])
        .filter((event) => options.allowed?.(s, event) ?? true),
    limit: options.limit ?? 500,
    ...(options.input === undefined ? {} : { input: options.input }),
  }
}

/** One path per reachable edge; prefixes of other paths are dropped. */
export function edgeCoverPaths(machine: AnyStateMachine, options: ModelOptions): Path[] {
  const traversal = traversalOptions(options)
  // biome-ignore lint/suspicious/noExplicitAny: the graph package's generic options do not narrow here
  const shortest = getShortestPaths(machine, traversal as any) as Path[]
  const bySource = new Map(shortest.map((p) => [stateKey(p.state, options), p]))
  // biome-ignore lint/suspicious/noExplicitAny: as above
  const adjacency = getAdjacencyMap(machine, traversal as any)
  const paths: Path[] = []
  for (const [source, { transitions }] of Object.entries(adjacency)) {
    const head = bySource.get(source)
    if (!head) continue
    for (const { event, state } of Object.values(transitions) as { event: EventObject; state: unknown }[]) {
      paths.push({
        state: state as AnyMachineSnapshot,
        steps: [...head.steps, { event, state: state as AnyMachineSnapshot }],
        weight: head.weight + 1,
      })
    }
  }
  const signature = (p: Path) => p.steps.map((s) => `${eventKey(s.event)}>${stateKey(s.state, options)}`)
  // Drop paths that are a prefix of another path: collect every proper prefix once (linear).
  const prefixes = new Set<string>()
  const signatures = paths.map((p) => {
    const parts = signature(p)
    for (let k = 1; k < parts.length; k++) prefixes.add(parts.slice(0, k).join('|'))
    return parts.join('|')
  })
  const seen = new Set<string>()
  return paths.filter((_, i) => {
    const sig = signatures[i]!
    if (prefixes.has(sig) || seen.has(sig)) return false
    seen.add(sig)
    return true
  })
}

export function describePath(path: Path): string {
  return (
    path.steps
      .filter((s) => s.event.type !== 'xstate.init')
      .map((s) => s.event.type.replace(/^xstate\.(done|error)\.actor\./, '$1:'))
      .join(' → ') || '(initial)'
  )
}

/** Fakes for invoked promise actors: each invocation waits until the test settles it by invoke id. */
export function createControlledActors<const Names extends readonly string[]>(names: Names) {
  const pending = new Map<
    string,
    { resolve: (v: unknown) => void; reject: (e: unknown) => void; input: unknown }
  >()
  const calls: { src: string; id: string; input: unknown }[] = []
  const actors = Object.fromEntries(
    names.map((src) => [
      src,
      fromPromise<unknown, unknown>(
        ({ input, self }) =>
          new Promise((resolve, reject) => {
            calls.push({ src, id: self.id, input })
            pending.set(self.id, { resolve, reject, input })
          }),
      ),
    ]),
  ) as Record<Names[number], ReturnType<typeof fromPromise<unknown, unknown>>>
  const take = (id: string) => {
    const p = pending.get(id)
    if (!p)
      throw new Error(`No pending invocation '${id}' (pending: ${[...pending.keys()].join(', ') || 'none'})`)
    pending.delete(id)
    return p
  }
  return {
    actors,
    calls,
    resolve: (id: string, output: unknown) => take(id).resolve(output),
    reject: (id: string, error: unknown) => take(id).reject(error),
    isPending: (id: string) => pending.has(id),
  }
}
export type ControlledActors = ReturnType<typeof createControlledActors>

export type Replay<TActor extends AnyActorRef> = {
  actor: TActor
  clock: SimulatedClock
  controls: ControlledActors
}

/** A delayed transition's time: a number, or a named delay of the machine computed on its context. */
function delayOf(actor: AnyActorRef, delay: string): number {
  if (/^\d+$/.test(delay)) return Number(delay)
  const snapshot = actor.getSnapshot() as AnyMachineSnapshot
  const named = (snapshot.machine.implementations.delays as Record<string, unknown>)[delay]
  if (typeof named === 'number') return named
  if (typeof named === 'function') return named({ context: snapshot.context, event: { type: '' } }) as number
  throw new Error(`No delay named ${delay}`)
}

/** Settles, advances or sends, then waits until the live actor is where the graph said. */
export async function executeStep(
  replay: Replay<AnyActorRef>,
  step: Path['steps'][number],
  options: Pick<ModelOptions, 'contextKey'>,
): Promise<AnyMachineSnapshot> {
  const { event } = step
  if (event.type === 'xstate.init') return replay.actor.getSnapshot() as AnyMachineSnapshot
  const done = /^xstate\.done\.actor\.(.+)$/.exec(event.type)
  const error = /^xstate\.error\.actor\.(.+)$/.exec(event.type)
  const after = /^xstate\.after\.([^.]+)\./.exec(event.type)
  if (done) replay.controls.resolve(done[1]!, (event as { output?: unknown }).output)
  else if (error) replay.controls.reject(error[1]!, (event as { error?: unknown }).error)
  else if (after) replay.clock.increment(delayOf(replay.actor, after[1]!))
  else replay.actor.send(event)
  const expected = stateKey(step.state, options)
  try {
    return await waitFor(replay.actor, (s) => stateKey(s as AnyMachineSnapshot, options) === expected, {
      timeout: 1000,
    })
  } catch {
    const actual = stateKey(replay.actor.getSnapshot() as AnyMachineSnapshot, options)
    throw new Error(`After ${event.type}: expected ${expected}, live actor is in ${actual}`)
  }
}

/** Leaf state ids ('signedOut.idle') of a snapshot, the keys of the per-state assertions. */
export function leafStates(snapshot: AnyMachineSnapshot): string[] {
  return activeStateNodes(snapshot)
    .filter((n) => n.type === 'atomic' || n.type === 'final')
    .map(nodeKey)
}
const nodeKey = (n: AnyStateNode) => n.path.join('.')

export function allStateNodes(machine: AnyStateMachine): AnyStateNode[] {
  const out: AnyStateNode[] = []
  const visit = (n: AnyStateNode) => {
    if (n.path.length) out.push(n)
    for (const child of Object.values(n.states)) visit(child as AnyStateNode)
  }
  visit(machine.root)
  return out
}

export function allTransitions(machine: AnyStateMachine): AnyTransitionDefinition[] {
  return allStateNodes(machine).flatMap((n) => [...[...n.transitions.values()].flat(), ...(n.always ?? [])])
}

/** Stable across `machine.provide()`, which rebuilds the state nodes. */
const transitionKey = (t: AnyTransitionDefinition) => {
  const siblings = t.eventType ? (t.source.transitions.get(t.eventType) ?? []) : (t.source.always ?? [])
  return `${t.source.id}#${t.eventType}#${siblings.indexOf(t)}`
}

const transitionLabel = (t: AnyTransitionDefinition) => {
  const guard = t.guard
    ? ` [${typeof t.guard === 'string' ? t.guard : ((t.guard as { type?: string }).type ?? 'guard')}]`
    : ''
  const target = t.target?.map((n) => nodeKey(n)).join(',') ?? '(internal)'
  return `${nodeKey(t.source)} —${t.eventType}${guard}→ ${target}`
}

/**
 * The transition definitions a live actor's microstep took. xstate has no public API for this:
 * the inspector's `@xstate.microstep` event carries them only as `_transitions` (typed, but marked
 * internal by its underscore), and the pure `getMicrosteps` returns snapshots without them. The
 * coverage table needs the definitions themselves (a guarded branch that keeps the state, or an
 * action-only transition, changes no snapshot), so this is the one place that reads an internal.
 */
function takenTransitions(event: InspectionEvent): readonly AnyTransitionDefinition[] {
  return event.type === '@xstate.microstep' ? event._transitions : []
}

/** Records what live actors did, and prints the coverage table. */
export class Coverage {
  private readonly taken = new Set<string>()
  private readonly visited = new Set<string>()
  constructor(private readonly machine: AnyStateMachine) {}

  /** Inspector of the live actors: records the transitions each microstep took. */
  inspect = (event: InspectionEvent) => {
    for (const t of takenTransitions(event)) this.taken.add(transitionKey(t))
  }

  /** Records the state nodes active in a live snapshot. */
  observe(snapshot: AnyMachineSnapshot) {
    for (const n of activeStateNodes(snapshot)) this.visited.add(nodeKey(n))
  }

  report() {
    const states = allStateNodes(this.machine).map(nodeKey)
    const transitions = allTransitions(this.machine)
    const missedStates = states.filter((s) => !this.visited.has(s))
    const missedTransitions = transitions
      .filter((t) => !this.taken.has(transitionKey(t)))
      .map(transitionLabel)
    return {
      states: { covered: states.length - missedStates.length, total: states.length, missed: missedStates },
      transitions: {
        covered: transitions.length - missedTransitions.length,
        total: transitions.length,
        missed: missedTransitions,
      },
      table: () =>
        [
          `coverage of '${this.machine.id}': states ${states.length - missedStates.length}/${states.length}, transitions ${transitions.length - missedTransitions.length}/${transitions.length}`,
          ...transitions.map(
            (t) => `  ${this.taken.has(transitionKey(t)) ? '✓' : '✗'} ${transitionLabel(t)}`,
          ),
        ].join('\n'),
    }
  }
}

/** Every `xstate.done.actor.*` / `xstate.error.actor.*` type the machine reacts to. */
export function actorEventTypes(machine: AnyStateMachine): string[] {
  return [...new Set(allTransitions(machine).map((t) => t.eventType))].filter((t) =>
    /^xstate\.(done|error)\.actor\./.test(t),
  )
}

export { SimulatedClock }

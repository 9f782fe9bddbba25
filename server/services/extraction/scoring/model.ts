/**
 * The scorers' common shape. A field's candidates each carry a vector of named features; a
 * conditional-logit model (one weight per feature, fitted by `npm run fit:extract` and
 * committed in weights.json) turns them into a probability over the document's candidates. The
 * value chosen is the most probable candidate; its confidence is the probability mass of every
 * candidate with the same value, and the next values are its alternatives.
 */
import type { Line, PageText, Segment } from '../pdf-text.ts'
import weightsFile from './weights.json' with { type: 'json' }

/** What candidates are read from: the pages, their positioned lines, the customer's block marked. */
export interface PageModel {
  pages: PageText[]
  lines: Line[]
  /** Segments of the customer's block (recipient, delivery address). */
  customer: Set<Segment>
}

/** Where a value was read: 1-based page and `[x0, y0, x1, y1]` in fractions of the page (top left origin). */
export interface Place {
  page: number
  box: [number, number, number, number]
}

export interface Candidate<V> extends Place {
  value: V
  /** The printed text the value was read from. */
  text: string
  /** One number per feature of the field's scorer, in the order of its feature list. */
  x: number[]
}

interface Alternative<V> extends Place {
  value: V
  confidence: number
}

export interface Evidence<V> extends Place {
  confidence: number
  alternatives: Alternative<V>[]
}

export interface Decision<V> {
  value: V
  evidence: Evidence<V>
}

/** A feature: a name (the key of its weight) and what it measures, for the README and reports. */
export interface FeatureSpec {
  name: string
  doc: string
}

/** A feature of a field's candidates: its spec and its measure over what a candidate site reads. */
export type Feature<A extends unknown[]> = FeatureSpec & { of: (...site: A) => number }

/** A yes/no feature: 1 when `test` holds, else 0. */
export const flag = <A extends unknown[]>(
  name: string,
  doc: string,
  test: (...site: A) => boolean,
): Feature<A> => ({
  name,
  doc,
  of: (...site) => (test(...site) ? 1 : 0),
})

export interface FieldModel {
  features: string[]
  weights: number[]
}

/** The fields decided by a fitted scorer. */
export const SCORED_FIELDS = [
  'issue_date',
  'invoice_number',
  'business_name',
  'business_address',
  'vat_number',
  'iban',
  'totals',
  'currency',
  'has_vat',
] as const
export type ScoredField = (typeof SCORED_FIELDS)[number]

const MODELS = weightsFile.fields as Partial<Record<string, FieldModel>>

/** Weights to use instead of the committed ones (a refit with a group left out, in the benches). */
export type Models = Partial<Record<ScoredField, FieldModel>>

/**
 * The model of a field: the one given, else the committed one (checked against its feature
 * list, so a renamed feature cannot pass silently).
 */
export function modelOf(
  field: ScoredField,
  features: readonly FeatureSpec[],
  models: Models = {},
): FieldModel {
  const model = models[field] ?? MODELS[field]
  const names = features.map((f) => f.name)
  if (!model || model.features.join() !== names.join())
    throw new Error(`weights.json does not match the features of ${field}: run npm run fit:extract`)
  return model
}

const dot = (w: number[], x: number[]) => x.reduce((s, v, i) => s + v * (w[i] ?? 0), 0)

/** Probabilities of each candidate under the model (softmax of the linear scores). */
export function probabilities(model: Pick<FieldModel, 'weights'>, xs: number[][]): number[] {
  if (xs.length === 0) return []
  const scores = xs.map((x) => dot(model.weights, x))
  const top = Math.max(...scores)
  const e = scores.map((s) => Math.exp(s - top))
  const sum = e.reduce((a, b) => a + b, 0)
  return e.map((v) => v / sum)
}

const round3 = (n: number) => Math.round(n * 1000) / 1000

/**
 * The decision among candidates: the most probable one, with the summed probability of its value
 * as confidence and up to three other values (each at its most probable place) as alternatives.
 * Null only when there is no candidate at all.
 */
export function decide<V>(
  model: Pick<FieldModel, 'weights'>,
  candidates: Candidate<V>[],
  key: (v: V) => string = String,
): Decision<V> | null {
  if (candidates.length === 0) return null
  const p = probabilities(
    model,
    candidates.map((c) => c.x),
  )
  const byValue = new Map<string, { best: number; mass: number }>()
  candidates.forEach((c, i) => {
    const k = key(c.value)
    const entry = byValue.get(k)
    if (!entry) byValue.set(k, { best: i, mass: p[i]! })
    else {
      entry.mass += p[i]!
      if (p[i]! > p[entry.best]!) entry.best = i
    }
  })
  const ranked = [...byValue.values()].sort((a, b) => b.mass - a.mass || a.best - b.best)
  const [first, ...rest] = ranked
  const chosen = candidates[first!.best]!
  return {
    value: chosen.value,
    evidence: {
      page: chosen.page,
      box: chosen.box,
      confidence: round3(first!.mass),
      alternatives: rest.slice(0, 3).map((r) => {
        const c = candidates[r.best]!
        return { value: c.value, page: c.page, box: c.box, confidence: round3(r.mass) }
      }),
    },
  }
}

/** The place of a candidate read from no printed place (the choice of none, a worked-out value). */
export const NOWHERE: Place = { page: 1, box: [0, 0, 0, 0] }

/** A decision that may be the choice of none, as a value or null; the choice of none is no alternative. */
export function present<V>(decision: Decision<V | null> | null): Decision<V> | null {
  if (!decision || decision.value === null) return null
  const alternatives = decision.evidence.alternatives.filter(
    (a): a is typeof a & { value: V } => a.value !== null,
  )
  return { value: decision.value, evidence: { ...decision.evidence, alternatives } }
}

/**
 * Fitting a field's scorer: a conditional-logit (multinomial choice) model over each
 * document's candidates, with an L2 penalty. The likelihood is that of choosing a right value:
 * a value printed in several places (a date in the header and again in the footer) is right
 * wherever it is chosen, so which place is "the" right one is latent; the fit alternates
 * between sharing each document's right probability among its right places and a Newton step
 * on the weights (EM with a Newton M-step), from zero weights, so the same candidates give the
 * same weights on every machine.
 * (ml-logistic-regression was tried first: it has no penalty, no intercept and a fixed-step
 * gradient descent of 50 000 steps, and separable features drive its weights to infinity.)
 */
import { Matrix, solve } from 'ml-matrix'

/** One labelled document for one field: its candidates' feature vectors and which are right. */
export interface Choice {
  xs: number[][]
  right: boolean[]
}

export interface FitOptions {
  /** L2 penalty on the weights (default 1). */
  l2?: number
  /** Newton steps at most (default 100). */
  maxSteps?: number
}

/** A candidate's non-zero features (most are flags, mostly 0): indices and values. */
interface Sparse {
  at: number[]
  v: number[]
}

const sparse = (x: number[]): Sparse => {
  const at: number[] = []
  for (let i = 0; i < x.length; i++) if (x[i] !== 0) at.push(i)
  return { at, v: at.map((i) => x[i]!) }
}

/**
 * One document's share of the gradient and of the Hessian (a flat row-major array) at `w`:
 * Σ p (x − mean)(x − mean)ᵀ computed as Σ p x xᵀ − mean meanᵀ over the non-zero features.
 */
function accumulate(xs: Sparse[], right: boolean[], w: number[], grad: number[], hess: Float64Array): void {
  const features = w.length
  const scores = xs.map((x) => x.at.reduce((s, i, n) => s + x.v[n]! * w[i]!, 0))
  const top = Math.max(...scores)
  const e = scores.map((s) => Math.exp(s - top))
  const sum = e.reduce((a, b) => a + b, 0)
  const p = e.map((v) => v / sum)
  const mean = new Array<number>(features).fill(0)
  xs.forEach((x, k) => {
    x.at.forEach((i, n) => {
      mean[i]! += p[k]! * x.v[n]!
    })
  })
  // The likelihood is that of landing on a right value, whichever of its places: each right
  // candidate pulls by its share of the right candidates' probability (EM's responsibilities).
  const mass = xs.reduce((s, _, k) => s + (right[k] ? p[k]! : 0), 0)
  xs.forEach((x, k) => {
    if (!right[k]) return
    const share = p[k]! / mass
    for (let i = 0; i < features; i++) grad[i]! -= share * mean[i]!
    x.at.forEach((i, n) => {
      grad[i]! += share * x.v[n]!
    })
    for (const [n, i] of x.at.entries()) {
      const row = i * features
      const pi = p[k]! * x.v[n]!
      x.at.forEach((j, m) => {
        hess[row + j]! += pi * x.v[m]!
      })
    }
  })
  xs.forEach((x, k) => {
    if (right[k]) return
    for (const [n, i] of x.at.entries()) {
      const row = i * features
      const pi = p[k]! * x.v[n]!
      x.at.forEach((j, m) => {
        hess[row + j]! += pi * x.v[m]!
      })
    }
  })
  for (let i = 0; i < features; i++) {
    const row = i * features
    for (let j = 0; j < features; j++) hess[row + j]! -= mean[i]! * mean[j]!
  }
}

/** Weights rounded to 6 decimals, as committed. */
export function fitChoice(choices: Choice[], features: number, options: FitOptions = {}): number[] {
  const l2 = options.l2 ?? 1
  const usable = choices
    .filter((c) => c.right.some(Boolean) && c.xs.length > 1)
    .map((c) => ({ xs: c.xs.map(sparse), right: c.right }))
  let w = new Array<number>(features).fill(0)
  for (let step = 0; step < (options.maxSteps ?? 100); step++) {
    const grad = w.map((v) => -l2 * v)
    const hess = new Float64Array(features * features)
    for (let i = 0; i < features; i++) hess[i * features + i] = l2
    for (const c of usable) accumulate(c.xs, c.right, w, grad, hess)
    const matrix = new Matrix(features, features)
    for (let i = 0; i < features; i++)
      for (let j = 0; j < features; j++) matrix.set(i, j, hess[i * features + j]!)
    const delta = solve(matrix, Matrix.columnVector(grad)).to1DArray()
    w = w.map((v, i) => v + delta[i]!)
    if (Math.max(...delta.map(Math.abs)) < 1e-10) break
  }
  return w.map((v) => Math.round(v * 1e6) / 1e6)
}

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

/** Weights rounded to 6 decimals, as committed. */
export function fitChoice(choices: Choice[], features: number, options: FitOptions = {}): number[] {
  const l2 = options.l2 ?? 1
  const usable = choices.filter((c) => c.right.some(Boolean) && c.xs.length > 1)
  let w = new Array<number>(features).fill(0)
  for (let step = 0; step < (options.maxSteps ?? 100); step++) {
    const grad = w.map((v) => -l2 * v)
    const hess = Matrix.eye(features, features).mul(l2)
    for (const c of usable) {
      const scores = c.xs.map((x) => x.reduce((s, v, i) => s + v * w[i]!, 0))
      const top = Math.max(...scores)
      const e = scores.map((s) => Math.exp(s - top))
      const sum = e.reduce((a, b) => a + b, 0)
      const p = e.map((v) => v / sum)
      const mean = new Array<number>(features).fill(0)
      c.xs.forEach((x, k) => {
        for (let i = 0; i < features; i++) mean[i]! += p[k]! * x[i]!
      })
      // The likelihood is that of landing on a right value, whichever of its places: each right
      // candidate pulls by its share of the right candidates' probability (EM's responsibilities).
      const mass = c.xs.reduce((s, _, k) => s + (c.right[k] ? p[k]! : 0), 0)
      c.xs.forEach((x, k) => {
        if (!c.right[k]) return
        for (let i = 0; i < features; i++) grad[i]! += (p[k]! / mass) * (x[i]! - mean[i]!)
      })
      c.xs.forEach((x, k) => {
        for (let i = 0; i < features; i++) {
          const di = x[i]! - mean[i]!
          if (di === 0) continue
          for (let j = 0; j < features; j++) hess.set(i, j, hess.get(i, j) + p[k]! * di * (x[j]! - mean[j]!))
        }
      })
    }
    const delta = solve(hess, Matrix.columnVector(grad)).to1DArray()
    w = w.map((v, i) => v + delta[i]!)
    if (Math.max(...delta.map(Math.abs)) < 1e-10) break
  }
  return w.map((v) => Math.round(v * 1e6) / 1e6)
}

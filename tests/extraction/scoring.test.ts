/**
 * The fitted scorers: the committed weights are what a refit on the committed page models gives;
 * the committed page models of text-layer documents are what the text stage reads today; the
 * fitting and the decision behave as documented.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readPages } from '../../server/services/extraction/index.ts'
import { fitChoice } from '../../server/services/extraction/scoring/fit.ts'
import { type Candidate, decide, probabilities } from '../../server/services/extraction/scoring/model.ts'
import { CORPORA, contentTypeOf } from './corpus.ts'
import { fitAll, loadTrainingDocs, WEIGHTS_FILE } from './training.ts'

const noOcr = {
  recognize: () => Promise.reject(new Error('a text-layer document needs no OCR')),
  close: async () => {},
}

describe('fitted scorers', () => {
  const docs = loadTrainingDocs()

  it('the committed weights are a refit of the committed page models (npm run fit:extract)', () => {
    const committed = JSON.parse(readFileSync(WEIGHTS_FILE, 'utf8'))
    expect(fitAll(docs)).toEqual(committed)
  })

  it('the committed page models of text-layer documents are what the text stage reads now', async () => {
    const textDocs = docs.filter(
      (d) => d.set !== 'novel' && d.file.endsWith('.pdf') && d.pages.every((p) => p.layout === undefined),
    )
    expect(textDocs.length).toBeGreaterThan(100)
    for (const d of textDocs) {
      const data = readFileSync(join(CORPORA[d.set as keyof typeof CORPORA], 'files', d.file))
      const reading = await readPages(new Uint8Array(data), contentTypeOf(d.file), noOcr)
      expect('pages' in reading && JSON.parse(JSON.stringify(reading.pages)), `${d.set}/${d.file}`).toEqual(
        d.pages,
      )
    }
  })

  it('fits the same weights twice and ranks the right candidate first', () => {
    // Feature 0 marks the right candidate, feature 1 is noise.
    const choices = Array.from({ length: 30 }, (_, i) => ({
      xs: [
        [1, (i * 7) % 3],
        [0, (i * 5) % 3],
        [0, (i * 11) % 3],
      ],
      right: [true, false, false],
    }))
    const w = fitChoice(choices, 2)
    expect(fitChoice(choices, 2)).toEqual(w)
    expect(w[0]).toBeGreaterThan(1)
    expect(Math.abs(w[1]!)).toBeLessThan(w[0]! / 4)
  })

  it('decides by value: two places of one value add up, alternatives are other values', () => {
    const at = (value: string, x: number[]): Candidate<string> => ({
      value,
      x,
      text: value,
      page: 1,
      box: [0, 0, 1, 1],
    })
    const model = { weights: [1] }
    const cands = [at('a', [1]), at('b', [1.5]), at('a', [1]), at('c', [0]), at('d', [-1]), at('e', [-2])]
    const p = probabilities(
      model,
      cands.map((c) => c.x),
    )
    const decision = decide(model, cands)!
    expect(decision.value).toBe('a')
    expect(decision.evidence.confidence).toBeCloseTo(p[0]! + p[2]!, 3)
    expect(decision.evidence.alternatives.map((a) => a.value)).toEqual(['b', 'c', 'd'])
    expect(decide(model, [])).toBeNull()
  })
})

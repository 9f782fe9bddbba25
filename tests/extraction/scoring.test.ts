/**
 * The fitted scorers: the committed weights are what a refit on the committed page models gives;
 * the committed page models of text-layer documents are what the text stage reads today; the
 * fitting and the decision behave as documented.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  addressCandidatesOf,
  extractFields,
  pageModel,
  totalsInputs,
} from '../../server/services/extraction/fields.ts'
import { decideVatId } from '../../server/services/extraction/identifiers.ts'
import { readPages } from '../../server/services/extraction/index.ts'
import type { PageText } from '../../server/services/extraction/pdf-text.ts'
import { ADDRESS_FEATURES } from '../../server/services/extraction/scoring/address.ts'
import {
  CURRENCY_FEATURES,
  currencyCandidates,
  decideCurrency,
} from '../../server/services/extraction/scoring/currency.ts'
import { fitChoice } from '../../server/services/extraction/scoring/fit.ts'
import { HAS_VAT_FEATURES, hasVatCandidates } from '../../server/services/extraction/scoring/has-vat.ts'
import { type Candidate, decide, probabilities } from '../../server/services/extraction/scoring/model.ts'
import {
  decideTotals,
  type Reading,
  readings,
  TOTALS_FEATURES,
  totalsPage,
} from '../../server/services/extraction/scoring/totals.ts'
import { CORPORA, contentTypeOf } from './corpus.ts'
import { fitAll, loadTrainingDocs, WEIGHTS_FILE } from './training.ts'

/**
 * An A4 page of one-segment rows `step` points apart from `y`, each line from `x0` to `x1`
 * (a line narrower than a till roll's width reads as a till); the segment as wide as the line
 * unless `segX1` says where its text ends.
 */
function rowsPage(
  rows: string[],
  at: { y: number; step: number; x0: number; x1: number; segX1?: (text: string) => number },
): PageText[] {
  const lines = rows.map((text, i) => ({
    page: 1,
    y: at.y + i * at.step,
    x0: at.x0,
    x1: at.x1,
    text,
    segments: [{ text, x0: at.x0, x1: at.segX1?.(text) ?? at.x1, size: 10 }],
  }))
  return [{ page: 1, width: 595, height: 842, lines }]
}

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

  describe('totals', () => {
    /** A page of rows, each a label and an amount at fixed places (points on an A4 page). */
    const page = (rows: [string, string][]): PageText[] => [
      {
        page: 1,
        width: 595,
        height: 842,
        lines: rows.map(([label, amount], i) => ({
          page: 1,
          y: 500 + i * 14,
          x0: 300,
          x1: 540,
          text: `${label}  ${amount}`,
          segments: [
            { text: label, x0: 300, x1: 420, size: 10 },
            { text: amount, x0: 480, x1: 540, size: 10 },
          ],
        })),
      },
    ]
    const inputs = (pages: PageText[]) => totalsInputs(pageModel(pages))
    /** The page's readings and a feature's measure on one of them. */
    const readingsOf = (pages: PageText[]) => {
      const { cands, hasVat } = inputs(pages)
      const p = totalsPage(cands, hasVat.value)
      return {
        rs: readings(p),
        measure: (name: string, r: Reading) => TOTALS_FEATURES[feature(name)]!.of(r, p),
      }
    }
    const feature = (name: string) => TOTALS_FEATURES.findIndex((f) => f.name === name)

    /** A French invoice's totals block: net, VAT, gross. */
    const invoice = () =>
      page([
        ['Total HT', '100.00'],
        ['TVA 20 %', '20.00'],
        ['Total TTC', '120.00'],
      ])

    it('reads the gross, net and VAT that add up, each with its place and confidence', () => {
      const pages = invoice()
      const { cands, hasVat, items } = inputs(pages)
      const { totals, evidence } = decideTotals(cands, hasVat.value, pages, undefined, items)
      expect([totals.incl, totals.excl, totals.vat]).toEqual([120, 100, 20])
      // The gross's box is its row (the third), to the right where its amount is printed.
      expect(evidence.incl!.box[1]).toBeCloseTo((500 + 2 * 14) / 842, 3)
      expect(evidence.incl!.box[0]).toBeGreaterThan(0.8)
      expect(evidence.excl!.box[1]).toBeLessThan(evidence.incl!.box[1])
      expect(evidence.incl!.confidence).toBeGreaterThan(0.5)
      for (const a of evidence.incl!.alternatives) expect(a.value).not.toBe(120)
    })

    it('measures the arithmetic of each reading, not only of the one chosen', () => {
      const pages = invoice()
      const { rs, measure } = readingsOf(pages)
      const addsUp = (incl: number, excl: number, vat: number) =>
        rs
          .filter((r) => r.gross && r.net && r.vat && r.incl === incl && r.excl === excl && r.vat_ === vat)
          .map((r) => measure('adds_up', r))
      expect(addsUp(120, 100, 20)).toEqual([1])
      // The gross and the VAT with the net left to work out: nothing to add up, but the worked-out
      // net (120 − 20) is printed on the page.
      const workedOut = rs.find((r) => r.incl === 120 && r.net === null && r.vat !== null)!
      expect(workedOut.excl).toBe(100)
      expect(measure('adds_up', workedOut)).toBe(0)
      expect(measure('worked_out_printed', workedOut)).toBe(1)
    })

    it('sees the payment less the change as what was paid, and a misread gross as no payment', () => {
      const pages = page([
        ['Total Amount:', '7734.00'],
        ['Cash Received:', '101.00'],
        ['Change:', '70.00'],
      ])
      const { rs, measure } = readingsOf(pages)
      const misread = rs.find((r) => r.incl === 7734)!
      expect(measure('gross_paid', misread)).toBe(0)
      const paid = rs.find((r) => r.incl === 31)!
      expect(measure('gross_paid', paid)).toBe(1)
      expect(measure('gross_from_payment', paid)).toBe(1)
    })
  })

  describe('currency', () => {
    const page = (rows: string[]) => rowsPage(rows, { y: 100, step: 14, x0: 60, x1: 540 })
    const decided = (rows: string[]) => {
      const pages = page(rows)
      const model = pageModel(pages)
      const { cands, hasVat, till, items } = totalsInputs(model)
      const { totals } = decideTotals(cands, hasVat.value, pages, undefined, items)
      const vat = decideVatId(model)
      const inputs = { totalLine: totals.inclLine, till, vat, iban: null }
      return { decision: decideCurrency(model, inputs), candidates: currencyCandidates(model, inputs) }
    }
    const measured = (c: Candidate<unknown>, name: string) =>
      c.x[CURRENCY_FEATURES.findIndex((f) => f.name === name)]

    it("reads the currency printed on the total's row, placed there", () => {
      const { decision, candidates } = decided([
        'Acme Ltd',
        'Subtotal 100.00',
        'VAT 20 % 20.00',
        'Total GBP 120.00',
      ])
      expect(decision?.value).toBe('GBP')
      expect(decision!.evidence.box[1]).toBeCloseTo((100 + 3 * 14) / 842, 3)
      const onTotal = candidates.find((c) => c.value === 'GBP')!
      expect(measured(onTotal, 'total_row')).toBe(1)
      expect(measured(onTotal, 'code')).toBe(1)
    })

    it("takes a page that prints no currency in its supplier's country, and sees that nothing was printed", () => {
      const { decision, candidates } = decided([
        'Muster GmbH',
        'USt-IdNr.: DE136695976',
        'Summe netto 100,00',
        'MwSt 19 % 19,00',
        'Gesamtbetrag 119,00',
      ])
      expect(decision?.value).toBe('EUR')
      const implied = candidates.find((c) => c.value === 'EUR' && measured(c, 'vat_country') === 1)!
      expect(measured(implied, 'nothing_printed')).toBe(1)
    })

    it('has no currency when the page shows none and no country', () => {
      const { decision } = decided(['Invoice 12', 'Total 120.00'])
      expect(decision).toBeNull()
    })

    it('reads a bare "$" as the dollar of the country the page names, USD without one', () => {
      const singapore = decided(['Kopi Pte Ltd', '1 Raffles Place, Singapore 048616', 'TOTAL $12.50'])
      expect(singapore.decision?.value).toBe('SGD')
      const printed = singapore.candidates.find((c) => c.value === 'SGD' && measured(c, 'bare_dollar') === 1)!
      expect(measured(printed, 'total_row')).toBe(1)
      expect(singapore.candidates.some((c) => c.value === 'USD')).toBe(false)
      expect(decided(['Harbour Cafe', 'TOTAL $12.50']).decision?.value).toBe('USD')
    })
  })

  describe('has_vat', () => {
    const lines = (rows: string[]) => rowsPage(rows, { y: 400, step: 14, x0: 300, x1: 540 })
    const charged = (rows: string[]) => totalsInputs(pageModel(lines(rows))).hasVat

    it('charges VAT when a VAT row prints an amount', () => {
      const d = charged(['Total HT 100,00', 'TVA 20 % 20,00', 'Total TTC 120,00'])
      expect(d.value).toBe(true)
      expect(d.evidence.confidence).toBeGreaterThan(0.5)
    })

    it('charges none under a "no VAT" mention, placed on it', () => {
      const d = charged(['Total 100,00', 'TVA non applicable, art. 293 B du CGI'])
      expect(d.value).toBe(false)
      expect(d.evidence.box[1]).toBeCloseTo((400 + 14) / 842, 3)
      const x = hasVatCandidates(pageModel(lines(['TVA non applicable, art. 293 B du CGI'])), [], false)
      expect(
        x.find((c) => c.value === true)!.x[HAS_VAT_FEATURES.findIndex((f) => f.name === 'no_vat_mention')],
      ).toBe(1)
    })
  })

  describe('business_address', () => {
    /** A letterhead: name, address lines, then a contact line and the items table. */
    const letterhead = (rows: string[]) =>
      rowsPage(rows, { y: 40, step: 12, x0: 40, x1: 300, segX1: (text) => 40 + text.length * 5 })
    const measured = (c: Candidate<unknown>, name: string) =>
      c.x[ADDRESS_FEATURES.findIndex((f) => f.name === name)]

    it('ends the address where the scorer finds it ends, and places it over its lines', () => {
      const pages = letterhead([
        'Atelier Nord SARL',
        '12 rue des Lilas',
        'Bâtiment B',
        '59000 Lille',
        'France',
        'Tél. 03 20 00 00 00',
      ])
      const fields = extractFields(pages)
      // (The country may be left off: it is no part of the address the truth compares.)
      expect(fields.business_address).toMatch(/^12 rue des Lilas, Bâtiment B, 59000 Lille(, France)?$/)
      const box = fields.evidence!.business_address!.box
      expect(box[1]).toBeCloseTo(52 / 842, 3)
      expect(box[3]).toBeGreaterThan((40 + 3 * 12) / 842)
    })

    it('measures each run: cut before its postcode, past it, ending on it', () => {
      const pages = letterhead(['Muster GmbH', 'Hauptstraße 1', '50667 Köln', 'Seite 1 von 1'])
      const runs = addressCandidatesOf(pages)
      const short = runs.find((c) => c.value === 'Hauptstraße 1')!
      expect(measured(short, 'cut_before_postcode')).toBe(1)
      const full = runs.find((c) => c.value === 'Hauptstraße 1, 50667 Köln')!
      expect(measured(full, 'ends_postcode')).toBe(1)
      const long = runs.find((c) => c.value === 'Hauptstraße 1, 50667 Köln, Seite 1 von 1')!
      expect(measured(long, 'past_postcode')).toBe(1)
      expect(extractFields(pages).business_address).toBe('Hauptstraße 1, 50667 Köln')
    })
  })
})

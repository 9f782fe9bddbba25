/**
 * The totals as one decision: every reading of the printed amounts as a gross, a net and a VAT
 * (each printed, worked out from the payment, or left to be worked out from the other two) is a
 * candidate; named features describe each part's label, place and repetition and how the three
 * agree (net + VAT = gross, a rounding row, a VAT no larger than a tax rate allows); the fitted
 * scorer weighs them. A reading's value is the three amounts it comes to once the missing one is
 * worked out, so readings that come to the same totals add up.
 */
import { hasLabel } from '../lexicon.ts'
import { findAmounts, round2 } from '../parse.ts'
import type { PageText } from '../pdf-text.ts'
import type { AmountCandidate, Totals } from '../totals.ts'
import {
  type Candidate,
  type Evidence,
  type Feature,
  flag,
  type Models,
  modelOf,
  type Place,
  probabilities,
} from './model.ts'
import { placeOf } from './place.ts'

/** One part of a reading: an amount taken as the gross, the net or the VAT. */
interface Part {
  value: number
  /** Where it is printed; null when worked out (the payment less the change, a sum of VAT rates). */
  at: AmountCandidate | null
  kind: 'label' | 'subtotal' | 'payment' | 'tendered' | 'rounded' | 'bare' | 'items' | 'rates' | 'none'
}

/** A reading of the page's totals: the parts chosen and what they come to. */
export interface Reading {
  gross: Part | null
  net: Part | null
  vat: Part | null
  incl: number | null
  excl: number | null
  vat_: number | null
}

/** What the features read besides the reading: the page's amounts and payment. */
export interface TotalsPage {
  cands: AmountCandidate[]
  /** A till's item rows summed, when its total rows were read without their amounts (receipt.ts). */
  items: number | null
  hasVat: boolean
  maxOrder: number
  /** Rows printing each amount (by value in cents). */
  printed: Map<number, number>
  /** What was paid less the change, when the page shows both. */
  implied: number | null
  /** The amount handed over when the page shows no change (a card, exact cash). */
  exact: number | null
  /** The amount handed over (tendered, card), when printed. */
  tendered: number | null
  /** Rounding rows printed after the tendered amount (they round what was paid). */
  payRoundings: AmountCandidate[]
  /**
   * Differences of two printed amounts (the tendered less the change, in cents) → the first row
   * of the later pair printing them.
   */
  differences: Map<number, number>
  /** Sums of a printed amount and a VAT printed on another row (± a rounding row), in cents. */
  sums: Set<number>
  /** The VAT rates the page's VAT rows print, in per cent. */
  rates: number[]
}

const findAmountsOf = (text: string) => findAmounts(text).map((a) => a.value)
const cents = (v: number) => Math.round(v * 100)
const near = (a: number, b: number, tol = 0.011) => Math.abs(a - b) <= tol
const printedAt = (p: TotalsPage, v: number) => p.printed.get(cents(v)) ?? 0

/** The gross equals what was paid less the change (with a rounding of the payment), or all that was paid. */
function paidFor(p: TotalsPage, v: number): boolean {
  if (p.exact !== null && near(v, p.exact)) return true
  const implied = p.implied
  if (implied === null) return false
  return near(v, implied) || p.payRoundings.some((r) => near(Math.abs(v - implied), Math.abs(r.value), 0.005))
}

/** Net + VAT − gross, when the reading prints all three. */
function gap(r: Reading): number | null {
  if (!r.gross || !r.net || !r.vat || r.vat.kind === 'none') return null
  return Math.abs(r.net.value + r.vat.value - r.gross.value)
}

/** A sub-total whose label does not say it is before tax (a sub-total saying so is a net like any other). */
const bareSubtotal = (text: string) => hasLabel('subtotal', text) && !hasLabel('before_tax', text)

type TotalsFeature = Feature<[r: Reading, page: TotalsPage]>

/** Rows printing the gross other than the one it was read from, up to 3. */
function elsewhere(r: Reading, p: TotalsPage): number {
  if (!r.gross || r.incl === null) return 0
  const own = r.gross.kind === 'label' || r.gross.kind === 'bare' || r.gross.kind === 'tendered' ? 1 : 0
  return Math.min(3, Math.max(0, printedAt(p, r.incl) - own))
}

/** No printed amount is larger than `v` but a tendered amount and its change (v + change = tendered). */
function largest(v: number, p: TotalsPage): boolean {
  const amounts = positive(p.cands).filter((c) => c.role !== 'paid' && c.role !== 'change')
  const values = new Set(amounts.map((c) => cents(c.value)))
  return !amounts.some(
    (c) =>
      c.value > v + 0.005 &&
      !values.has(cents(c.value - v)) &&
      !amounts.some((a) => near(a.value, v + c.value, 0.005)),
  )
}

const labelled = (part: Part | null) => (part?.kind === 'label' ? part.at : null)

/** The totals' features, each a small named measure; their weights are in weights.json. */
export const TOTALS_FEATURES: readonly TotalsFeature[] = [
  {
    name: 'gross_rank',
    doc: 'how specific the gross\'s label is (lexicon order: "Total TTC" above "Total")',
    of: (r) => labelled(r.gross)?.rank ?? 0,
  },
  flag(
    'gross_loose',
    'words follow the gross\'s label ("Total 3 articles")',
    (r) => !!labelled(r.gross)?.loose,
  ),
  flag('gross_busy', 'the gross is labelled on a row of several amounts', (r) => !!labelled(r.gross)?.busy),
  flag(
    'gross_header',
    "the gross is read under a totals table's column header",
    (r) => labelled(r.gross)?.via === 'header',
  ),
  flag('gross_tax_summary', "the gross's row is in a tax summary", (r) =>
    hasLabel('tax_summary', labelled(r.gross)?.text ?? ''),
  ),
  {
    name: 'gross_late',
    doc: 'how far down the document the gross is printed (totals close a document)',
    of: (r, p) => (r.gross?.at ? r.gross.at.order / p.maxOrder : 0),
  },
  {
    name: 'gross_printed_elsewhere',
    doc: 'how many other rows print the gross (payment, tax summary), up to 3',
    of: (r, p) => elsewhere(r, p) / 3,
  },
  flag(
    'bare_repeated',
    'the gross is an unlabelled amount that other rows print too',
    (r, p) => r.gross?.kind === 'bare' && elsewhere(r, p) > 0,
  ),
  flag(
    'gross_largest',
    'the gross is printed and no amount on the page is larger but the payment (the gross + the change printed)',
    (r, p) => r.incl !== null && r.gross?.at != null && largest(r.incl, p),
  ),
  flag(
    'gross_paid',
    'the gross is what was paid less the change, or all that was paid (not the tendered amount read as the gross)',
    (r, p) => !!r.gross && r.gross.kind !== 'tendered' && paidFor(p, r.gross.value),
  ),
  flag('cash_arithmetic', 'two amounts printed after the gross differ by it (tendered − change)', (r, p) => {
    if (r.incl === null || r.incl <= 0) return false
    const after = p.differences.get(cents(r.incl))
    return after !== undefined && (!r.gross?.at || r.gross.at.order < after)
  }),
  flag(
    'sum_confirms',
    'an amount and a VAT printed on other rows add up to the gross',
    (r, p) => r.incl !== null && r.incl > 0 && p.sums.has(cents(r.incl)),
  ),
  flag(
    'rounding_after',
    'a non-zero rounding row is printed after the gross (a total before its rounding)',
    (r, p) => {
      const at = r.gross?.at
      return (
        !!at &&
        r.gross?.kind !== 'rounded' &&
        p.cands.some((c) => c.role === 'rounding' && c.value !== 0 && c.order > at.order)
      )
    },
  ),
  flag(
    'gross_item_sum',
    "the gross is the sum of a till's item rows (its total rows read without amounts)",
    (r, p) => r.incl !== null && p.items !== null && near(r.incl, p.items),
  ),
  flag('row_adds_up', "two other amounts on the gross's row add up to it (net | VAT | gross)", (r) => {
    const at = r.gross?.at
    if (!at || r.gross?.kind === 'rounded') return false
    const row = findAmountsOf(at.line.text).filter((v) => !near(v, at.value, 0.005))
    return row.some((a, i) => row.some((b, j) => j > i && near(a + b, at.value)))
  }),
  flag(
    'gross_from_payment',
    'the gross is printed nowhere: worked out from the payment',
    (r) => r.gross?.kind === 'payment',
  ),
  flag('gross_tendered', 'the gross is the amount handed over', (r) => r.gross?.kind === 'tendered'),
  flag(
    'gross_rounded',
    'the gross is a labelled total rounded by a rounding row after it',
    (r) => r.gross?.kind === 'rounded',
  ),
  flag('gross_bare', 'the gross is an amount printed without a label', (r) => r.gross?.kind === 'bare'),
  flag('gross_negative', 'the gross is negative (a deduction, a credit note)', (r) => (r.incl ?? 0) < 0),
  flag('gross_none', 'no gross is printed: net + VAT', (r) => r.gross === null),
  {
    name: 'net_rank',
    doc: "how specific the net's label is",
    of: (r) => labelled(r.net)?.rank ?? 0,
  },
  flag('net_loose', "words follow the net's label", (r) => !!labelled(r.net)?.loose),
  flag(
    'net_summary',
    "the net is a tax summary's total row (its amount before tax)",
    (r) => labelled(r.net)?.via === 'summary',
  ),
  flag('net_subtotal', 'the net is a sub-total whose label does not say it is before tax', (r) => {
    const at = labelled(r.net)
    return !!at && bareSubtotal(at.text)
  }),
  flag(
    'net_is_gross',
    'the printed net is the gross printed again while VAT is charged',
    (r) => !!r.net && !!r.gross && near(r.net.value, r.gross.value, 0.005) && (r.vat_ ?? 0) !== 0,
  ),
  flag('net_none', 'no net is printed: gross − VAT', (r) => r.net === null),
  {
    name: 'vat_rank',
    doc: "how specific the VAT's label is",
    of: (r) => labelled(r.vat)?.rank ?? 0,
  },
  flag(
    'vat_phrase',
    'the VAT is labelled by a phrase saying it is contained ("of which VAT")',
    (r) => labelled(r.vat)?.via === 'phrase',
  ),
  flag('vat_rates', 'the VAT is the sum of the per-rate VAT lines', (r) => r.vat?.kind === 'rates'),
  flag('vat_none', 'no VAT is printed: gross − net', (r, p) => r.vat === null && p.hasVat),
  flag('adds_up', 'net + VAT = gross, all three printed', (r) => (gap(r) ?? 1) <= 0.011),
  flag('adds_up_nearly', 'net + VAT is within 5 cents of the gross', (r) => {
    const g = gap(r)
    return g !== null && g > 0.011 && g <= 0.05
  }),
  flag('off_by_rounding', 'net + VAT differs from the gross by a printed rounding row', (r, p) => {
    const g = gap(r)
    return (
      g !== null &&
      g > 0.011 &&
      p.cands.some((c) => c.role === 'rounding' && c.value !== 0 && near(Math.abs(c.value), g, 0.005))
    )
  }),
  flag('mismatch', 'net + VAT and the gross disagree by more than 5 cents', (r) => (gap(r) ?? 0) > 0.05),
  flag('worked_out_printed', 'the amount worked out from the other two is printed on the page', (r, p) => {
    const derived = r.gross === null ? r.incl : r.net === null ? r.excl : r.vat === null ? r.vat_ : null
    return derived !== null && derived !== 0 && printedAt(p, derived) > 0
  }),
  flag(
    'gross_below_net',
    'the gross is smaller than the net',
    (r) => r.incl !== null && r.excl !== null && Math.abs(r.incl) + 0.005 < Math.abs(r.excl),
  ),
  flag(
    'vat_over_rate',
    'the VAT is more than 30 % of the gross, more than any VAT rate',
    (r) => r.incl !== null && r.vat_ !== null && r.incl > 0 && r.vat_ > 0.3 * r.incl + 0.005,
  ),
  flag(
    'vat_negative',
    'the VAT is negative while the gross is not',
    (r) => (r.vat_ ?? 0) < 0 && (r.incl ?? 0) > 0,
  ),
]

/** Amounts of one role, one per value (its most specific, latest row), the strongest first. */
function byValue(cands: AmountCandidate[], keep: number): AmountCandidate[] {
  const best = new Map<number, AmountCandidate>()
  for (const c of cands) {
    const k = cents(c.value)
    const seen = best.get(k)
    if (!seen || c.strength > seen.strength || (c.strength === seen.strength && c.order > seen.order))
      best.set(k, c)
  }
  return [...best.values()].sort((a, b) => b.strength - a.strength || b.order - a.order).slice(0, keep)
}

const positive = (cands: AmountCandidate[]) => cands.filter((c) => c.value > 0 && c.role !== 'rounding')

function differences(cands: AmountCandidate[]): Map<number, number> {
  const out = new Map<number, number>()
  const amounts = positive(cands)
  for (const a of amounts)
    for (const b of amounts) {
      if (b.value >= a.value || b.order === a.order) continue
      const k = cents(a.value - b.value)
      out.set(k, Math.max(out.get(k) ?? -1, Math.min(a.order, b.order)))
    }
  return out
}

function sums(cands: AmountCandidate[]): Set<number> {
  const out = new Set<number>()
  const steps = [
    0,
    ...cands.filter((c) => c.role === 'rounding' && c.value !== 0).map((c) => Math.abs(c.value)),
  ]
  const taxes = cands.filter((c) => c.role === 'vat' && c.value > 0)
  for (const net of positive(cands).filter((c) => c.role === 'excl' || c.role === 'incl' || c.role === 'any'))
    for (const tax of taxes)
      if (tax.line !== net.line)
        for (const r of steps)
          for (const v of [net.value + tax.value + r, net.value + tax.value - r]) out.add(cents(v))
  return out
}

/** The page's amounts and payment, as the features read them. */
export function totalsPage(
  cands: AmountCandidate[],
  hasVat: boolean,
  items: number | null = null,
): TotalsPage {
  const printed = new Map<number, number>()
  for (const c of cands)
    if (c.role !== 'change' && c.role !== 'rounding')
      printed.set(cents(c.value), (printed.get(cents(c.value)) ?? 0) + 1)
  const last = (role: AmountCandidate['role']) => cands.filter((c) => c.role === role).pop()
  const paid = last('paid')
  const change = last('change')
  // (A minus sign before the tendered amount is OCR's reading of a dash: "CASH -51.00".)
  const handed = paid ? Math.abs(paid.value) : null
  let implied = handed !== null && change && handed > change.value ? round2(handed - change.value) : null
  // Change given but the tendered amount's label unread: two printed amounts that differ by it.
  if (implied === null && change && change.value > 0) {
    const values = [
      ...new Set(
        cands.filter((c) => c.role !== 'change' && c.role !== 'rounding' && c.value > 0).map((c) => c.value),
      ),
    ]
    const pairs = values.filter((v) => values.some((w) => near(w - v, change.value, 0.005)))
    if (pairs.length > 0) implied = Math.max(...pairs)
  }
  // Paid by card, or exact cash: what was handed over is what the document cost.
  const exact = !change && handed ? handed : null
  const payRoundings =
    paid && implied !== null
      ? cands.filter(
          (c) => c.role === 'rounding' && c.order > paid.order && c.value !== 0 && Math.abs(c.value) <= 0.05,
        )
      : []
  return {
    cands,
    items,
    hasVat,
    differences: differences(cands),
    sums: sums(cands),
    rates: [...new Set(cands.flatMap((c) => (c.rate ? [Number(c.rate)] : [])))].filter(
      (r) => r > 0 && r < 30,
    ),
    maxOrder: Math.max(1, ...cands.map((c) => c.order)),
    printed,
    implied,
    exact,
    tendered: handed,
    payRoundings,
  }
}

/** How many candidates of each part a reading is made from (the strongest of each role). */
const KEEP = { gross: 5, net: 3, vat: 3, bare: 6, rounded: 2 }

/** The gross's options: labelled totals, their rounded amounts, the payment, bare amounts. */
function grossParts(page: TotalsPage): Part[] {
  const { cands, implied } = page
  // A negative labelled amount beside positive ones is a deduction or a tax summary's row, not
  // what the document cost (a credit note's totals are all negative).
  const labelledTotals = cands.filter((c) => c.role === 'incl' && c.rate === null && c.value !== 0)
  const anyPositive = labelledTotals.some((c) => c.value > 0)
  const labels = byValue(
    labelledTotals.filter((c) => c.value > 0 || !anyPositive),
    KEEP.gross,
  )
  const parts: Part[] = labels.map((at) => ({ value: at.value, at, kind: 'label' }))
  const has = (v: number) => parts.some((p) => near(p.value, v, 0.005))
  // A till rounds its total to 5 cents after printing it: the rounded amount the page prints
  // after the rounding row (or pays) is the total.
  for (const at of labels.slice(0, KEEP.rounded))
    for (const r of cands.filter((c) => c.role === 'rounding' && c.order >= at.order)) {
      const step = Math.abs(r.value)
      if (step === 0 || step > 0.05) continue
      for (const v of [round2(at.value + step), round2(at.value - step)])
        if (
          !has(v) &&
          ((implied !== null && near(implied, v, 0.005) && !page.payRoundings.includes(r)) ||
            cands.some(
              (c) =>
                c.role !== 'rounding' && c.role !== 'change' && c.order > r.order && near(c.value, v, 0.005),
            ))
        )
          parts.push({ value: v, at, kind: 'rounded' })
    }
  // A sub-total often already includes the tax (a till's sum before its adjustments).
  for (const at of byValue(
    cands.filter((c) => c.role === 'excl' && c.value > 0 && bareSubtotal(c.text) && !has(c.value)),
    KEEP.rounded,
  ))
    parts.push({ value: at.value, at, kind: 'subtotal' })
  if (implied !== null && !has(implied)) parts.push({ value: implied, at: null, kind: 'payment' })
  if (page.items !== null && !has(page.items)) parts.push({ value: page.items, at: null, kind: 'items' })
  const tendered = cands.filter((c) => c.role === 'paid').pop()
  // (A minus sign before it is OCR's reading of a dash: "CASH RM - 6.00".)
  if (tendered && tendered.value !== 0 && !has(Math.abs(tendered.value)))
    parts.push({ value: Math.abs(tendered.value), at: tendered, kind: 'tendered' })
  // Unlabelled amounts: those printed most often, the later first.
  const bare = byValue(
    cands.filter((c) => c.role === 'any' && c.value > 0 && !has(c.value)),
    Number.POSITIVE_INFINITY,
  ).sort((a, b) => printedAt(page, b.value) - printedAt(page, a.value) || b.order - a.order)
  for (const at of bare.slice(0, KEEP.bare)) parts.push({ value: at.value, at, kind: 'bare' })
  return parts
}

function vatParts(page: TotalsPage): (Part | null)[] {
  if (!page.hasVat) return [{ value: 0, at: null, kind: 'none' }]
  const parts: (Part | null)[] = byValue(
    page.cands.filter((c) => c.role === 'vat' && c.rate === null),
    KEEP.vat,
  ).map((at) => ({ value: at.value, at, kind: 'label' }))
  // Several VAT rates: the sum of each rate's last line.
  const byRate = new Map<string, AmountCandidate>()
  for (const c of page.cands) if (c.role === 'vat' && c.rate !== null) byRate.set(c.rate, c)
  if (byRate.size > 0) {
    const lines = [...byRate.values()]
    const at = lines.sort((a, b) => b.strength - a.strength)[0]!
    parts.push({ value: round2(lines.reduce((a, c) => a + c.value, 0)), at, kind: 'rates' })
  }
  return [...parts, null]
}

/** Every reading of the page's totals (those that come to at least a gross). */
export function readings(page: TotalsPage): Reading[] {
  const gross: (Part | null)[] = [...grossParts(page), null]
  const net: (Part | null)[] = [
    // (A base of one VAT rate is no net: the net is then the gross less the rates' VAT.)
    ...byValue(
      page.cands.filter((c) => c.role === 'excl' && c.rate === null),
      KEEP.net,
    ).map((at): Part => ({ value: at.value, at, kind: 'label' })),
    null,
  ]
  const vat = vatParts(page)
  const out: Reading[] = []
  for (const g of gross)
    for (const n of net) {
      // One printed amount is never both the net and the gross.
      if (g?.at && n?.at && g.at.order === n.at.order && g.value === n.value) continue
      for (const v of vat) {
        const r = complete(g, n, v, page.hasVat)
        if (r.incl !== null && !notTheNet(r, page)) out.push(r)
      }
    }
  return out
}

/**
 * A sub-total is the sum before what a till adds (service charge, rounding, discount) and often
 * already includes the tax (where no VAT is charged, it is the net); printed again as the gross while VAT is charged, it is the gross. So
 * a sub-total (a label that does not say "before tax") or the gross printed again is a net only
 * when it adds up with the VAT to the gross; otherwise the net is booked as gross − VAT (the
 * reading without a printed net). A net labelled as such is kept even when it does not add up:
 * that is a quality error the document is flagged for.
 */
function notTheNet(r: Reading, page: TotalsPage): boolean {
  const at = r.net?.at
  if (!at) return false
  // The gross printed again (labelled as a total) while the page prints a VAT charged.
  const asGross = (v: number) =>
    near(v, r.gross?.value ?? Number.NaN, 0.005) ||
    page.cands.some((c) => c.role === 'incl' && c.order !== at.order && near(c.value, v, 0.005))
  if (asGross(at.value) && page.cands.some((c) => c.role === 'vat' && c.value > 0)) return true
  const g = gap(r)
  return (
    page.hasVat &&
    bareSubtotal(at.text) &&
    (g === null || g > 0.011) &&
    !atRate(at.value, r.vat_, page) &&
    !sumOfBases(at.value, page)
  )
}

/**
 * Whether `net` is the sum of the bases a rate table prints (each rate's last), to the cent; or of
 * the bases its VAT lines of two rates or more were worked out on ("VAT @ 20% 3,267.42", "VAT @
 * 5% 149.63": 16,337.10 + 2,992.60), to the rounding of each line.
 */
function sumOfBases(net: number, page: TotalsPage): boolean {
  const bases = new Map<string, number>()
  const taxes = new Map<string, number>()
  for (const c of page.cands) {
    if (c.rate === null || !(Number(c.rate) > 0)) continue
    if (c.role === 'excl') bases.set(c.rate, c.value)
    if (c.role === 'vat') taxes.set(c.rate, c.value)
  }
  const sum = (values: Iterable<number>) => [...values].reduce((a, v) => a + v, 0)
  if (bases.size > 0 && near(sum(bases.values()), net, 0.011)) return true
  if (taxes.size < 2) return false
  const worked = sum([...taxes].map(([rate, vat]) => (vat * 100) / Number(rate)))
  return near(worked, net, sum([...taxes.keys()].map((rate) => 0.5 / Number(rate))) + 0.011)
}

/** Whether `vat` is `net` at one of the page's printed VAT rates, to the cent: the VAT was worked out on it. */
function atRate(net: number | null, vat: number | null, page: TotalsPage): boolean {
  if (net === null || vat === null || vat === 0) return false
  return page.rates.some((rate) => near((net * rate) / 100, vat, 0.011))
}

/** The three amounts a reading comes to: the missing one worked out from the other two. */
function complete(gross: Part | null, net: Part | null, vat: Part | null, hasVat: boolean): Reading {
  let incl = gross?.value ?? null
  let excl = net?.value ?? null
  let v = vat?.value ?? null
  if (!hasVat) {
    v = 0
    excl ??= incl
    incl ??= excl
  }
  if (v === null && incl !== null && excl !== null) v = round2(incl - excl)
  if (excl === null && incl !== null && v !== null) excl = round2(incl - v)
  if (incl === null && excl !== null && v !== null) incl = round2(excl + v)
  return { gross, net, vat, incl, excl, vat_: v }
}

const keyOf = (r: Pick<Reading, 'incl' | 'excl' | 'vat_'>) => `${r.incl}|${r.excl}|${r.vat_}`

/** A reading's totals as the key its candidate carries: `incl|excl|vat` ("null" for none). */
export function totalsKey(t: { incl: number | null; excl: number | null; vat: number | null }): string {
  return keyOf({ incl: t.incl, excl: t.excl, vat_: t.vat })
}

const NOWHERE: Place = { page: 1, box: [0, 0, 0, 0] }

/** The readings as scorer candidates (the training data's view). */
export function totalsCandidates(page: TotalsPage, pages: PageText[]): Candidate<string>[] {
  return readings(page).map((r) => ({
    ...(r.gross?.at ? placeOf(pages, r.gross.at.line, r.gross.at.seg) : NOWHERE),
    value: keyOf(r),
    text: r.gross?.at?.text ?? '',
    x: TOTALS_FEATURES.map((f) => f.of(r, page)),
  }))
}

export interface TotalsDecision {
  totals: Totals
  evidence: Partial<Record<'incl' | 'excl' | 'vat', Evidence<number>>>
}

const round3 = (n: number) => Math.round(n * 1000) / 1000

/**
 * Where each of the three amounts was read and how sure the engine is: its value's probability
 * over all readings, its printed place, and the other values with theirs (only amounts printed
 * on the page have a place; a worked-out amount has no evidence).
 */
function evidenceOf(
  rs: Reading[],
  p: number[],
  chosen: Reading,
  pages: PageText[],
  part: 'gross' | 'net' | 'vat',
  value: (r: Reading) => number | null,
): Evidence<number> | undefined {
  const mass = new Map<number | null, { p: number; at: Reading }>()
  rs.forEach((r, i) => {
    const v = value(r)
    const entry = mass.get(v)
    if (!entry) mass.set(v, { p: p[i]!, at: r })
    else {
      entry.p += p[i]!
      if (r[part]?.at && !entry.at[part]?.at) entry.at = r
    }
  })
  const at = chosen[part]?.at
  if (!at || chosen[part]?.kind === 'rates') return undefined
  const placeOfPart = (r: Reading) => {
    const a = r[part]?.at
    return a ? placeOf(pages, a.line, a.seg) : null
  }
  const alternatives = [...mass]
    .filter(([v]) => v !== null && v !== value(chosen))
    .sort((a, b) => b[1].p - a[1].p)
    .flatMap(([v, e]) => {
      const place = placeOfPart(e.at)
      return place && v !== null ? [{ value: v, ...place, confidence: round3(e.p) }] : []
    })
    .slice(0, 3)
  return {
    ...placeOf(pages, at.line, at.seg),
    confidence: round3(mass.get(value(chosen))?.p ?? 0),
    alternatives,
  }
}

/**
 * The amounts as booked: a rounding row, or a charge outside the scope of VAT printed after the
 * net (a tourist tax), that the net, the VAT and the gross differ by is booked with the net, so
 * that the three add up (the amount before tax includes what no VAT is charged on).
 */
function booked(
  r: Reading,
  page: TotalsPage,
): { incl: number | null; excl: number | null; vat: number | null } {
  const g = gap(r)
  const rounding =
    g !== null &&
    g > 0.011 &&
    page.cands.some(
      (c) =>
        (c.role === 'rounding' && c.value !== 0 && near(Math.abs(c.value), g, 0.005)) ||
        (c.role === 'outside' &&
          c.value > 0 &&
          near(c.value, r.gross!.value - r.net!.value - r.vat!.value, 0.005)),
    )
  return {
    incl: r.incl,
    excl: rounding && r.incl !== null && r.vat_ !== null ? round2(r.incl - r.vat_) : r.excl,
    vat: r.vat_,
  }
}

/** The gross, net and VAT that the fitted scorer finds most probable together. */
export function decideTotals(
  cands: AmountCandidate[],
  hasVat: boolean,
  pages: PageText[],
  models?: Models,
  items: number | null = null,
): TotalsDecision {
  const page = totalsPage(cands, hasVat, items)
  const rs = readings(page)
  if (rs.length === 0)
    return { totals: { incl: null, excl: null, vat: hasVat ? null : 0, inclLine: null }, evidence: {} }
  const p = probabilities(
    modelOf('totals', TOTALS_FEATURES, models),
    rs.map((r) => TOTALS_FEATURES.map((f) => f.of(r, page))),
  )
  const mass = new Map<string, { p: number; best: number }>()
  rs.forEach((r, i) => {
    const k = keyOf(r)
    const e = mass.get(k)
    if (!e) mass.set(k, { p: p[i]!, best: i })
    else {
      e.p += p[i]!
      if (p[i]! > p[e.best]!) e.best = i
    }
  })
  const top = [...mass.values()].sort((a, b) => b.p - a.p || a.best - b.best)[0]!
  const chosen = rs[top.best]!
  const evidence = {
    incl: evidenceOf(rs, p, chosen, pages, 'gross', (r) => r.incl),
    excl: evidenceOf(rs, p, chosen, pages, 'net', (r) => r.excl),
    vat: evidenceOf(rs, p, chosen, pages, 'vat', (r) => r.vat_),
  }
  const inclLine = chosen.gross?.at?.line ?? cands.filter((c) => c.role === 'paid').pop()?.line ?? null
  return {
    totals: { ...booked(chosen, page), inclLine },
    evidence: Object.fromEntries(Object.entries(evidence).filter(([, e]) => e !== undefined)),
  }
}

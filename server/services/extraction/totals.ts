/**
 * Totals as candidates, then one decision. Every amount printed on the page is a candidate; its
 * evidence is the label left of it on its row (same segment or an earlier one), or, in a totals
 * table laid out with its labels in one row and values in the next, its column header. Labels
 * come from the lexicon. The decision then takes the gross, net and VAT that score best
 * together, net + VAT = gross (several VAT rates summed, rounding) counting as evidence.
 */
import { hasLabel, isLabel, type LabelField, labelAt, labelRank } from './lexicon.ts'
import { findAmounts, round2 } from './parse.ts'
import type { Line, Segment } from './pdf-text.ts'

type Role = 'incl' | 'excl' | 'vat' | 'paid' | 'change' | 'rounding' | 'any'
const ROLE_FIELD: Record<Role, LabelField> = {
  incl: 'total_incl',
  excl: 'total_excl',
  vat: 'vat_total',
  paid: 'tendered',
  change: 'change',
  rounding: 'rounding',
  any: 'total_incl',
}

export interface AmountCandidate {
  value: number
  line: Line
  seg: Segment
  /** Index of the line in reading order. */
  order: number
  role: Role
  /** Label strength 0..1: the lexicon lists labels from specific to generic. */
  strength: number
  /** A VAT line of one rate (`VAT 19 %`, `dont TVA 10 %`): summed with the other rates. */
  rate: string | null
  /** The row's text (currency detection). */
  text: string
}

/** A currency printed before an amount is no label. */
const CURRENCY_WORD = /\b(EUR|USD|GBP|CHF|MYR|RM|SGD|Fr)\b\.?|[€$£]/g

const RATE = /(\d{1,2}(?:[.,]\d{1,2})?)\s*%/

/**
 * A row's label for the amount at `index` of segment `si`: the text left of it in its segment,
 * else the nearest segment with words to its left (with the one before it when they sit close
 * together: a label printed in two pieces, "Total" | "TTC").
 */
function leftLabel(line: Line, si: number, index: number): string | null {
  const own = line.segments[si]!.text.slice(0, index).trim()
  if (/\p{L}{2,}/u.test(own.replace(CURRENCY_WORD, ''))) return own
  for (let i = si - 1; i >= 0; i--) {
    const seg = line.segments[i]!
    if (!/\p{L}{2,}/u.test(seg.text.replace(CURRENCY_WORD, ''))) continue
    const before = line.segments[i - 1]
    if (
      before &&
      seg.x0 - before.x1 < seg.size * 2.5 &&
      /\p{L}{2,}/u.test(before.text) &&
      seg.text.length <= 6
    )
      return `${before.text} ${seg.text}`
    return seg.text.trim()
  }
  return null
}

/** The roles a label gives, with strength; a `not_total` label gives none. */
function rolesOf(label: string): { role: Role; strength: number; rate: string | null }[] {
  // "19 % MwSt.", "TVA 20 %", "dont TVA 10 %": the rate is not part of the label's words.
  const rate = label.match(RATE)?.[1]?.replace(',', '.') ?? null
  const clean = label
    .replace(/^(dont|davon|incl\.?|inkl\.?|including)\s+/i, '')
    .replace(/^\(?\d{1,2}(?:[.,]\d{1,2})?\s*%\)?\s*/, '')
    // A till prints the number of items before the label ("8 SUB TOTAL").
    .replace(/^\d{1,3}\s+(?=\p{L}{2})/u, '')
    .trim()
  // What was handed over and given back is no total, but tells it: paid − change.
  for (const role of ['rounding', 'change', 'paid'] as Role[])
    if (labelAt(ROLE_FIELD[role], clean)) return [{ role, strength: 1, rate: null }]
  // "Balance" is no total, "Balance due" is: the longer label decides.
  const not = labelAt('not_total', clean)
  const longest = Math.max(
    ...(['incl', 'excl', 'vat'] as Role[]).map((r) => labelAt(ROLE_FIELD[r], clean)?.label.length ?? 0),
  )
  if (not && not.label.length >= longest) return []
  const out: { role: Role; strength: number; rate: string | null }[] = []
  // "in diesem Beitrag enthaltene Versicherungsteuer", "of which VAT": a phrase ending on a VAT
  // label, saying the tax is contained in another amount, labels the VAT.
  const words = clean.split(/\s+/)
  if (
    !labelAt('vat_total', clean) &&
    !labelAt('total_incl', clean) &&
    !labelAt('total_excl', clean) &&
    hasLabel('vat_included', clean)
  )
    for (let i = 1; i < words.length; i++) {
      const tail = words.slice(i).join(' ').replace(RATE, '').trim()
      if (isLabel('vat_total', tail)) {
        out.push({ role: 'vat', strength: 0.5, rate })
        return out
      }
    }
  for (const role of ['incl', 'excl', 'vat'] as Role[]) {
    const m = labelAt(ROLE_FIELD[role], clean)
    if (!m) continue
    // "Total 3 articles", "Total HT (20 %) base": words after the label that are not a currency,
    // a rate or a parenthesis weaken it.
    const tail = m.rest.replace(/\(.*?\)|\b[A-Z]{3}\b|[€$£%]|\d+([.,]\d+)?|RM/g, '').trim()
    const strength = Math.max(0.3, labelRank(ROLE_FIELD[role], m.label)) * (tail.length > 12 ? 0.5 : 1)
    out.push({ role, strength, rate: role === 'vat' ? rate : null })
  }
  return out
}

const r0 = (roles: { role: Role }[]) => roles.some((r) => r.role === 'incl')

/** Rows holding only total labels (a totals table's header): column → role. */
function headerRoles(
  line: Line,
): { seg: Segment; role: Role; strength: number; rate: string | null }[] | null {
  if (findAmounts(line.text).length > 0) return null
  // An item table's header ("Qty | Description | Unit price | Total RM") names item columns.
  if (hasLabel('item_column', line.text)) return null
  const cols: { seg: Segment; role: Role; strength: number; rate: string | null }[] = []
  for (const seg of line.segments) {
    const roles = rolesOf(seg.text.replace(/\b(EUR|USD|GBP|CHF)\b|[€$£]/g, '').trim())
    if (roles.length === 0) continue
    const best = roles.sort((a, b) => b.strength - a.strength)[0]!
    // A VAT column of one rate ("VAT 20 %" | "VAT 5 %") is summed with the other rates.
    cols.push({ seg, role: best.role, strength: best.strength, rate: best.rate })
  }
  // A totals table's header is mostly total labels ("Netto | MwSt. | Brutto"); an item table's
  // ("Description | Qty | Unit price | VAT | Net amount") is not.
  const others = line.segments.length - 1 - cols.length
  return new Set(cols.map((c) => c.role)).size >= 2 && cols.length > others ? cols : null
}

export function amountCandidates(
  lines: Line[],
  skip: (s: Segment) => boolean,
  till = false,
): AmountCandidate[] {
  const out: AmountCandidate[] = []
  let header: { cols: NonNullable<ReturnType<typeof headerRoles>>; line: Line; rows: number } | null = null
  let summary: { line: Line; li: number } | null = null
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li]!
    const h = headerRoles(line)
    if (h) {
      header = { cols: h, line, rows: 0 }
      continue
    }
    if (header && (header.line.page !== line.page || header.rows >= 3)) header = null
    let sawAmount = false
    for (let si = 0; si < line.segments.length; si++) {
      const seg = line.segments[si]!
      if (skip(seg)) continue
      for (const a of findAmounts(seg.text)) {
        sawAmount = true
        const label = leftLabel(line, si, a.index)
        const roles = label ? rolesOf(label) : []
        // Only the last amount of a labelled row is its value (base | VAT, quantity | price | total).
        const lastOnRow =
          si === line.segments.length - 1 ||
          line.segments.slice(si + 1).every((s) => findAmounts(s.text).length === 0)
        const lastInSeg = findAmounts(seg.text.slice(a.index + a.text.length)).length === 0
        const text = line.text
        if (roles.length > 0 && lastOnRow && lastInSeg) {
          // A total on a row of several amounts (a tax summary's "Total 106.10 6.47") is weaker.
          const several = findAmounts(line.text).length > 1 && r0(roles)
          for (const r of roles)
            out.push({
              value: a.value,
              line,
              seg,
              order: li,
              ...r,
              strength: r.strength * (several ? 0.6 : 1),
              text,
            })
        } else if (!label || labelAt('not_total', label) === null)
          out.push({ value: a.value, line, seg, order: li, role: 'any', strength: 0, rate: null, text })
        if (header) {
          const col = header.cols.find((c) => seg.x0 <= c.seg.x1 + 8 && c.seg.x0 <= seg.x1 + 8)
          if (col)
            out.push({
              value: a.value,
              line,
              seg,
              order: li,
              role: col.role,
              strength: col.strength,
              rate: col.rate,
              text,
            })
        }
      }
    }
    if (header && sawAmount) header.rows++
    if (summary && (summary.line.page !== line.page || li - summary.li > SUMMARY_ROWS)) summary = null
    if (summary) summaryTotal(out, line, li, skip, till)
    if (hasLabel('tax_summary', line.text) && findAmounts(line.text).length === 0) summary = { line, li }
  }
  return out
}

/** How many rows under its header a tax summary runs. */
const SUMMARY_ROWS = 8

/**
 * A tax summary's total row ("GST Summary | Amount | Tax" over "TOTAL 73.87 4.43"): its columns
 * are the amount before tax and the tax, so a bare "Total" there labels the net (and the tax
 * after it), never the gross. A row of three amounts (net | tax | total) keeps its last as the
 * gross.
 */
function summaryTotal(
  out: AmountCandidate[],
  line: Line,
  li: number,
  skip: (s: Segment) => boolean,
  till: boolean,
): void {
  const row = out.filter((c) => c.order === li)
  const values = line.segments.filter((s) => !skip(s)).flatMap((s) => findAmounts(s.text))
  const incl = row.find((c) => c.role === 'incl')
  // (A total row of one amount is a till's net column read alone; elsewhere it may be the tax's.)
  if (!incl || values.length > 2 || (values.length === 1 && !till)) return
  const si = line.segments.indexOf(incl.seg)
  const label = leftLabel(line, si, incl.seg.text.indexOf(findAmounts(incl.seg.text)[0]?.text ?? '')) ?? ''
  if (!/^[^\p{L}]*total[^\p{L}]*$/iu.test(label.replace(CURRENCY_WORD, ''))) return
  out.splice(out.indexOf(incl), 1)
  const any = row.filter((c) => c.role === 'any')
  const first = any[0] ?? incl
  out.push({ ...first, role: 'excl', strength: 0.5, rate: null })
  if (values.length === 2) out.push({ ...incl, role: 'vat', strength: 0.5, rate: null })
}

/** What the decision needs of a candidate. */
interface Scored {
  value: number
  strength: number
  order: number
  text: string
  /** Not printed: worked out from the payment (paid less change). */
  implied?: boolean
}

export interface Totals {
  incl: number | null
  excl: number | null
  vat: number | null
  inclText: string | null
}

const SUBTOTAL = /\bsub[-\s.]?total\b|\bsous[-\s]total\b|\bzwischensumme\b/i
/** A sub-total whose label says it is before tax is a net amount like any other. */
const EXPLICIT_NET = /\b(excl|excluding|before|net|ht|hors|ohne|netto)\b/i

/** The gross, net and VAT that score best together. */
export function decideTotals(cands: AmountCandidate[], hasVat: boolean): Totals {
  // Later on the page counts a little (totals close a document; sub-totals come first).
  const maxOrder = Math.max(...cands.map((x) => x.order), 1)
  // A total is printed again (payment, tax summary): each other row with the same amount counts.
  const seen = new Map<number, number>()
  for (const c of cands) seen.set(c.value, (seen.get(c.value) ?? 0) + 1)
  const score = (c: Scored) =>
    c.strength + (0.15 * c.order) / maxOrder + Math.min(0.3, 0.1 * ((seen.get(c.value) ?? 1) - 1))
  const top = (role: Role) =>
    cands
      .filter((c) => c.role === role && c.rate === null)
      .sort((a, b) => score(b) - score(a) || b.order - a.order)
      .slice(0, 6)
  const labelled = top('incl').filter((c) => c.value !== 0)
  // A negative labelled amount beside positive ones is a deduction or a tax summary's row, not
  // what the document cost (a credit note's totals are all negative).
  const incls: Scored[] = labelled.some((c) => c.value > 0) ? labelled.filter((c) => c.value > 0) : labelled
  // A till receipt's payment: the total is what was paid less the change (a total misread by
  // OCR, or printed without a label, still shows there).
  const last = (role: Role) => cands.filter((c) => c.role === role).pop()
  const paid = last('paid')
  const change = last('change')
  let implied = paid && change && paid.value > change.value ? round2(paid.value - change.value) : null
  // Change given but the tendered amount's label unread: two printed amounts that differ by it.
  if (implied === null && change && change.value > 0) {
    const values = [
      ...new Set(
        cands.filter((c) => c.role !== 'change' && c.role !== 'rounding' && c.value > 0).map((c) => c.value),
      ),
    ]
    const pairs = values.filter((v) => values.some((w) => Math.abs(w - v - change.value) <= 0.005))
    if (pairs.length > 0) implied = Math.max(...pairs)
  }
  // A rounding row printed after the payment rounds what was paid, not the printed total
  // ("TOTAL 13.78 | CASH 20.00 | ROUNDING 0.02 | CHANGE 6.20"): the total is paid − change ± it.
  const payRoundings =
    paid && implied !== null
      ? cands.filter(
          (c) => c.role === 'rounding' && c.order > paid.order && c.value !== 0 && Math.abs(c.value) <= 0.05,
        )
      : []
  const confirmed = (v: number) =>
    implied !== null &&
    (Math.abs(v - implied) <= 0.011 ||
      payRoundings.some((r) => Math.abs(Math.abs(v - implied) - Math.abs(r.value)) <= 0.005))
  if (implied !== null && !incls.some((c) => confirmed(c.value)))
    incls.push({
      value: implied,
      strength: 0.5,
      order: paid?.order ?? change!.order,
      text: paid?.text ?? '',
      implied: true,
    })
  const excls = top('excl')
  // VAT: a labelled total, or the sum of the per-rate lines (each rate once: its last line).
  const vatOptions: { value: number; s: number }[] = top('vat').map((c) => ({ value: c.value, s: score(c) }))
  const byRate = new Map<string, AmountCandidate>()
  for (const c of cands) if (c.role === 'vat' && c.rate !== null) byRate.set(c.rate, c)
  if (byRate.size > 0) {
    const sum = round2([...byRate.values()].reduce((a, c) => a + c.value, 0))
    vatOptions.push({ value: sum, s: Math.max(...[...byRate.values()].map(score)) * 0.9 })
  }
  let best: {
    s: number
    incl: Scored | null
    excl: Scored | null
    vat: number | null
    /** The best reading whose net and VAT add up to its gross. */
    consistent?: Consistent
  } = {
    s: Number.NEGATIVE_INFINITY,
    incl: null,
    excl: null,
    vat: null,
  }
  const inclOpts: (Scored | null)[] = [...incls, null]
  const exclOpts: (Scored | null)[] = [...excls, null]
  const vatOpts: ({ value: number; s: number } | null)[] = hasVat
    ? [...vatOptions, null]
    : [{ value: 0, s: 0 }]
  for (const i of inclOpts)
    for (const e of exclOpts)
      for (const v of vatOpts) {
        let s = (i ? score(i) : 0) + (e ? score(e) * 0.8 : 0) + (v ? v.s * 0.6 : 0)
        // The payment confirms a printed total; worked out alone it is weaker than a labelled
        // total (OCR misreads the tendered amount or the change as often as the total).
        if (i && !i.implied && confirmed(i.value)) s += 0.8
        // A printed total is read rather than made up from a net and a VAT.
        if (!i && incls.length > 0) s -= 0.2
        // One printed amount is never both the net and the gross.
        if (i && e && (i === e || (i.order === e.order && i.value === e.value))) continue
        if (i && e && v) {
          const diff = Math.abs(e.value + v.value - i.value)
          if (diff <= 0.011) s += 1
          else if (diff <= 0.05) s += 0.3
        } else if (i && e && !v && hasVat && Math.abs(i.value - e.value) < 0.005 && i.value !== 0) s -= 0.3
        if (i && e && Math.abs(i.value) + 0.005 < Math.abs(e.value)) s -= 1
        // A gross below its own VAT is another amount ("Total points 2.10" beside "GST 4.43").
        if (i && v && i.value > 0 && v.value > 0 && i.value + 0.005 < v.value) s -= 1
        if (s > best.s) best = { ...best, s, incl: i, excl: e, vat: v?.value ?? null }
        if (i && e && v && Math.abs(e.value + v.value - i.value) <= 0.011 && s > (best.consistent?.s ?? -1e9))
          best.consistent = { s, incl: i.value, excl: e.value, vat: v.value }
      }
  // A sub-total is the sum before the adjustments a till adds (service charge, rounding,
  // discount) and often already includes the tax: one that does not reconcile with the gross
  // and the VAT is no net amount (the net is then the gross less the VAT, as it is booked).
  // The same holds for a net that is the gross itself.
  if (
    best.incl &&
    best.excl &&
    best.vat !== null &&
    Math.abs(best.excl.value + best.vat - best.incl.value) > 0.011 &&
    // A "net" equal to the gross while VAT is charged is the gross printed again. (A sub-total
    // an invoice prints again as a net, in a VAT summary's net column, or with no VAT charged,
    // is its net: the mismatch stays.)
    ((SUBTOTAL.test(best.excl.text) &&
      !EXPLICIT_NET.test(best.excl.text) &&
      hasVat &&
      !cands.some(
        (c) => c.role === 'excl' && c.order !== best.excl!.order && c.value === best.excl!.value,
      )) ||
      (best.vat !== 0 && Math.abs(best.excl.value - best.incl.value) < 0.005))
  )
    best.excl = null
  // No labelled net or gross but a VAT: two unlabelled amounts that differ by it are the net and
  // the gross (net + VAT = gross), the latest pair first.
  if (!best.incl && !best.excl && best.vat !== null && best.vat > 0) {
    const vat = best.vat
    const any = cands.filter((c) => c.role === 'any' && c.value > 0)
    let pair: { i: AmountCandidate; e: AmountCandidate } | null = null
    for (const i of any)
      for (const e of any)
        if (
          e.order < i.order &&
          Math.abs(e.value + vat - i.value) <= 0.011 &&
          (!pair || i.order > pair.i.order)
        )
          pair = { i, e }
    if (pair) {
      best.incl = pair.i
      best.excl = pair.e
    }
  }
  // No labelled total (a label OCR could not read): the amount the document repeats most
  // (a till prints its total again as the payment and in the tax summary), the larger first.
  if (!best.incl && !best.excl) {
    const counts = new Map<number, number>()
    for (const c of cands)
      if (c.value > 0 && c.role !== 'change' && c.role !== 'paid' && c.role !== 'rounding')
        counts.set(c.value, (counts.get(c.value) ?? 0) + 1)
    const fallback = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]
    if (fallback) best.incl = { value: fallback[0], strength: 0, order: 0, text: '' }
  }
  // Nothing labelled or repeated: what was paid (less the change) is what the document cost.
  // (A minus sign before it is OCR's reading of a dash: "CASH RM - 6.00".)
  if (!best.incl && !best.excl && paid && paid.value !== 0)
    best.incl = { value: implied ?? Math.abs(paid.value), strength: 0, order: paid.order, text: paid.text }
  let incl = best.incl?.value ?? null
  let excl = best.excl?.value ?? null
  let vat = best.vat
  // A till rounds its total to 5 cents after printing it: with a rounding row after the
  // total, the rounded amount is the total when the document prints it after that row (the
  // rounded total, a card payment) or it is what was paid less the change.
  if (incl !== null && best.incl) {
    const from = best.incl.order
    for (const r of cands.filter((c) => c.role === 'rounding' && c.order >= from)) {
      const step = Math.abs(r.value)
      if (step === 0 || step > 0.05) continue
      const rounded = [round2(incl + step), round2(incl - step)].find(
        (v) =>
          (implied !== null && Math.abs(implied - v) <= 0.005 && !payRoundings.includes(r)) ||
          cands.some(
            (c) =>
              c.role !== 'rounding' &&
              c.role !== 'change' &&
              c.order > r.order &&
              Math.abs(c.value - v) <= 0.005,
          ),
      )
      if (rounded !== undefined) {
        // The rounding is booked with the net, so the net and the VAT still add up.
        if (excl !== null && vat !== null) excl = round2(rounded - vat)
        incl = rounded
        break
      }
    }
  }
  if (!hasVat) {
    vat = 0
    excl ??= incl
    incl ??= excl
  }
  ;({ excl, vat } = reconcile(cands, incl, excl, vat, best.consistent))
  if (vat === null && incl !== null && excl !== null) vat = round2(incl - excl)
  if (excl === null && incl !== null && vat !== null) excl = round2(incl - vat)
  if (incl === null && excl !== null && vat !== null) incl = round2(excl + vat)
  return { incl, excl, vat, inclText: best.incl?.text ?? null }
}

interface Consistent {
  s: number
  incl: number
  excl: number
  vat: number
}

/**
 * A net and a VAT that do not add up to the gross are mostly a misreading (OCR, a sub-total
 * taken for the net, a till's rounding): the decision is replaced by a reading of the printed
 * amounts that adds up, when one exists. The rounding row printed before the total is booked
 * with the net; else the net (or the VAT) is an amount printed elsewhere that makes the sum
 * right; else the best combination of labelled amounts that adds up (with the same gross). A
 * document whose printed amounts admit no consistent reading keeps its mismatch.
 */
function reconcile(
  cands: AmountCandidate[],
  incl: number | null,
  excl: number | null,
  vat: number | null,
  consistent: Consistent | undefined,
): { excl: number | null; vat: number | null } {
  if (incl === null || excl === null || vat === null) return { excl, vat }
  const diff = round2(incl - excl - vat)
  if (Math.abs(diff) <= 0.0101) return { excl, vat }
  const printed = cands.filter((c) => c.role !== 'change' && c.role !== 'paid' && c.role !== 'rounding')
  if (
    cands.some(
      (c) => c.role === 'rounding' && c.value !== 0 && Math.abs(Math.abs(c.value) - Math.abs(diff)) < 0.005,
    )
  )
    return { excl: round2(incl - vat), vat }
  // (Not the gross itself when no VAT is charged: a printed net that differs is a mismatch.)
  const net = printed.find(
    (c) => c.value > 0 && Math.abs(c.value - (incl - vat)) <= 0.0101 && (vat !== 0 || c.value !== incl),
  )
  if (net) return { excl: net.value, vat }
  const tax = printed.find(
    (c) => c.value > 0 && c.role !== 'incl' && Math.abs(c.value - (incl - excl)) <= 0.0101,
  )
  if (tax) return { excl, vat: tax.value }
  if (consistent && Math.abs(consistent.incl - incl) < 0.005)
    return { excl: consistent.excl, vat: consistent.vat }
  return { excl, vat }
}

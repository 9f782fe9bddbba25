/**
 * Totals as candidates, then one decision. Every amount printed on the page is a candidate; its
 * evidence is the label left of it on its row (same segment or an earlier one), or, in a totals
 * table laid out with its labels in one row and values in the next, its column header. Labels
 * come from the lexicon. The decision then takes the gross, net and VAT that score best
 * together, net + VAT = gross (several VAT rates summed, rounding) counting as evidence: see
 * scoring/totals.ts.
 */
import { hasLabel, isLabel, type LabelField, labelAt, labelRank } from './lexicon.ts'
import { findAmounts, round2 } from './parse.ts'
import type { Line, Segment } from './pdf-text.ts'

type Role = 'incl' | 'excl' | 'vat' | 'paid' | 'change' | 'rounding' | 'outside' | 'any'
const ROLE_FIELD: Record<Role, LabelField> = {
  incl: 'total_incl',
  excl: 'total_excl',
  vat: 'vat_total',
  paid: 'tendered',
  change: 'change',
  rounding: 'rounding',
  outside: 'outside_vat',
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
  /** How the role was read: the label left of it, a totals table's column header, a tax summary's total row, a phrase saying the tax is contained; none for an unlabelled amount. */
  via: 'row' | 'header' | 'summary' | 'phrase' | 'none'
  /** The label's rank in the lexicon (0..1), before any weakening. */
  rank: number
  /** Words follow the label ("Total 3 articles"). */
  loose: boolean
  /** A labelled total on a row of several amounts (a tax summary's "Total 106.10 6.47"). */
  busy: boolean
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

interface LabelRole {
  role: Role
  strength: number
  rate: string | null
  rank: number
  loose: boolean
  phrase?: boolean
}

/** The roles a label gives, with strength; a `not_total` label gives none. */
function rolesOf(label: string): LabelRole[] {
  // "19 % MwSt.", "TVA 20 %", "dont TVA 10 %": the rate is not part of the label's words.
  const rate = label.match(RATE)?.[1]?.replace(',', '.') ?? null
  const clean = label
    // ("zzgl. MwSt. 19 %", "plus VAT 20 %": the tax added to the net above is still the tax.)
    .replace(/^(?:(?:dont|davon|incl\.?|inkl\.?|including|zzgl\.?|zuzügl\.?|zuzüglich|plus)\s+|\+\s*)/iu, '')
    .replace(/^\(?\d{1,2}(?:[.,]\d{1,2})?\s*%\)?\s*/, '')
    // A till prints the number of items before the label ("8 SUB TOTAL").
    .replace(/^\d{1,3}\s+(?=\p{L}{2})/u, '')
    .trim()
  // What was handed over and given back is no total, but tells it: paid − change. A charge
  // outside the scope of VAT (a tourist tax) is none either, but part of the amount before tax.
  for (const role of ['rounding', 'change', 'paid', 'outside'] as Role[])
    if (labelAt(ROLE_FIELD[role], clean)) return [{ role, strength: 1, rate: null, rank: 1, loose: false }]
  // "Balance" is no total, "Balance due" is: the longer label decides.
  const not = labelAt('not_total', clean)
  const longest = Math.max(
    ...(['incl', 'excl', 'vat'] as Role[]).map((r) => labelAt(ROLE_FIELD[r], clean)?.label.length ?? 0),
  )
  if (not && not.label.length >= longest) return []
  const out: LabelRole[] = []
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
        out.push({ role: 'vat', strength: 0.5, rate, rank: 0.5, loose: false, phrase: true })
        return out
      }
    }
  const matches = (['incl', 'excl', 'vat'] as Role[]).map((role) => ({
    role,
    m: labelAt(ROLE_FIELD[role], clean),
  }))
  for (const { role, m } of matches) {
    if (!m) continue
    // A label another role's label goes on from is that one's ("Montant total" of "Montant total
    // net", "Total" of "Total VAT"): the longer label decides.
    if (matches.some((o) => o.m && o.m.label.length > m.label.length)) continue
    // "Total 3 articles", "Total HT (20 %) base": words after the label that are not a currency,
    // a rate or a parenthesis weaken it.
    const tail = m.rest.replace(/\(.*?\)|\b[A-Z]{3}\b|[€$£%]|\d+([.,]\d+)?|RM/g, '').trim()
    const rank = labelRank(ROLE_FIELD[role], m.label)
    const loose = tail.length > 12
    const strength = Math.max(0.3, rank) * (loose ? 0.5 : 1)
    out.push({ role, strength, rate: role === 'vat' ? rate : null, rank, loose })
  }
  return out
}

const r0 = (roles: { role: Role }[]) => roles.some((r) => r.role === 'incl')

/** Rows holding only total labels (a totals table's header): column → role. */
function headerRoles(line: Line, till: boolean): (LabelRole & { seg: Segment })[] | null {
  if (findAmounts(line.text).length > 0) return null
  // An item table's header ("Qty | Description | Unit price | Total RM") names item columns.
  if (hasLabel('item_column', line.text)) return null
  const cols: (LabelRole & { seg: Segment })[] = []
  for (const seg of line.segments) {
    const roles = rolesOf(seg.text.replace(/\b(EUR|USD|GBP|CHF)\b|[€$£]/g, '').trim())
    if (roles.length === 0) continue
    const best = roles.sort((a, b) => b.strength - a.strength)[0]!
    // A VAT column of one rate ("VAT 20 %" | "VAT 5 %") is summed with the other rates.
    cols.push({ ...best, seg })
  }
  // A totals table's header is mostly total labels ("Netto | MwSt. | Brutto"); an item table's
  // ("Description | Qty | Unit price | VAT | Net amount") is not.
  const others = line.segments.length - 1 - cols.length
  if (new Set(cols.map((c) => c.role)).size >= 2 && cols.length > others) return cols
  // A total's label alone on its line, its amount on the line under it ("Gesamtbetrag" over
  // "1.022,09 €"). (Not on a till, whose label and amount share a row that OCR may read as two.)
  const alone = !till && cols.length === 1 && line.segments.length === 1 && cols[0]!
  return alone && isLabel(ROLE_FIELD[alone.role], line.segments[0]!.text) ? cols : null
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
    const h = headerRoles(line, till)
    if (h) {
      header = { cols: h, line, rows: 0 }
      continue
    }
    // A totals table runs while its rows print amounts (its rates, then its total row); a label
    // alone on its line heads the one line under it.
    const single = header?.cols.length === 1
    if (
      header &&
      (header.line.page !== line.page ||
        header.rows >= (single ? 1 : SUMMARY_ROWS) ||
        ((header.rows > 0 || single) && findAmounts(line.text).length === 0))
    )
      header = null
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
          for (const { phrase, ...r } of roles)
            out.push({
              value: a.value,
              line,
              seg,
              order: li,
              ...r,
              strength: r.strength * (several ? 0.6 : 1),
              via: phrase ? 'phrase' : 'row',
              busy: several,
              text,
            })
        } else if (!label || labelAt('not_total', label) === null)
          out.push(asPrinted({ value: a.value, line, seg, order: li, text }))
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
              // (A label alone over its amount is the amount's label, as one left of it is.)
              via: header.cols.length === 1 ? 'row' : 'header',
              rank: col.rank,
              loose: col.loose,
              busy: false,
              text,
            })
        }
      }
    }
    rateRow(out, li)
    if (header && sawAmount) {
      header.rows++
      rateRowUnderHeader(out, line, li)
    }
    if (summary && (summary.line.page !== line.page || li - summary.li > SUMMARY_ROWS)) summary = null
    if (summary) summaryTotal(out, line, li, skip, till)
    if (hasLabel('tax_summary', line.text) && findAmounts(line.text).length === 0) summary = { line, li }
  }
  return out
}

/**
 * A VAT row of one rate printing several amounts ("TVA 10% 19,55 1,95 21,50"): the one that is
 * the rate of another is its tax, whichever column it stands in, not the row's last amount (the
 * rate's total). Only the last amount of a labelled row was read as its value.
 */
function rateRow(out: AmountCandidate[], li: number): void {
  const labelled = out.find((c) => c.order === li && c.role === 'vat' && c.rate !== null && c.via === 'row')
  if (!labelled) return
  const rate = Number(labelled.rate) / 100
  const amounts = out.filter((c) => c.order === li && c.role === 'any' && c.value > 0)
  const tax = amounts.find(
    (t) =>
      t.value !== labelled.value &&
      [...amounts, labelled].some((base) => base !== t && Math.abs(base.value * rate - t.value) <= 0.015),
  )
  if (!tax) return
  // (The rate's total stays a printed amount.)
  out.splice(out.indexOf(labelled), 1, { ...labelled, value: tax.value, seg: tax.seg }, asPrinted(labelled))
}

/** An amount as printed, without a role (or without the one its row's label gave it). */
const asPrinted = (
  c: Pick<AmountCandidate, 'value' | 'line' | 'seg' | 'order' | 'text'>,
): AmountCandidate => ({
  value: c.value,
  line: c.line,
  seg: c.seg,
  order: c.order,
  text: c.text,
  role: 'any',
  strength: 0,
  rate: null,
  via: 'none',
  rank: 0,
  loose: false,
  busy: false,
})

/**
 * A totals table's row of one VAT rate ("10 % | 43.18 | 4.32 | 47.50" under "HT | TVA | TTC"):
 * its amounts are that rate's, summed with the other rates' (not the document's totals); its tax
 * is worked out from its base and its total when the tax column was not read.
 */
function rateRowUnderHeader(out: AmountCandidate[], line: Line, li: number): void {
  // The row's label: its segments before the first amount ("B=" | "7,0%").
  const first = line.segments.findIndex((seg) => findAmounts(seg.text).length > 0)
  const label = line.segments
    .slice(0, first < 0 ? line.segments.length : first)
    .map((seg) => seg.text)
    .join(' ')
  const rate = label.match(RATE)?.[1]?.replace(',', '.')
  if (!rate) return
  const row = out.filter((c) => c.order === li && c.via === 'header')
  for (const c of row) out[out.indexOf(c)] = { ...c, rate }
  const of = (role: Role) => row.find((c) => c.role === role)
  const base = of('excl')
  const total = of('incl')
  if (!of('vat') && base && total && total.value > base.value)
    out.push({
      ...total,
      role: 'vat',
      value: round2(total.value - base.value),
      rate,
      strength: base.strength,
    })
  // The header says which column is the tax: the row label's VAT ("TVA 20 %") took its last amount.
  if (row.length > 0)
    for (const c of out.filter((c) => c.order === li && c.role === 'vat' && c.via === 'row'))
      out[out.indexOf(c)] = asPrinted(c)
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
  out.push({ ...first, role: 'excl', strength: 0.5, rate: null, via: 'summary', busy: false })
  if (values.length === 2)
    out.push({ ...incl, role: 'vat', strength: 0.5, rate: null, via: 'summary', busy: false })
}

export interface Totals {
  incl: number | null
  excl: number | null
  vat: number | null
  /** The row the gross was read on (or the payment's row): where its currency is printed. */
  inclLine: Line | null
}

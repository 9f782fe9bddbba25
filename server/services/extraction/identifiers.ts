/**
 * Identifiers: the supplier's VAT id and the payee's IBAN, each a fitted scorer over every one
 * printed and the choice that the page prints none of theirs.
 */
import { electronicFormatIBAN, getCountrySpecifications, isValidIBAN } from 'ibantools'
import { checkVAT, countries } from 'jsvat'
import {
  leftNeighbour,
  type Ref,
  rightNeighbour,
  segmentAbove,
  segmentsOf as segments,
  segmentUnder,
} from './layout.ts'
import { hasLabel, labelLanguages, labelsIn, othersLabel } from './lexicon.ts'
import { compactId, foldText as f } from './parse.ts'
import type { Line, Segment } from './pdf-text.ts'
import {
  type Candidate,
  type Decision,
  decide,
  type Feature,
  flag,
  type Models,
  modelOf,
  NOWHERE,
  type PageModel,
  present,
} from './scoring/model.ts'
import { placeOf } from './scoring/place.ts'

const VAT_SHAPES: Record<string, RegExp> = {
  FR: /^FR[0-9A-HJ-NP-Z]{2}\d{9}$/,
  DE: /^DE\d{9}$/,
  GB: /^GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  XI: /^XI(\d{9}|\d{12})$/,
  BE: /^BE[01]\d{9}$/,
  ES: /^ES[A-Z0-9]\d{7}[A-Z0-9]$/,
  IT: /^IT\d{11}$/,
  NL: /^NL\d{9}B\d{2}$/,
  LU: /^LU\d{8}$/,
  AT: /^ATU\d{8}$/,
  IE: /^IE(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  PT: /^PT\d{9}$/,
  DK: /^DK\d{8}$/,
  SE: /^SE\d{12}$/,
  PL: /^PL\d{10}$/,
  CH: /^CHE\d{9}(MWST|TVA|IVA)?$/,
}

/** A VAT-id label anywhere in the text (lexicon `vat_id`, every language). */
const vatLabelled = (text: string) => hasLabel('vat_id', text)

function vatCandidates(text: string): string[] {
  const out: string[] = []
  const re = /\b(FR|DE|GB|XI|BE|ES|IT|NL|LU|AT|IE|PT|DK|SE|PL|CHE)[\s.-]?((?:[0-9A-Z][\s.-]?){7,14})/g
  for (const m of text.toUpperCase().matchAll(re)) {
    const country = m[1] === 'CHE' ? 'CH' : m[1]!
    const body = compactId(`${m[1]}${m[2]}`)
    const shape = VAT_SHAPES[country]
    if (!shape) continue
    for (let n = body.length; n >= 4; n--) {
      if (shape.test(body.slice(0, n))) {
        out.push(body.slice(0, n))
        break
      }
    }
  }
  return out
}

/**
 * The countries whose VAT ids their own language's labels introduce without the country's letters:
 * Italy's "P.IVA 01234567897", Spain's "NIF: B12345678", Portugal's "NIF 501234567", Poland's
 * "NIP 5260001246".
 */
const BARE_VAT_COUNTRY: Record<string, string> = { it: 'IT', es: 'ES', pt: 'PT', pl: 'PL' }

/**
 * The VAT ids a segment prints without their country's letters, after a label of Italy's, Spain's,
 * Portugal's or Poland's language: the letters put before the figures when they have that
 * country's shape (eleven figures for Italy; nine characters with a letter for Spain; nine figures
 * for Portugal, so a "NIF" both languages print is told by its shape; ten for Poland's "NIP").
 * Each with where it is printed in the segment.
 */
function bareVatIds(text: string): { value: string; at: number }[] {
  const out: { value: string; at: number }[] = []
  for (const hit of labelsIn('vat_id', text)) {
    const token = compactId(hit.rest.split(/\s{2,}|[,;(]/)[0] ?? '')
    if (!/\d/.test(token) || (!/^\d+$/.test(token) && !/^[A-Z]?\d+[A-Z]?$/.test(token))) continue
    for (const lang of labelLanguages('vat_id', hit.label)) {
      const country = BARE_VAT_COUNTRY[lang]
      const value = country ? `${country}${token}` : ''
      if (!country || !VAT_SHAPES[country]!.test(value)) continue
      if (country === 'ES' && !/[A-Z]/.test(token)) continue
      out.push({ value, at: hit.index })
      break
    }
  }
  return out
}

/** A Swiss VAT id printed with its "MWST", "TVA" or "IVA" after the number: that word is its label. */
const selfLabelled = (value: string) => /^CHE\d{9}(MWST|TVA|IVA)$/.test(value)

/**
 * Letters OCR reads in place of a digit of the same shape, one digit each (ocr-words.ts's
 * READ_FOR goes the other way, for words, and lists several letters per digit).
 */
const DIGIT_LOOKALIKES: Record<string, string> = {
  O: '0',
  D: '0',
  Q: '0',
  I: '1',
  L: '1',
  Z: '2',
  A: '4',
  S: '5',
  G: '6',
  T: '7',
  B: '8',
}

/**
 * A VAT id read by OCR with each letter after its country read as the digit it looks like, when
 * its check digits then hold ("FRGB 491 886 081" → FR68491886081; a French id's key may be
 * letters, which the check does not verify, so the digits' reading is preferred where it holds).
 */
function repairedVatId(value: string): string {
  const prefix = value.startsWith('CHE') ? 3 : 2
  const body = value.slice(prefix).replace(/[A-Z]/g, (c) => DIGIT_LOOKALIKES[c] ?? c)
  const repaired = value.slice(0, prefix) + body
  return repaired !== value && checkVAT(repaired, countries).isValid ? repaired : value
}

/** Digit runs of the company registration numbers printed (SIREN/SIRET, RCS, company no.). */
function registrationNumbers(lines: Line[], customer: Set<Segment>): string[] {
  const out: string[] = []
  for (const ref of segments(lines)) {
    if (customer.has(ref.seg)) continue
    const t = f(ref.seg.text)
    const m = t.match(
      /\b(siren|siret|rcs|r\.c\.s\.|company no|company number|registered|registration|hrb|kvk|cif|nif)\b/,
    )
    if (!m || m.index === undefined) continue
    for (const run of t.slice(m.index).matchAll(/\d[\d\s.]{7,}\d/g)) {
      const digits = run[0].replace(/\D/g, '')
      if (digits.length >= 8) out.push(digits)
    }
  }
  return out
}

const IBAN_SPECS = getCountrySpecifications()

/** The text with every labelled IBAN and BIC blanked out (same length). */
function withoutBankIds(text: string): string {
  let out = text
  for (const m of text.matchAll(/\b(iban|bic|swift)\b[\s:.-]*/gi)) {
    const from = m.index + m[0].length
    let n = 0
    let end = from
    if (/iban/i.test(m[1]!)) {
      const value = ibanFrom(text.slice(from), true)
      if (!value) continue
      while (end < text.length && n < value.length) if (/[A-Za-z0-9]/.test(text[end++]!)) n++
    } else end = from + (text.slice(from).match(/^[A-Z0-9]{8,11}\b/i)?.[0].length ?? 0)
    out = out.slice(0, m.index) + ' '.repeat(end - m.index) + out.slice(end)
  }
  return out
}

function ibanFrom(text: string, labelled = false): string | null {
  const upper = text.toUpperCase()
  const start = upper.search(/\b[A-Z]{2}\d{2}(?=[\s0-9A-Z])/)
  if (start < 0) return null
  const country = upper.slice(start, start + 2)
  const length = IBAN_SPECS[country]?.chars
  if (!length) return null
  let out = ''
  let end = 0
  for (const ch of upper.slice(start)) {
    if (/[A-Z0-9]/.test(ch)) out += ch
    else if (ch === '*' || ch === '•' || ch === 'X') return null
    else if (!/[\s.-]/.test(ch)) break
    if (out.length === length) break
    end++
  }
  // After an IBAN label the printed account is the IBAN even at a wrong length (its check
  // then fails and says so); bare text needs the country's exact length, ending there (not
  // the head of a longer identifier such as a metering point).
  if (!labelled && out.length === length && /^[A-Z0-9]/.test(upper.slice(start + end + 1))) return null
  if (out.length !== length && !(labelled && out.length >= 15 && /^[A-Z]{2}\d{2}\d/.test(out))) return null
  return electronicFormatIBAN(out) ?? out
}

/** Whether the text before an IBAN, back to the start of its sentence, names the payer's account. */
function debtorContext(before: string): boolean {
  const sentence = before.split(/[.!?](?=\s+\p{Lu})/u).pop() ?? before
  return hasLabel('debtor', sentence)
}

/** An IBAN printed on the page, how it is introduced, or the choice that the page prints none of the payee's. */
interface IbanSite {
  value: string | null
  ref: Ref | null
  /** After an IBAN label, after a bank-details label, or bare. */
  how: 'iban_label' | 'payment_label' | 'bare' | null
  /** The text before it, back to the start of its sentence (the line above when prose runs on). */
  before: string
  order: number
  counts: Map<string, number>
  model: PageModel
}

/**
 * Every IBAN of the page: one after an IBAN label (in its segment, right of it, under it as a
 * column header, or at the start of the next line when a sentence ends on the label; a value
 * wrapped onto a second row is joined), or an unlabelled one of the country's exact length.
 */
function ibanSites(model: PageModel): IbanSite[] {
  const { lines } = model
  const out: IbanSite[] = []
  const counts = new Map<string, number>()
  const add = (value: string | null, ref: Ref, how: IbanSite['how'], before: string) => {
    // An account introduced as the payer's ("Käufer-IBAN", "von Ihrem Konto … per Lastschrift")
    // or printed in the customer's block is theirs: no candidate for the payee's.
    if (!value || debtorContext(before) || model.customer.has(ref.seg)) return
    out.push({ value, ref, how, before, order: out.length, counts, model })
    counts.set(value, (counts.get(value) ?? 0) + 1)
  }
  for (const ref of segments(lines)) {
    const t = ref.seg.text
    // A sentence running on from the line above (prose, not a footer's column of captions).
    const above = ref.si === 0 && ref.li > 0 ? lines[ref.li - 1] : undefined
    const aboveLast = above?.page === ref.line.page ? above.segments[above.segments.length - 1] : undefined
    const prevLine = aboveLast && aboveLast.text.split(/\s+/).length >= 5 ? aboveLast.text : ''
    const at = f(t).search(/\biban\b/)
    if (at >= 0) {
      const rest = t.slice(at + 4).replace(/^[\s:.]+/, '')
      if (/\*|x{3,}/i.test(rest.slice(0, 12))) continue
      add(labelledIban(lines, ref, rest), ref, 'iban_label', `${prevLine} ${t.slice(0, at + 4)}`)
      continue
    }
    const value = ibanFrom(t)
    if (!value) continue
    const index = t.toUpperCase().indexOf(value.slice(0, 4))
    const before = `${prevLine} ${leftNeighbour(lines, ref)?.text ?? ''} ${t.slice(0, Math.max(0, index))}`
    // Unlabelled, only a valid account is one (not the head of a metering point's number); after
    // a bank-details label the printed one is.
    if (hasLabel('payment', before)) add(value, ref, 'payment_label', before)
    else if (isValidIBAN(value)) add(value, ref, 'bare', before)
  }
  out.push({ value: null, ref: null, how: null, before: '', order: out.length, counts, model })
  return out
}

/** The IBAN after an IBAN label: in the rest of its segment, right of it, under it, or next line. */
function labelledIban(lines: Line[], ref: Ref, rest: string): string | null {
  const value = ibanFrom(rest, true)
  if (value || rest) return value
  const right = rightNeighbour(lines, ref)
  if (right) {
    const v = ibanFrom(right.text, true)
    if (v) return v
  }
  const under = segmentUnder(lines, ref)
  if (under) {
    // A column header's cell, its value wrapped onto the row under it.
    const more = segmentUnder(lines, { ...ref, li: under.li, seg: under.seg })
    const v = ibanFrom(`${under.seg.text} ${more?.seg.text ?? ''}`, true) ?? ibanFrom(under.seg.text, true)
    if (v) return v
  }
  const next = lines[ref.li + 1]
  if (!right && next && next.page === ref.line.page && ref.si === ref.line.segments.length - 1)
    return ibanFrom(next.segments[0]!.text, true)
  return null
}

type IbanFeature = Feature<[s: IbanSite]>
const ibanYes = flag<[s: IbanSite]>
const placed = (s: IbanSite): s is IbanSite & { value: string; ref: Ref } =>
  s.value !== null && s.ref !== null

/** The IBAN's features, each a small named measure; their weights are in weights.json. */
export const IBAN_FEATURES: readonly IbanFeature[] = [
  ibanYes('none', "the choice that the page prints no IBAN of the payee's", (s) => s.value === null),
  ibanYes('iban_label', 'after an IBAN label', (s) => s.how === 'iban_label'),
  ibanYes(
    'payment_label',
    'after a bank-details label ("Bankverbindung", "Coordonnées bancaires")',
    (s) => s.how === 'payment_label',
  ),
  ibanYes('checksum', 'its mod-97 checksum holds', (s) => placed(s) && isValidIBAN(s.value)),
  ibanYes('first_printed', 'the first IBAN printed', (s) => placed(s) && s.order === 0),
  ibanYes(
    'printed_again',
    'the same IBAN printed at another place',
    (s) => placed(s) && (s.counts.get(s.value) ?? 0) >= 2,
  ),
]

/** Every IBAN candidate of a page model, the choice of none as `null`. */
export function ibanCandidates(model: PageModel): Candidate<string | null>[] {
  return ibanSites(model).map((site) => ({
    value: site.value,
    text: site.value ?? '',
    ...(site.ref ? placeOf(model.pages, site.ref.line, site.ref.seg) : NOWHERE),
    x: IBAN_FEATURES.map((feature) => feature.of(site)),
  }))
}

/**
 * The payee's IBAN: one decision over every IBAN printed and the choice that the page prints
 * none of the payee's (a payer's account is no candidate). A checksum
 * that fails is evidence, never a filter: the account is still returned and its check says so.
 */
export function decideIban(model: PageModel, models?: Models): Decision<string> | null {
  return present(decide(modelOf('iban', IBAN_FEATURES, models), ibanCandidates(model), (v) => v ?? ''))
}

// ---- the supplier's VAT id ------------------------------------------------------------------

/** A labelled VAT id printed on the page, or the choice that the page prints none of the supplier's. */
interface VatSite {
  value: string | null
  ref: Ref | null
  where: 'segment' | 'left' | 'above' | null
  order: number
  ctx: VatContext
}

interface VatContext {
  model: PageModel
  registrations: string[]
  /** Countries of the IBANs printed outside the customer's block. */
  bankCountries: Set<string>
  /** How many sites print each value. */
  counts: Map<string, number>
}

type VatFeature = Feature<[s: VatSite]>
const yes = flag<[s: VatSite]>
const some = (s: VatSite): s is VatSite & { value: string; ref: Ref } => s.value !== null && s.ref !== null

/** The VAT id's features, each a small named measure; their weights are in weights.json. */
export const VAT_FEATURES: readonly VatFeature[] = [
  yes('none', "the choice that the page prints no VAT id of the supplier's", (s) => s.value === null),
  yes('label_in_segment', 'a VAT-id label before it in its own segment', (s) => s.where === 'segment'),
  yes('label_left', 'a VAT-id label in the segment left of it', (s) => s.where === 'left'),
  yes('label_above', 'a VAT-id label over it (a column header)', (s) => s.where === 'above'),
  yes(
    'registration_agrees',
    'a company registration number printed on the page is part of it (FR: the SIREN)',
    (s) => {
      if (!some(s)) return false
      const digits = s.value.replace(/\D/g, '')
      return s.ctx.registrations.some(
        (r) => r.length >= 8 && (digits.includes(r.slice(0, 9)) || r.includes(digits.slice(-9))),
      )
    },
  ),
  yes(
    'check_digits',
    "its country's check digits hold",
    (s) => some(s) && checkVAT(s.value, countries).isValid,
  ),
  yes(
    'bank_country',
    "the country of an IBAN printed on the page (not the customer's)",
    (s) => some(s) && s.ctx.bankCountries.has(s.value.slice(0, 2) === 'CH' ? 'CH' : s.value.slice(0, 2)),
  ),
  yes(
    'legal_line',
    'on a line of legal mentions (share capital, registrations)',
    (s) => some(s) && hasLabel('legal', s.ref.line.text),
  ),
  {
    name: 'height_on_page',
    doc: 'how far down its page, 0 (top) to 1',
    of: (s) => {
      if (!some(s)) return 0
      const page = s.ctx.model.pages.find((p) => p.page === s.ref.line.page) ?? s.ctx.model.pages[0]!
      return s.ref.line.y / page.height
    },
  },
  yes('first_printed', 'the first VAT id printed', (s) => some(s) && s.order === 0),
  yes(
    'printed_again',
    'the same VAT id printed at another place',
    (s) => some(s) && (s.ctx.counts.get(s.value) ?? 0) >= 2,
  ),
]

/**
 * The segment over a value, as a label: with the one over it when the label wraps onto a line of
 * words ("N° TVA" over "intracommunautaire" over "FR11676856138").
 */
function labelAbove(lines: Line[], ref: Ref): { text: string } | undefined {
  const above = segmentAbove(lines, ref)
  if (!above || vatLabelled(above.seg.text) || /\d/.test(above.seg.text)) return above?.seg
  const line = lines[above.li]!
  const over = segmentAbove(lines, {
    line,
    li: above.li,
    si: line.segments.indexOf(above.seg),
    seg: above.seg,
  })
  return over ? { text: `${over.seg.text} ${above.seg.text}` } : above.seg
}

/** Every labelled VAT id of the page and the choice of none. */
function vatSites(model: PageModel): VatSite[] {
  const { lines } = model
  const bankCountries = new Set<string>()
  for (const ref of segments(lines))
    if (!model.customer.has(ref.seg) && /\biban\b/i.test(ref.seg.text)) {
      const iban = ibanFrom(ref.seg.text.slice(f(ref.seg.text).search(/\biban\b/) + 4), true)
      if (iban) bankCountries.add(iban.slice(0, 2))
    }
  const ctx: VatContext = {
    model,
    registrations: registrationNumbers(lines, model.customer),
    bankCountries,
    counts: new Map(),
  }
  const out: VatSite[] = []
  for (const ref of segments(lines)) {
    // A footer line may print the IBAN and the BIC beside the VAT id: they are no VAT id.
    const raw = withoutBankIds(ref.seg.text)
    // The label left of the value on its row (a caption a few points lower counts), or over it
    // as a column header ("VAT Registration No." over "DE777777777").
    const left = leftNeighbour(lines, ref)
    const above = labelAbove(lines, ref)
    const ocr = model.pages.find((p) => p.page === ref.line.page)?.layout !== undefined
    for (const printed of vatCandidates(raw)) {
      const value = ocr ? repairedVatId(printed) : printed
      const at = raw.toUpperCase().indexOf(printed.slice(0, 4))
      const own = at >= 0 ? raw.slice(Math.max(0, at - 40), at) : raw
      const where =
        vatLabelled(own) || selfLabelled(printed)
          ? 'segment'
          : left && vatLabelled(left.text)
            ? 'left'
            : above && vatLabelled(above.text)
              ? 'above'
              : null
      if (where === null) continue
      const label = where === 'left' ? left!.text : where === 'above' ? above!.text : ''
      // A VAT id in the customer's block, or one its label says is another party's ("USt-IdNr.
      // Kunde:", "Your VAT No"), is none of the supplier's.
      if (model.customer.has(ref.seg) || othersLabel('vat_id', where === 'segment' ? own : label)) continue
      out.push({ value, ref, where, order: out.length, ctx })
      ctx.counts.set(value, (ctx.counts.get(value) ?? 0) + 1)
    }
    if (model.customer.has(ref.seg)) continue
    for (const { value, at } of bareVatIds(raw)) {
      if (othersLabel('vat_id', raw.slice(Math.max(0, at - 40)))) continue
      out.push({ value, ref, where: 'segment', order: out.length, ctx })
      ctx.counts.set(value, (ctx.counts.get(value) ?? 0) + 1)
    }
  }
  out.push({ value: null, ref: null, where: null, order: out.length, ctx })
  return out
}

const vatFeatures = (site: VatSite) => VAT_FEATURES.map((feature) => feature.of(site))

/** Every VAT-id candidate of a page model, the choice of none as `null`. */
export function vatIdCandidates(model: PageModel): Candidate<string | null>[] {
  return vatSites(model).map((site) => ({
    value: site.value,
    text: site.value ?? '',
    ...(site.ref ? placeOf(model.pages, site.ref.line, site.ref.seg) : NOWHERE),
    x: vatFeatures(site),
  }))
}

/**
 * The supplier's VAT id: one decision over every labelled VAT id printed and the choice that the
 * page prints none of the supplier's (a customer's id alone is no supplier's).
 */
export function decideVatId(model: PageModel, models?: Models): Decision<string> | null {
  return present(decide(modelOf('vat_number', VAT_FEATURES, models), vatIdCandidates(model), (v) => v ?? ''))
}

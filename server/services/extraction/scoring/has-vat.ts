/**
 * Whether the document charges VAT, a fitted decision between yes and no, taken before the totals
 * (which read no VAT on a document that charges none): the weight of a "no VAT" mention
 * ("TVA non applicable, art. 293 B du CGI", "Kleinunternehmer") against printed VAT rows, rates and
 * VAT ids.
 */
import { hasLabel } from '../lexicon.ts'
import type { Line } from '../pdf-text.ts'
import type { AmountCandidate } from '../totals.ts'
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
} from './model.ts'
import { placeOf } from './place.ts'

interface VatPage {
  /** The first row printing a "no VAT" mention. */
  noVat: Line | null
  /** The amounts labelled as VAT. */
  vatRows: AmountCandidate[]
  /** A rate ("20 %", "19%") printed on a VAT row. */
  rate: boolean
  vatIdLabel: boolean
  till: boolean
}

type HasVatFeature = Feature<[charged: boolean, page: VatPage]>
const yes = flag<[charged: boolean, page: VatPage]>
const RATE = /\d{1,2}(?:[.,]\d{1,2})?\s*%/

/** Whether VAT is charged: its features, each measured on the "yes" choice; weights in weights.json. */
export const HAS_VAT_FEATURES: readonly HasVatFeature[] = [
  yes('charged', 'the choice that VAT is charged', (c) => c),
  yes('no_vat_mention', 'a "no VAT" mention is printed (lexicon no_vat)', (c, p) => c && p.noVat !== null),
  yes(
    'vat_amount',
    'a row labelled VAT prints an amount above zero',
    (c, p) => c && p.vatRows.some((r) => r.value > 0),
  ),
  yes(
    'zero_vat_only',
    'the rows labelled VAT print only zero',
    (c, p) => c && p.vatRows.length > 0 && p.vatRows.every((r) => r.value === 0),
  ),
  yes('vat_rate', 'a rate ("20 %") printed on a row labelled VAT', (c, p) => c && p.rate),
  yes('vat_id_label', 'a VAT id label is printed', (c, p) => c && p.vatIdLabel),
  yes('till', 'a till receipt', (c, p) => c && p.till),
]

function vatPage(model: PageModel, cands: AmountCandidate[], till: boolean): VatPage {
  const vatRows = cands.filter((c) => c.role === 'vat')
  return {
    noVat: model.lines.find((l) => hasLabel('no_vat', l.text)) ?? null,
    vatRows,
    rate: vatRows.some((r) => RATE.test(r.text)),
    vatIdLabel: model.lines.some((l) => hasLabel('vat_id', l.text)),
    till,
  }
}

/** The two choices, each placed where its strongest sign is printed. */
export function hasVatCandidates(
  model: PageModel,
  cands: AmountCandidate[],
  till: boolean,
): Candidate<boolean>[] {
  const page = vatPage(model, cands, till)
  const row = page.vatRows.find((r) => r.value > 0)
  const at = (line: Line | null | undefined, seg = line?.segments[0]) =>
    line && seg ? placeOf(model.pages, line, seg) : NOWHERE
  return [true, false].map((charged) => ({
    value: charged,
    text: String(charged),
    ...(charged ? at(row?.line, row?.seg) : at(page.noVat)),
    x: HAS_VAT_FEATURES.map((feature) => feature.of(charged, page)),
  }))
}

export function decideHasVat(
  model: PageModel,
  cands: AmountCandidate[],
  till: boolean,
  models?: Models,
): Decision<boolean> {
  return decide(modelOf('has_vat', HAS_VAT_FEATURES, models), hasVatCandidates(model, cands, till))!
}

/**
 * The EN 16931 business rules that apply to what we keep of an e-invoice: mandatory terms
 * (BR-01…BR-08, BR-16) and the document-level arithmetic (BR-CO-10, -13…-16). ZUGFeRD 1.0
 * predates EN 16931 and is not held to them; profiles without lines (MINIMUM, BASIC WL) are not
 * held to the line rules.
 */
import type { EInvoice } from './model.ts'

const EINVOICE_RULE_CODES = [
  'einvoice_br_01',
  'einvoice_br_02',
  'einvoice_br_03',
  'einvoice_br_04',
  'einvoice_br_05',
  'einvoice_br_06',
  'einvoice_br_07',
  'einvoice_br_08',
  'einvoice_br_16',
  'einvoice_br_co_10',
  'einvoice_br_co_13',
  'einvoice_br_co_14',
  'einvoice_br_co_15',
  'einvoice_br_co_16',
] as const
type EInvoiceRuleCode = (typeof EINVOICE_RULE_CODES)[number]

/** Amounts agree within a cent (sums of rounded amounts). */
const differs = (a: number, b: number) => Math.abs(a - b) > 0.0101
const sum = (xs: (number | null)[]) => xs.reduce<number>((s, x) => s + (x ?? 0), 0)

const LINELESS_PROFILE = /(minimum|basicwl|basic-wl)/i

export function checkRules(inv: EInvoice): EInvoiceRuleCode[] {
  if (inv.syntax === 'ZUGFeRD1') return []
  const out: EInvoiceRuleCode[] = []
  const hasLines = !LINELESS_PROFILE.test(inv.profile ?? '')
  if (!inv.profile) out.push('einvoice_br_01')
  if (!inv.number) out.push('einvoice_br_02')
  if (!inv.issue_date) out.push('einvoice_br_03')
  if (!inv.type_code) out.push('einvoice_br_04')
  if (!inv.currency) out.push('einvoice_br_05')
  if (!inv.seller.name) out.push('einvoice_br_06')
  if (!inv.buyer.name) out.push('einvoice_br_07')
  if (!inv.seller.address) out.push('einvoice_br_08')
  if (hasLines && inv.lines.length === 0) out.push('einvoice_br_16')
  const t = inv.totals
  if (
    hasLines &&
    t.line_net !== null &&
    inv.lines.length > 0 &&
    differs(sum(inv.lines.map((l) => l.net_amount)), t.line_net)
  )
    out.push('einvoice_br_co_10')
  if (
    t.tax_exclusive !== null &&
    t.line_net !== null &&
    differs(t.line_net - (t.allowances ?? 0) + (t.charges ?? 0), t.tax_exclusive)
  )
    out.push('einvoice_br_co_13')
  if (
    t.vat !== null &&
    inv.vat_breakdown.length > 0 &&
    differs(sum(inv.vat_breakdown.map((v) => v.amount)), t.vat)
  )
    out.push('einvoice_br_co_14')
  if (
    t.tax_inclusive !== null &&
    t.tax_exclusive !== null &&
    differs(t.tax_exclusive + (t.vat ?? 0), t.tax_inclusive)
  )
    out.push('einvoice_br_co_15')
  if (
    t.payable !== null &&
    t.tax_inclusive !== null &&
    differs(t.tax_inclusive - (t.prepaid ?? 0) + (t.rounding ?? 0), t.payable)
  )
    out.push('einvoice_br_co_16')
  return out
}

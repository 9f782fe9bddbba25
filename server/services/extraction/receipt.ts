/**
 * Till receipts: rules the field engine applies to documents laid out as a till roll or printing
 * a till's payment rows. The merchant is a line at the top (often in capitals, over a company
 * registration line or an address), the total the amount paid that the other amounts confirm
 * (sub-total + tax + rounding, cash − change), the currency the one the document's country uses
 * when OCR lost the printed one. Nothing here knows a merchant, a template or a document.
 */
import { hasLabel, labelAt } from './lexicon.ts'
import { findAmounts, foldText, round2 } from './parse.ts'
import type { Line, PageText } from './pdf-text.ts'
import type { AmountCandidate } from './totals.ts'

const f = foldText

/** Lines no wider than this (in points) are a till roll's. */
const TILL_WIDTH_PT = 4.6 * 72
/** Words of a till's payment rows. */
const TILL_WORDS = /\b(cash|change|tendered|rounding|round(ing)? adj|cashier|gst|sst|qty|sdn\.?\s*bhd)\b/g

/** A till receipt: a narrow page, or at least three kinds of a till's payment words. */
export function isTillReceipt(pages: PageText[], lines: Line[]): boolean {
  const page = pages[0]
  if (page && page.width > 0 && page.width <= TILL_WIDTH_PT) return true
  const words = new Set(f(lines.map((l) => l.text).join('\n')).match(TILL_WORDS) ?? [])
  return words.size >= 3
}

// ---- labels as OCR misreads them -------------------------------------------------------------

/** The label words of a till's totals, as OCR often misreads one letter of them. */
const TILL_LABEL_WORDS = ['total', 'change', 'payable', 'rounding', 'adjustment', 'amount', 'tendered']

/** OCR's misreadings of letters: "Tota!", "Tots|", "T0tal". */
const LOOKALIKE: Record<string, string> = { '!': 'l', '|': 'l', '1': 'l', '0': 'o', '5': 's', $: 's' }

function editDistanceAtMostOne(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false
  let i = 0
  let j = 0
  let edits = 0
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++
      j++
      continue
    }
    if (++edits > 1) return false
    if (a.length > b.length) i++
    else if (b.length > a.length) j++
    else {
      i++
      j++
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1
}

/** The label word a printed word is a one-letter misreading of ("Tatal", "Tote!", "Chenge"), or null. */
export function misreadLabelWord(word: string): string | null {
  if (word.length < 5 || !/^\p{L}/u.test(word) || !/^[\p{L}!|10$5]+$/u.test(word)) return null
  const plain = [...word.toLowerCase()].map((c) => LOOKALIKE[c] ?? c).join('')
  if (TILL_LABEL_WORDS.includes(word.toLowerCase())) return null
  const hit = TILL_LABEL_WORDS.find((w) => editDistanceAtMostOne(plain, w))
  if (!hit) return null
  return word === word.toLowerCase() ? hit : word === word.toUpperCase() ? hit.toUpperCase() : cap(hit)
}

const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1)

/**
 * A till's rows with amounts, their label words as OCR misread them repaired ("Tatal Sales" →
 * "Total Sales", "Chenge" → "Change"), so the lexicon's labels find them. Rows without an amount
 * (item names, the letterhead) are left as read.
 */
export function repairTillLabels(lines: Line[]): Line[] {
  const fix = (t: string) =>
    t.replace(/[\p{L}!|10$5]+/gu, (w, at: number) => {
      // A misread word is a word: not the tail of a number ("10.50"), not inside an amount.
      if (at > 0 && /[\d.,]/.test(t[at - 1]!)) return w
      return misreadLabelWord(w) ?? w
    })
  return lines.map((line) => {
    if (findAmounts(line.text).length === 0) return line
    const segments = line.segments.map((s) => ({ ...s, text: fix(s.text) }))
    if (segments.every((s, i) => s.text === line.segments[i]!.text)) return line
    return { ...line, text: fix(line.text), segments }
  })
}

// ---- the sum of a till's item rows ---------------------------------------------------------------

/**
 * A till whose total rows were read without their amounts ("Total Sales Incl. GST" alone on its
 * row, no labelled amount anywhere): the total is the sum of the item rows above the first such
 * row (each row's last amount, discounts negative), rounded to 5 cents when the till prints a
 * rounding row. Null when the till has a labelled amount or prints no bare total row.
 */
export function itemSum(cands: AmountCandidate[], lines: Line[]): number | null {
  if (cands.length === 0 || cands.some((c) => c.role !== 'any')) return null
  // (A row holding figures is no bare label: its amount read without its decimal point.)
  const at = lines.findIndex(
    (l) => !/\d/.test(l.text.replace(/\d{1,2}\s*%/g, '')) && labelAt('total_incl', l.text) !== null,
  )
  if (at < 0) return null
  const rows = new Map<number, AmountCandidate>()
  for (const c of cands) if (c.order < at) rows.set(c.order, c)
  if (rows.size === 0) return null
  const sum = round2([...rows.values()].reduce((a, c) => a + c.value, 0))
  if (sum <= 0) return null
  const rounding = lines.slice(at).some((l) => hasLabel('rounding', l.text))
  return rounding ? round2(Math.round(sum * 20) / 20) : sum
}

// ---- the merchant ---------------------------------------------------------------------------------

/** A token OCR made out of a logo: one letter repeated ("ooo"), or case mixed inside a word ("dEpp"). */
function noiseToken(w: string): boolean {
  const letters = w.replace(/[^\p{L}]/gu, '')
  if (letters.length === 0) return !/^\d+$/.test(w) && !/^[&().,'-]+$/.test(w)
  if (letters.length >= 3 && new Set(letters.toLowerCase()).size === 1) return true
  if (/\p{Ll}\p{Lu}/u.test(letters.slice(1)) && !/^(Mc|Mac)/.test(letters)) return true
  return letters.length <= 2 && letters === letters.toLowerCase()
}

/** Share of a line's tokens that read as OCR noise (0 for a clean line). */
export function noiseShare(text: string): number {
  const tokens = text.split(/\s+/).filter(Boolean)
  if (tokens.length === 0) return 1
  return tokens.filter(noiseToken).length / tokens.length
}

/** A name introduced as the owner's ("Owned by …", "Dimiliki oleh …"), with a legal form. */
export function ownerName(text: string): boolean {
  const m = labelAt('owner', text)
  return m !== null && /\p{L}{2}/u.test(m.rest)
}

/**
 * A till line printed under a bigger line of letters (a logo OCR read as letters) and over an
 * address line: where a till prints its merchant's name.
 */
export function underLogo(
  size: number,
  lines: Line[],
  li: number,
  addressLike: (t: string) => boolean,
): boolean {
  const next = lines[li + 1]
  const logoAbove = lines
    .slice(Math.max(0, li - 3), li)
    .some((l) => l.segments.some((s) => s.size >= size * 1.3 && /\p{L}/u.test(s.text)))
  return logoAbove && next?.segments.some((s) => addressLike(s.text)) === true
}

/**
 * A company registration number printed in the middle of a line ("MYNEWS RETAIL SB(306295-X) FKA
 * …"): the line up to the number is the name, the number noted after it.
 */
export function cutAtRegistration(text: string): string {
  const m = text.match(/^(.*?\p{L}{2}.*?)\s*([({]\s*[A-Z]{0,3}\d{4,}\s*-?\s*[A-Z]\s*[)}])\s*\S.*$/iu)
  // OCR's colon between the two words of the Malaysian legal form ("SDN: BHD").
  const t = m ? `${m[1]} (${m[2]!.slice(1, -1)})` : text
  return t.replace(/\b(SDN)[:;]\s*(BHD)\b/gi, '$1 $2')
}

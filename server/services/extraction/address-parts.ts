/**
 * The parts of an address as printed under a name (or on one line with it): streets, postcodes,
 * countries, regions, up to the contact lines. Where the address ends among them is the address
 * scorer's decision (scoring/address.ts).
 */
import { hasLabel } from './lexicon.ts'
import {
  ADDRESS_END,
  addressLike,
  CONTACT,
  COUNTRIES,
  isFieldLabel,
  POSTCODE,
  REGISTRATION_LINE,
  STREET,
} from './line-shapes.ts'
import { foldText as f, findAmounts, findDates } from './parse.ts'
import type { Line, PageText, Segment } from './pdf-text.ts'
import type { AddressPart } from './scoring/address.ts'
import type { PageModel } from './scoring/model.ts'

/** The letterhead's address lines from its first street or postcode line (its name printed as a logo). */
export function letterheadParts({ pages, lines, customer }: PageModel): AddressPart[] {
  const first = firstAddressLine(pages, lines, customer)
  return first ? addressParts(lines, lines[first.li]!, first.seg, customer, first.li) : []
}

/** The first line of the page's top (from line `from`) printing an address with a number, not the customer's. */
export function firstAddressLine(
  pages: PageText[],
  lines: Line[],
  customer: Set<Segment>,
  from = 0,
): { li: number; seg: Segment } | null {
  const page1 = pages[0]!
  for (let li = from; li < lines.length; li++) {
    const line = lines[li]!
    if (line.page !== 1 || line.y > page1.height * 0.42) break
    const seg = line.segments.find((s) => !customer.has(s) && addressLike(s.text) && /\d/.test(s.text))
    if (seg) return { li, seg }
  }
  return null
}

/** The first address line of the page's top that is not the customer's (a letterhead without its name). */
export function topAnchor(
  pages: PageText[],
  lines: Line[],
  customer: Set<Segment>,
): { line: Line; seg: Segment } | null {
  const first = firstAddressLine(pages, lines, customer, 1)
  return first ? { line: lines[first.li - 1]!, seg: first.seg } : null
}

function splitParts(text: string): string[] {
  return text
    .split(/\s[–—·•|-]\s|\s{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
}

/** Lines no wider than this (in points) are a till roll's: one column of centred lines. */
const TILL_WIDTH_PT = 4.6 * 72

/** "ADD:", "Address:" before an address line (a head office's "HO ADD:"). */
const ADDRESS_LABEL = /^.{0,8}\b(add|addr|address|adresse|anschrift)\s*[:.]\s*/i

/**
 * An address line as printed: on a till roll, OCR cuts a centred line at wide gaps ("No 8,
 * Jalan  Desa Tun Razak"), so the segments after the aligned one join it; elsewhere the aligned
 * segment alone (the rest of the row is another block).
 */
function tillRow(line: Line, seg: Segment, narrow: boolean, customer: Set<Segment>): string {
  if (!narrow) return seg.text
  const rest = line.segments.slice(line.segments.indexOf(seg) + 1)
  const joined = [seg.text]
  for (const s of rest) {
    if (customer.has(s) || !/[\p{L}\d]{2,}/u.test(s.text) || findAmounts(s.text).length > 0) break
    joined.push(s.text)
  }
  return joined.join(' ')
}

/** What a part of an address reads as: a street, a postcode, a country, a region after capitals. */
function partShape(part: string, prev: { text: string } | undefined) {
  const t = f(part)
  return {
    street: STREET.test(t) || /^\d+[a-z]?[\s,]/.test(t) || /^\p{L}[\p{L} .'-]+\s\d+[a-z]?$/u.test(t),
    // The house number starting a street line is no four-figure postcode ("1450 Pearl Street"
    // is no "9000 Gent"): the postcode is looked for past it.
    post: POSTCODE.test(STREET.test(t) ? t.replace(/^\d{1,4}[a-z]?\s+/, '') : t),
    country: COUNTRIES.test(t),
    // A region printed in the same capitals as the part before ("SELANGOR DARUL EHSAN").
    region:
      prev !== undefined &&
      part === part.toUpperCase() &&
      /^[\p{Lu} .,&()'-]+$/u.test(part) &&
      part.split(/\s+/).length <= 4 &&
      prev.text === prev.text.toUpperCase() &&
      !isFieldLabel(part),
  }
}

/** An address printed on one line with the name (a return line, a footer), in its parts. */
export function printedParts(address: string, line: Line, seg: Segment): AddressPart[] {
  const parts: AddressPart[] = []
  for (const text of address.split(/,\s*/).filter(Boolean))
    parts.push({ ...partShape(text, parts[parts.length - 1]), text, line, seg })
  return parts
}

/** No address runs longer than this many parts (lines, or the pieces of a line split at wide gaps). */
const MAX_ADDRESS_PARTS = 8

/**
 * The parts of the address printed under a name, in order: from its first street or postcode
 * line, past the postcode, up to the contact lines or a gap. Where the address ends among them is
 * the address scorer's decision (scoring/address.ts).
 */
export function addressParts(
  lines: Line[],
  nameLine: Line,
  nameSeg: Segment,
  customer: Set<Segment>,
  /** The first line read: the one under the name, or the name's own (a letterhead without one). */
  from = lines.indexOf(nameLine) + 1,
): AddressPart[] {
  // Under the name: left-, right- or centre-aligned with it, or starting left of it (a logo
  // beside the name pushes the name right of the address lines).
  const aligned = (s: Segment) =>
    Math.abs(s.x0 - nameSeg.x0) < 18 ||
    Math.abs(s.x1 - nameSeg.x1) < 18 ||
    Math.abs((s.x0 + s.x1) / 2 - (nameSeg.x0 + nameSeg.x1) / 2) < 25 ||
    (s.x0 < nameSeg.x0 && s.x1 > nameSeg.x0 - 4 && nameSeg.x0 - s.x0 < 90)
  const parts: AddressPart[] = []
  let done = false
  let lastY = nameLine.y
  const start = lines.indexOf(nameLine)
  const narrow = Math.max(...lines.filter((l) => l.page === nameLine.page).map((l) => l.x1)) < TILL_WIDTH_PT
  for (let li = from; li < lines.length && li <= start + 9 && !done; li++) {
    const line = lines[li]!
    if (line.page !== nameLine.page) break
    if (line.y - lastY > Math.max(nameSeg.size, 8) * 4) break
    // Specks read as punctuation (scans) are no address line.
    const seg = line.segments.find((s) => aligned(s) && !customer.has(s) && /[\p{L}\d]{2,}/u.test(s.text))
    if (!seg) {
      // The recipient's block in the window between the sender's name and its address.
      if (parts.length === 0 && line.segments.some((s) => aligned(s) && customer.has(s))) lastY = line.y
      continue
    }
    lastY = line.y
    for (const raw of splitParts(tillRow(line, seg, narrow, customer))) {
      // A till's decoration around a line ("****** Hauptstr. 6 ******") is no part of it.
      const part = raw.replace(ADDRESS_LABEL, '').replace(/^[*=#~_\s]+|[*=#~_\s]+$/g, '')
      if (!part) continue
      const t = f(part)
      // Contact lines and VAT-id lines (any language's label: "NIF", "P.IVA", "BTW") end an
      // address, and so do amounts and rates (a table begins).
      const table = findAmounts(line.text).length > 0 || /\d\s?%/.test(part)
      if (CONTACT.test(t) || hasLabel('vat_id', part) || ADDRESS_END.test(t) || table) {
        if (parts.length > 0) done = true
        continue
      }
      // A registration number or the date under the name is no address line.
      if (REGISTRATION_LINE.test(t) || findDates(t).length > 0) continue
      const shape = partShape(part, parts[parts.length - 1])
      if (parts.length === 0 && !(shape.street || shape.post)) continue
      parts.push({ ...shape, text: part.replace(/,$/, ''), line, seg })
      if (parts.length >= MAX_ADDRESS_PARTS) done = true
    }
  }
  return joinWrappedCountry(parts)
}

/**
 * A country wrapped from the end of an address line onto the next ("…, Manchester M1 2AB, United"
 * / "Kingdom"): the line is read as printed in one ("…, M1 2AB, United Kingdom"), the country's
 * rest is no part of its own.
 */
function joinWrappedCountry(parts: AddressPart[]): AddressPart[] {
  const out: AddressPart[] = []
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    const next = parts[i + 1]
    const tail = part.text.match(/,\s*([^,]+)$/)
    if (tail && next && next.line !== part.line && COUNTRIES.test(f(`${tail[1]} ${next.text}`))) {
      out.push({ ...part, text: `${part.text} ${next.text}` })
      i++
    } else out.push(part)
  }
  return out
}

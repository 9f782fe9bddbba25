/**
 * The companies a page names as parties outside its letterhead: the value of a supplier label,
 * the sender's return line above the address window, the company of a legal footer, the payee
 * of the bank details. Each is a candidate of the supplier's name (scoring/name.ts).
 */
import { segmentsOf, valueAfter } from './layout.ts'
import { hasLabel, labelAt } from './lexicon.ts'
import { CONTACT, hasLegalForm, isFieldLabel, isNameLike, POSTCODE, STREET } from './line-shapes.ts'
import { foldText as f } from './parse.ts'
import type { Line, PageText, Segment } from './pdf-text.ts'

/**
 * A supplier named by its label ("Supplier: Acme SARL", "Verkäufer" over "Name: …",
 * "Fournisseur" over the name): the value right of the label, next to it, or in the lines under
 * it (through a "Name:" row).
 */
export function labelledSupplier(
  lines: Line[],
  customer: Set<Segment>,
): { line: Line; seg: Segment; name: string } | null {
  for (const ref of segmentsOf(lines)) {
    if (ref.line.page !== 1 || customer.has(ref.seg)) continue
    const m = labelAt('supplier', ref.seg.text)
    if (!m) continue
    // "Lieferant GmbH" is a name, "Lieferant: X" or a lone "Lieferant" a label.
    const after = ref.seg.text.normalize('NFC').slice(m.label.length)
    if (m.rest && !/^\s*:/.test(after)) continue
    const clean = (t: string) => t.replace(/^[\s:]+/, '').trim()
    if (m.rest && isNameLike(m.rest) && !isFieldLabel(m.rest))
      return { line: ref.line, seg: ref.seg, name: clean(m.rest) }
    if (m.rest) continue
    const right = ref.line.segments[ref.si + 1]
    if (right && right.x0 - ref.seg.x1 < 150 && isNameLike(right.text) && !isFieldLabel(right.text))
      return { line: ref.line, seg: right, name: clean(right.text) }
    for (let li = ref.li + 1; li < lines.length && li <= ref.li + 5; li++) {
      const line = lines[li]!
      if (line.page !== ref.line.page || line.y - ref.line.y > ref.seg.size * 8) break
      const segs = line.segments.filter((s) => s.x0 >= ref.seg.x0 - 8 && !customer.has(s))
      const name = segs.find((s, i) => /^name\s*:?$/i.test(s.text.trim()) && segs[i + 1])
      const value = name ? segs[segs.indexOf(name) + 1]! : segs[0]
      if (!value) continue
      // Other rows of a label | value list ("Nummer: 549910") come before the name.
      if (!name && line.text.includes(':')) continue
      if (isNameLike(value.text) && !isFieldLabel(value.text)) {
        // A value set on two rows beside its label, the label level with the second row:
        // "MVM Musterhafter" over "Name:  Versicherungsverein Musterstadt a.G.".
        const next = lines[li + 1]
        const nextSegs = next?.segments ?? []
        const label = nextSegs.findIndex((s) => /^name\s*:?$/i.test(s.text.trim()))
        const cont = label >= 0 ? nextSegs[label + 1] : undefined
        if (
          !name &&
          next &&
          cont &&
          next.y - line.y < value.size * 1.6 &&
          Math.abs(cont.x0 - value.x0) < 3 &&
          isNameLike(cont.text)
        )
          return { line: next, seg: cont, name: clean(`${value.text} ${cont.text}`) }
        return { line, seg: value, name: clean(value.text) }
      }
      break
    }
  }
  return null
}

/** A company the page names somewhere, with the line and segment it is printed on. */
export interface Party {
  name: string
  /** Undefined: read from the lines under the name once chosen. */
  address: string | null | undefined
  line: Line
  seg: Segment
}

/** An IBAN printed on a line (grouped or not). */
const IBAN_SHAPE = /\b[A-Z]{2}\d{2}\s?(?:[A-Z0-9]{4}\s?){2,7}[A-Z0-9]{1,4}\b/

/**
 * The payee of the bank details ("Account holder: Acme Ltd", "Kontoinhaber: …", "Bénéficiaire"
 * over the name): a label of the lexicon's `payee` with a name as its value, an IBAN printed
 * within a few lines of it.
 */
export function payeeParty(lines: Line[], customer: Set<Segment>): Omit<Party, 'address'> | null {
  for (const ref of segmentsOf(lines)) {
    if (customer.has(ref.seg)) continue
    const m = labelAt('payee', ref.seg.text)
    if (!m) continue
    const near = lines.slice(Math.max(0, ref.li - 4), ref.li + 5).filter((l) => l.page === ref.line.page)
    if (!near.some((l) => IBAN_SHAPE.test(l.text))) continue
    const value = valueAfter(lines, ref, m.rest).find(
      (v) => isNameLike(v.replace(/^[\s:]+/, '')) && !isFieldLabel(v) && !hasLabel('payment', v),
    )
    if (!value) continue
    const name = value.replace(/^[\s:]+/, '').trim()
    // The value's own segment when it has one (the next cell, the line under), else the label's.
    const near2 = lines.slice(ref.li, ref.li + 2).flatMap((l) => l.segments.map((seg) => ({ line: l, seg })))
    const own = near2.find((x) => x.seg !== ref.seg && x.seg.text.includes(name))
    return { name, line: own?.line ?? ref.line, seg: own?.seg ?? ref.seg }
  }
  return null
}

/** The dot between a one-line party's parts, as printed or as OCR reads it ("+", "*", " : "). */
const PART_BREAK = /\s[·•|+*:]\s/
/** A footer's parts: the dot, a dash, or a comma. */
const FOOTER_BREAK = /\s[·•|+*:–—-]\s|,\s/

/**
 * The sender's return address printed on one line above the address window
 * ("Kraxi GmbH · Flugzeugallee 17 · 12345 Papierfeld"): its name and the rest as its address.
 */
export function senderLine(top: Line[]): Party | null {
  for (const line of top) {
    for (const seg of line.segments) {
      const parts = seg.text.split(PART_BREAK).map((p) => p.trim())
      if (parts.length < 3 || !parts.slice(1).some((p) => POSTCODE.test(f(p)))) continue
      const name = parts[0]!
      if (!isNameLike(name) || isFieldLabel(name)) continue
      const address = parts.slice(1).filter((p) => !CONTACT.test(f(p)))
      return { name, address: address.length > 0 ? address.join(', ') : null, line, seg }
    }
  }
  return null
}

/**
 * A footer's company that runs on into its legal mentions ("Énergie Verte SAS au capital de
 * 1 000 000 €"): its name up to its legal form, when a name goes before the form.
 */
function beforeMentions(part: string): string {
  if (!hasLabel('legal', part)) return part
  const words = part.split(/\s+/)
  for (let i = 2; i < words.length; i++) {
    const head = words.slice(0, i).join(' ')
    // The mention starts right after the form ("SAS | au capital de"), not inside it ("Entrepreneur | individuel").
    if (hasLegalForm(f(head)) && labelAt('legal', words.slice(i).join(' '))) return head
  }
  return part
}

/**
 * The company a legal footer names: the first part of a line in the lower quarter of a page
 * ("Beispiel Handels GmbH · Hafenstraße 9 · 20457 Hamburg") carrying a legal form, on a footer
 * with legal wording (register court, managing director, share capital…); its street and town
 * parts are its address.
 */
export function footerParty(pages: PageText[], lines: Line[], customer: Set<Segment>): Party | null {
  const footers = lines.filter((l) => {
    const page = pages.find((p) => p.page === l.page) ?? pages[0]!
    return l.y > page.height * 0.75
  })
  if (!footers.some((l) => hasLabel('legal', l.text))) return null
  for (const line of footers) {
    for (const seg of line.segments) {
      if (customer.has(seg)) continue
      const parts = seg.text.split(FOOTER_BREAK).map((p) => p.trim())
      const name = beforeMentions(parts[0]!)
      if (!hasLegalForm(f(name)) || !isNameLike(name) || isFieldLabel(name) || hasLabel('legal', name))
        continue
      const address = parts.slice(1).filter((p, i, all) => {
        const t = f(p)
        // A part with a house number before the postcode part is the street ("Am Markt 61").
        const street = STREET.test(t) || (/\d/.test(t) && POSTCODE.test(f(all[i + 1] ?? '')))
        return (street || POSTCODE.test(t)) && !CONTACT.test(t) && !hasLabel('legal', p)
      })
      return { name, address: address.length > 0 ? address.join(', ') : null, line, seg }
    }
  }
  return null
}

/** Second-level names of the e-mail and web addresses the document prints (not the customer's). */
export function webDomains(lines: Line[], customer: Set<Segment>): Set<string> {
  const out = new Set<string>()
  for (const ref of segmentsOf(lines)) {
    if (customer.has(ref.seg)) continue
    for (const m of f(ref.seg.text).matchAll(
      /(?:@|www\.|https?:\/\/)(?:[a-z0-9-]+\.)*?([a-z0-9-]{3,})\.[a-z]{2,6}\b/g,
    ))
      out.add(m[1]!)
  }
  return out
}

/**
 * The customer's side of the page: the segments of a recipient, billing or delivery block, a
 * DIN 5008 window under its return line, a block ending with another party's VAT id. No
 * supplier field is read from them.
 */
import { segmentsOf } from './layout.ts'
import { hasLabel, isLabel, labelAt, othersLabel } from './lexicon.ts'
import { POSTCODE } from './line-shapes.ts'
import { foldText as f } from './parse.ts'
import type { Line, PageText, Segment } from './pdf-text.ts'

const CUSTOMER_LABEL =
  /^(factur[ee]\s*a\b|adresse de facturation|adresse de livraison|bill(ed)?\s*to\b|invoice(d)?\s*to\b|ship(ped)?\s*to\b|deliver(y|ed)?\s*to\b|sold\s*to\b|client\s*:?$|client\s*:|customer\s*:?$|customer\s*:|destinataire|livr[ee] a|livraison a|recipient|your details|vos coordonnees)/

/** Segments that belong to a customer / delivery block (never the supplier's data). */
export function customerSegments(pages: PageText[], lines: Line[]): Set<Segment> {
  const marked = new Set<Segment>()
  for (const ref of segmentsOf(lines)) {
    const text = f(ref.seg.text)
    // A recipient's salutation heading a block ("Herrn", "Frau", "Mr", "Madame") opens it too.
    const salutation = ref.line.page === 1 && isLabel('salutation', ref.seg.text)
    // The lexicon's customer labels ("Kunde:", "Rechnungsempfänger"), alone or before a colon.
    const label = labelAt('customer', ref.seg.text)
    const labelled =
      label !== null &&
      // "Empfänger" in bank details is the payee, the supplier's side.
      !hasLabel('payment', ref.seg.text) &&
      (label.rest === '' || /^\s*:/.test(ref.seg.text.normalize('NFC').slice(label.label.length)))
    if (!CUSTOMER_LABEL.test(text) && !salutation && !labelled) continue
    marked.add(ref.seg)
    const right = ref.line.segments[ref.si + 1]
    const page = pages.find((p) => p.page === ref.line.page) ?? pages[0]!
    // The block ends where the next thing on the label's line starts (a second block, the
    // invoice details); a value right after "Client :" belongs to the block.
    const valueRight =
      right && right.x0 - ref.seg.x1 < page.width * 0.12 && !CUSTOMER_LABEL.test(f(right.text))
    if (valueRight) marked.add(right)
    const after = ref.line.segments[ref.si + (valueRight ? 2 : 1)]
    const column = { x0: ref.seg.x0 - 6, x1: after ? after.x0 - 4 : ref.seg.x0 + page.width * 0.45 }
    let lastY = ref.line.y
    let pitch = 0
    for (let li = ref.li + 1; li < lines.length && li <= ref.li + 8; li++) {
      const line = lines[li]!
      if (line.page !== ref.line.page || line.y - lastY > ref.seg.size * 2.6) break
      // A gap clearly wider than the block's own line spacing starts the next block.
      if (pitch > 0 && line.y - lastY > pitch * 1.6) break
      // A segment reaching past the middle of the next block's first one is that block's (a
      // right-aligned sender beside the window starts some lines left of its first).
      const inColumn = line.segments.filter(
        (s) => s.x0 >= column.x0 && s.x0 < column.x1 && !(after && s.x1 > (after.x0 + after.x1) / 2),
      )
      // Past a wide gap the row goes on in another block (a details table beside the block).
      const gap = inColumn.findIndex((s, i) => i > 0 && s.x0 - inColumn[i - 1]!.x1 > s.size * 4)
      if (gap > 0) inColumn.length = gap
      if (inColumn.length === 0) continue
      if (inColumn.some((s) => /^(designation|description|qty|quantite|libelle|date)\b/.test(f(s.text))))
        break
      // Another field's label ends the block ("Invoice # …", "Your order …" under "Customer: 2").
      if (inColumn.some((s) => labelAt('invoice_number', s.text) || labelAt('issue_date', s.text))) break
      for (const s of inColumn) marked.add(s)
      if (pitch === 0) pitch = line.y - lastY
      lastY = line.y
    }
  }
  // DIN 5008 window: a one-line return address "Name · Street · Town" sits above the recipient.
  for (const ref of segmentsOf(lines)) {
    // (The same "Name | Street | Town" in a footer is the legal footer, above nobody's address.)
    const page = pages.find((p) => p.page === ref.line.page) ?? pages[0]!
    if (ref.line.page !== 1 || ref.line.y > page.height * 0.4) continue
    const parts = ref.seg.text.split(/\s[·•|]\s/)
    if (parts.length < 3 || !parts.some((p) => POSTCODE.test(f(p)))) continue
    let lastY = ref.line.y
    for (let li = ref.li + 1; li < lines.length && li <= ref.li + 7; li++) {
      const line = lines[li]!
      if (line.y - lastY > ref.seg.size * 3.2) break
      const s = line.segments.find((x) => Math.abs(x.x0 - ref.seg.x0) < 12)
      if (!s) continue
      marked.add(s)
      lastY = line.y
    }
  }
  // A block that ends with an identifier labelled as another party's ("USt-IdNr. Kunde:
  // DE…", "Customer VAT ID") is that party's: the lines over it, in its column, up to a gap.
  for (const ref of segmentsOf(lines)) {
    if (!othersLabel('vat_id', ref.seg.text)) continue
    marked.add(ref.seg)
    let nextY = ref.line.y
    for (let li = ref.li - 1; li >= 0 && li >= ref.li - 10; li--) {
      const line = lines[li]!
      if (line.page !== ref.line.page || nextY - line.y > ref.seg.size * 2.6) break
      const s = line.segments.find((x) => Math.abs(x.x0 - ref.seg.x0) < ref.seg.size)
      if (!s) continue
      if (labelAt('supplier', s.text)) break
      marked.add(s)
      nextY = line.y
    }
  }
  return marked
}

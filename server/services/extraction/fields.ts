/**
 * The field rules: positioned lines in, Invoice / Expense fields out. Rules work on labels
 * (French and English), on the geometry of the page (columns, header, customer block) and on
 * the shape of values; nothing here knows a particular supplier or template.
 */
import { electronicFormatIBAN, getCountrySpecifications } from 'ibantools'
import { hasLabel, isLabel, labelAt, labelRank, labelsIn } from './lexicon.ts'
import { compactId, type DateOrder, dateOrder, findAmounts, findDates, foldText } from './parse.ts'
import type { Line, PageText, Segment } from './pdf-text.ts'
import { amountCandidates, decideTotals } from './totals.ts'

export interface ExtractedFields {
  invoice_number: string | null
  document_date: string | null
  business_name: string | null
  business_address: string | null
  vat_number: string | null
  iban: string | null
  currency: string | null
  has_vat: boolean
  total_vat_amount: number | null
  total_charge_excluding_vat: number | null
  total_invoice_including_vat: number | null
}

interface Ref {
  line: Line
  li: number
  si: number
  seg: Segment
}

const f = foldText

// ---- labels -------------------------------------------------------------------------------

const CUSTOMER_LABEL =
  /^(factur[ee]\s*a\b|adresse de facturation|adresse de livraison|bill(ed)?\s*to\b|invoice(d)?\s*to\b|ship(ped)?\s*to\b|deliver(y|ed)?\s*to\b|sold\s*to\b|client\s*:?$|client\s*:|customer\s*:?$|customer\s*:|destinataire|livr[ee] a|livraison a|recipient|your details|vos coordonnees)/
const TITLE_WORDS =
  /^(facture|invoice|tax invoice|receipt|recu|ticket|note de course|note de frais|devis|avoir|credit note|bill|quittance|facture acquittee|original|duplicata|copie|page \d)\b/
/** Lines that follow an address on receipts and letterheads: tax registration, till details. */
const ADDRESS_END =
  /(\bgst\b|\broc\b|\bsst\b|^[tf]\s*:|tax invoice|\binvoice\b|\breceipt\b|cashier|\bdate\b|\btable\b|\bbill\b)/
const CONTACT =
  /(\bt[ee]l\b|\btel\.|telephone|phone|\bfax\b|mobile|e-?mail|@|www\.|https?:|\bsiret\b|\bsiren\b|\brcs\b|\btva\b|\bvat\b|\bust|\blicen[cs]e\b|capital|\bape\b|\bnaf\b|\bhrb\b|company no|registered|iban|\bbic\b|swift)/
const COUNTRIES =
  /^(france|germany|deutschland|allemagne|united kingdom|uk|royaume-uni|england|belgium|belgique|belgie|switzerland|suisse|schweiz|spain|espagne|espana|italy|italie|italia|netherlands|pays-bas|nederland|luxembourg|ireland|irlande|austria|autriche|osterreich|portugal|usa|united states|united states of america|etats-unis|monaco|denmark|sweden|poland)$/
const STREET =
  /(\brue\b|\bavenue\b|\bav\.|\bboulevard\b|\bbd\b|\bplace\b|\ballee\b|\bchemin\b|\bquai\b|\bcours\b|\bimpasse\b|\broute\b|\bvoie\b|\bparvis\b|\bsquare\b|\bfaubourg\b|\bpassage\b|\bzi\b|\bza\b|\bzac\b|\blieu-dit\b|\bbp\b|\bcs\b|\bstreet\b|\bst\b|\broad\b|\brd\b|\blane\b|\bway\b|\bdrive\b|\bhouse\b|\bbuilding\b|\bfloor\b|\bsuite\b|\bunit\b|\bpark\b|\bclose\b|\bterrace\b|\bcrescent\b|\bhill\b|\bgardens?\b|\bmews\b|\bwharf\b|\bmarket\b|\bplaza\b|strasse|stra(ss|ß)e\b|allee\b|weg\b|platz\b|ring\b|gasse\b|damm\b|ufer\b|\bvia\b|\bcalle\b|\bcarrer\b|\bpiazza\b|\bcorso\b|\bjalan\b|\bjln\b|\btaman\b|\blorong\b|\bpersiaran\b|\blebuh\b|\blot\b|^no\s?[.:]?\s?\d)/
const POSTCODE =
  /(\b\d{5}\s+\p{L}|\b\d{4}\s+\p{L}{2,}|\b[a-z]{1,2}\d[a-z\d]?\s*\d[a-z]{2}\b|\b[a-z]{2}\s+\d{5}(-\d{4})?\b|\bcedex\b)/u
const LEGAL_FORM =
  /\b(sarl|sas|sasu|sa|eurl|sci|scea|scop|snc|ei|eirl|selarl|gmbh|ag|kg|ug|ohg|ltd|limited|llp|plc|inc|llc|corp|co|bv|nv|srl|spa|sl|sprl|sc|gie|association|micro-entreprise|entrepreneur|bhd|berhad|s\/b|sb|enterprise|trading|a\.g)\.?$/

// ---- helpers ------------------------------------------------------------------------------

function* segments(lines: Line[]): Generator<Ref> {
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li]!
    for (let si = 0; si < line.segments.length; si++) yield { line, li, si, seg: line.segments[si]! }
  }
}

const overlaps = (a: { x0: number; x1: number }, b: { x0: number; x1: number }, slack = 4) =>
  a.x0 <= b.x1 + slack && b.x0 <= a.x1 + slack

/**
 * The segment right of `ref` on its row. OCR may cut one printed row into lines a few points
 * apart (a label and its value in two columns): neighbouring lines whose centre is within
 * half a line of the label's count as the same row.
 */
function rightNeighbour(lines: Line[], ref: Ref): Segment | undefined {
  const own = ref.line.segments[ref.si + 1]
  if (own) return own
  const centre = ref.line.y + ref.seg.size / 2
  let best: Segment | undefined
  for (let li = Math.max(0, ref.li - 2); li <= Math.min(lines.length - 1, ref.li + 2); li++) {
    const line = lines[li]!
    if (li === ref.li || line.page !== ref.line.page) continue
    for (const s of line.segments) {
      if (Math.abs(line.y + s.size / 2 - centre) > Math.min(s.size, ref.seg.size) * 0.6) continue
      if (s.x0 < ref.seg.x1 - 1 || s.x0 - ref.seg.x1 > 300) continue
      if (!best || s.x0 < best.x0) best = s
    }
  }
  return best
}

/** The value printed after a label: rest of the segment, next segment, or the line below. */
function valueAfter(lines: Line[], ref: Ref, rest: string, opts: { below?: boolean } = {}): string[] {
  const out: string[] = []
  const r = rest.replace(/^[\s:.#°-]+/, '').trim()
  if (r) out.push(r)
  const next = rightNeighbour(lines, ref)
  if (next) out.push(next.text)
  if (opts.below !== false) {
    const below = lines[ref.li + 1]
    if (below && below.page === ref.line.page && below.y - ref.line.y < ref.seg.size * 2.5) {
      const under = below.segments.find((s) => overlaps(s, ref.seg))
      if (under) out.push(under.text)
    }
  }
  return out
}

// ---- customer block -----------------------------------------------------------------------

/** Segments that belong to a customer / delivery block (never the supplier's data). */
function customerSegments(pages: PageText[], lines: Line[]): Set<Segment> {
  const marked = new Set<Segment>()
  for (const ref of segments(lines)) {
    const text = f(ref.seg.text)
    if (!CUSTOMER_LABEL.test(text)) continue
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
    for (let li = ref.li + 1; li < lines.length && li <= ref.li + 8; li++) {
      const line = lines[li]!
      if (line.page !== ref.line.page || line.y - lastY > ref.seg.size * 2.6) break
      const inColumn = line.segments.filter((s) => s.x0 >= column.x0 && s.x0 < column.x1)
      if (inColumn.length === 0) continue
      if (inColumn.some((s) => /^(designation|description|qty|quantite|libelle|date)\b/.test(f(s.text))))
        break
      // Another field's label ends the block ("Invoice # …", "Your order …" under "Customer: 2").
      if (inColumn.some((s) => labelAt('invoice_number', s.text) || labelAt('issue_date', s.text))) break
      for (const s of inColumn) marked.add(s)
      lastY = line.y
    }
  }
  // DIN 5008 window: a one-line return address "Name · Street · Town" sits above the recipient.
  for (const ref of segments(lines)) {
    if (ref.line.page !== 1) continue
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
  return marked
}

// ---- supplier name and address ------------------------------------------------------------

function stripInitials(name: string): string {
  const m = name.match(/^([A-Z]{1,4})\s+(.+)$/)
  if (!m) return name
  const initials = m[2]!
    .split(/\s+/)
    .filter((w) => /^\p{Lu}/u.test(w))
    .map((w) => w[0])
    .join('')
  return initials.startsWith(m[1]!) ? m[2]! : name
}

function isNameLike(text: string): boolean {
  const t = f(text)
  if (t.length < 2 || t.length > 70) return false
  if (TITLE_WORDS.test(t) && t.split(/\s+/).length <= 3) return false
  if (CONTACT.test(t) || /:/.test(t)) return false
  if (/\d{3,}/.test(t) || POSTCODE.test(t) || /^\d/.test(t)) return false
  if (COUNTRIES.test(t)) return false
  if (STREET.test(t) && /\d/.test(t)) return false
  return /\p{L}{2,}/u.test(t)
}

/** A company registration line printed under a name: "(867388-U)", "Co. Reg. No: 1234", "JM0325955-V". */
const REGISTRATION_LINE =
  /^[([]?\s*(co\.?\s*(reg|no)|company\s*(no|reg)|reg\.?\s*no|roc|[a-z]{0,3}\d{5,}\s*-\s*[a-z])/i

/** Labels of other fields ("Total", "Date", "Cashier", "Tax invoice", "Page 1/1") are never a name. */
function isFieldLabel(text: string): boolean {
  const t = text.replace(/[*#:|]+/g, ' ').trim()
  return (
    labelAt('title', t) !== null ||
    labelAt('total_incl', t) !== null ||
    labelAt('issue_date', t) !== null ||
    labelAt('customer', t) !== null ||
    labelAt('invoice_number', t) !== null ||
    labelAt('not_total', t) !== null ||
    labelAt('not_name', t) !== null ||
    /^(cashier|table|server|tel|fax|time|qty|description|item|pax|member|counter|terminal|slip|receipt)\b/i.test(
      t,
    )
  )
}

/** Share of a text that reads as words (OCR noise reads as short fragments and symbols). */
function wordiness(text: string): number {
  const tokens = text.split(/\s+/).filter((w) => w && !/^[&+|·/–-]$/.test(w))
  if (tokens.length === 0) return 0
  const wordy = tokens.filter(
    (w) => /^[\p{L}][\p{L}'’.&-]*[\p{L}.]?$/u.test(w) && w.replace(/[^\p{L}]/gu, '').length >= 2,
  )
  return wordy.length / tokens.length
}

/** Whether a line reads as the start of an address or a registration line (the letterhead's body). */
function addressLike(text: string): boolean {
  const t = f(text)
  return REGISTRATION_LINE.test(t) || STREET.test(t) || POSTCODE.test(t) || /^\d+[a-z]?\s?[,\s]/.test(t)
}

/**
 * A supplier named by its label ("Supplier: Acme SARL", "Verkäufer" over "Name: …",
 * "Fournisseur" over the name): the value right of the label, next to it, or in the lines under
 * it (through a "Name:" row).
 */
function labelledSupplier(
  lines: Line[],
  customer: Set<Segment>,
): { line: Line; seg: Segment; name: string } | null {
  for (const ref of segments(lines)) {
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
      if (isNameLike(value.text) && !isFieldLabel(value.text))
        return { line, seg: value, name: clean(value.text) }
      break
    }
  }
  return null
}

/** A registration number printed after a name on its line: "(728515-M)", "862725-U", "(CO. NO. 1234-X)". */
const TRAILING_REGISTRATION =
  /\s*[([{]?\s*((co|company|reg|roc)\.?\s*(no|reg)?\.?\s*:?\s*)?[a-z]{0,3}\d[\d\s]{3,}\s*-?\s*[a-z]?\s*[)\]};:.,]*\s*$/i

/**
 * A segment as a candidate name: OCR specks around it dropped (symbols, a stray lower-case
 * letter before capitals), a registration number after it cut off (and noted), and the OCR
 * misreading of the Malaysian legal form "SDN BHD" as "SON BHD" repaired.
 */
function nameCandidate(text: string): { name: string; registration: boolean } {
  let t = text
    .replace(/[★☆*]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  const tokens = t.split(' ')
  const junk = (w: string) => !/[\p{L}\d]/u.test(w)
  while (
    tokens.length > 1 &&
    (junk(tokens[0]!) || (/^\p{Ll}$/u.test(tokens[0]!) && /^\p{Lu}{2}/u.test(tokens[1]!)))
  )
    tokens.shift()
  while (tokens.length > 1 && junk(tokens[tokens.length - 1]!)) tokens.pop()
  t = tokens.join(' ')
  const reg = t.match(TRAILING_REGISTRATION)
  const registration =
    !!reg &&
    reg.index! > 0 &&
    /\d{5,}-?[a-z]|\d{6,}/i.test(reg[0].replace(/\s/g, '')) &&
    /\p{L}{2}/u.test(t.slice(0, reg.index))
  if (registration) {
    // A number cut from its own label ("GST Reg No: …", "Co. No. …") or from an address
    // ("Lot PTD 101051") leaves no name.
    const head = f(t.slice(0, reg!.index))
    if (
      /\b(no|nos|reg|id|number|company|co|roc|lot)\b\.?\s*:?\s*$/.test(head) ||
      (addressLike(head) && !LEGAL_FORM.test(head))
    )
      return { name: '', registration: false }
    t = t.slice(0, reg!.index)
  }
  const rest = f(t)
  if (REGISTRATION_LINE.test(rest) || /^\(?\s*(gst|sst|tax|vat)\b/.test(rest))
    return { name: '', registration: false }
  t = t
    .replace(/^[^\p{L}\d(]+/u, '')
    .replace(/[\s|«»“”‘’"_~=,:;—-]+$/u, '')
    .replace(/\bS[O0]N(\.?\s*)BHD\b/g, 'SDN$1BHD')
    .trim()
  // Nothing follows a legal form but specks ("… SDN. BHD. Wr").
  const tail = t.match(/^(.*\b(?:sdn\.?\s*bhd|bhd|berhad|s\/b|ltd|gmbh|sarl)\.?)\s+(\S{1,3})$/i)
  if (tail && !/^\(.*\)$/.test(tail[2]!)) t = tail[1]!
  return { name: t, registration }
}

/** A table's column header ("Qty", "Amount Tax", "U.Price"): every word a column label. */
function isColumnHeader(text: string): boolean {
  const words = text.split(/\s+/).filter((w) => /\p{L}/u.test(w))
  return words.length > 0 && words.every((w) => isLabel('column_header', w))
}

function findSupplier(pages: PageText[], lines: Line[], customer: Set<Segment>) {
  const labelled = labelledSupplier(lines, customer)
  if (labelled)
    return {
      name: printedCase(labelled.name, lines),
      address: findAddress(lines, labelled.line, labelled.seg, customer),
    }
  const page1 = pages[0]!
  const top = lines.filter((l) => l.page === 1 && l.y < page1.height * 0.42)
  const allText = f(lines.map((l) => l.text).join('\n'))
  const maxSize = Math.max(...top.flatMap((l) => l.segments.map((s) => s.size)), 1)
  let best: { seg: Segment; line: Line; score: number; name: string } | null = null
  // The letterhead ends at its contact lines (phone, e-mail, tax registration): a company
  // printed further down is another party (a till's owner, a customer), not the letterhead's.
  const contactAt = top.findIndex(
    (l, i) => i > 0 && /\b(tel|fax|phone|mobile|e-?mail|www|gst)\b/.test(f(l.text)),
  )
  const afterLetterhead = contactAt > 0 ? top[contactAt]!.y : Number.POSITIVE_INFINITY
  for (const line of top) {
    // OCR cuts a widely spaced name into several segments ("POPULAR  BOOK"): the row read
    // as one is a candidate too.
    const joined =
      line.segments.length > 1 &&
      line.segments.every((s, i) => i === 0 || s.x0 - line.segments[i - 1]!.x1 < s.size * 3) &&
      line.segments.every((s) => !customer.has(s) && !findAmounts(s.text).length)
        ? [
            {
              text: line.segments.map((s) => s.text).join(' '),
              x0: line.segments[0]!.x0,
              x1: line.segments[line.segments.length - 1]!.x1,
              size: Math.max(...line.segments.map((s) => s.size)),
            },
          ]
        : []
    for (const seg of [...joined, ...line.segments]) {
      if (customer.has(seg)) continue
      const { name: cleaned, registration } = nameCandidate(seg.text)
      if (!cleaned || isFieldLabel(cleaned) || isColumnHeader(cleaned)) continue
      const name = stripInitials(cleaned)
      const folded = f(name)
      // A name may start with a number ("10 Gram Gourmet Sdn Bhd") when a legal form ends it.
      if (
        !isNameLike(name) &&
        !(/^\d/.test(folded) && LEGAL_FORM.test(folded) && isNameLike(name.replace(/^\d+\s+/, '')))
      )
        continue
      // A legal form alone ("Co.") is no name; "Sdn Bhd" under a name is its end (wrappedName).
      const legalOnly = LEGAL_TAIL.test(folded)
      if (!legalOnly && !/\p{L}{2,}/u.test(folded.replace(LEGAL_FORM, ''))) continue
      let score = (seg.size / maxSize) * 10
      if (LEGAL_FORM.test(folded)) score += 8
      // The company's registration number printed after the name ("Sdn Bhd (123456-X)") or
      // on the very next line.
      if (registration) score += 4
      const occurrences = allText.split(folded).length - 1
      if (occurrences >= 2) score += 5
      if (/^[A-Z]{1,5}$/.test(name)) score -= 8
      if (folded.split(/\s+/).length === 1) score -= 2
      // The letterhead: a name sits right above its address or registration line.
      const li = lines.indexOf(line)
      const below = lines
        .slice(li + 1, li + 4)
        .filter((l) => l.page === line.page && l.y - line.y < Math.max(seg.size, 8) * 4.5)
        .flatMap((l) => l.segments.filter((s) => overlaps(s, seg, 30)))
      if (below.some((s) => addressLike(s.text))) score += 4
      const next = lines[li + 1]
      if (
        !registration &&
        next &&
        next.page === line.page &&
        next.y - line.y < Math.max(seg.size, 8) * 2 &&
        next.segments.some((s) => overlaps(s, seg, 30) && REGISTRATION_LINE.test(f(s.text).trim()))
      )
        score += 3
      score -= (1 - wordiness(name)) * 8
      // Printed names carry capitals; an all-lower-case line is a stamp or handwriting.
      if (!/\p{Lu}/u.test(name)) score -= 3
      // A label of a label | value row ("Prise en charge   07:36", "Date   25/11") is no name.
      const at = line.segments.indexOf(seg)
      const right = at >= 0 ? line.segments[at + 1] : undefined
      if (right && /^[\d(+-]/.test(right.text.trim())) score -= 5
      // A name opens the letterhead: the line right above it is no address line (a line
      // under a street is the address going on: "Bandar Baru Permas", "Industrial Park").
      const above = lines
        .slice(Math.max(0, li - 2), li)
        .filter((l) => l.page === line.page && line.y - l.y < Math.max(seg.size, 8) * 2.2)
        .flatMap((l) => l.segments.filter((s) => overlaps(s, seg, 30)))
      const street = (t: string) =>
        (STREET.test(t) && /\d/.test(t)) || POSTCODE.test(t) || /^\d+[a-z]?\s?[,\s]/.test(t)
      if (above.some((s) => !REGISTRATION_LINE.test(f(s.text)) && street(f(s.text)))) score -= 6
      if (line.y > afterLetterhead) score -= 5
      score -= (line.y / page1.height) * 12
      if (!best || score > best.score) best = { seg, line, score, name }
    }
  }
  if (!best) return { name: null, address: null }
  const joined = wrappedName(lines, best)
  return {
    name: printedCase(joined.name, lines),
    address: findAddress(lines, joined.line, joined.seg, customer),
  }
}

/** A legal form alone ("SDN. BHD.", "CO. (M) SDN BHD") is the end of a name printed on two lines. */
const LEGAL_TAIL =
  /^(\([\p{L} .'-]{2,30}\)\s*)?(co\.?\s*)?(\(m\)\s*)?(sdn\.?\s*bhd\.?|bhd\.?|berhad|s\/b|gmbh|sarl|sas|ltd\.?|limited|inc\.?|llc|ag)\s*$/iu

/**
 * A name set on two lines: the line under it holding only its legal form, or the chosen line
 * being that legal form under the rest of the name.
 */
function wrappedName(lines: Line[], best: { seg: Segment; line: Line; name: string }) {
  const li = lines.indexOf(best.line)
  const near = (l: Line | undefined) =>
    l && l.page === best.line.page && Math.abs(l.y - best.line.y) < Math.max(best.seg.size, 8) * 1.8
  const over = (l: Line): Segment | undefined => {
    const one = l.segments.find((s) => overlaps(s, best.seg, 20) && isNameLike(s.text))
    // A row OCR cut into pieces ("POPULAR  BOOK") over the name's span is read whole.
    const all = l.segments
    const whole =
      all.length > 1 &&
      all.every((s, i) => i === 0 || s.x0 - all[i - 1]!.x1 < s.size * 3) &&
      all[0]!.x0 >= best.seg.x0 - 40 &&
      all[all.length - 1]!.x1 <= best.seg.x1 + 40
    if (one && whole) {
      const text = all.map((s) => s.text).join(' ')
      if (isNameLike(text)) return { ...one, text, x0: all[0]!.x0, x1: all[all.length - 1]!.x1 }
    }
    return one
  }
  if (LEGAL_TAIL.test(f(best.name).replace(/^[\w&'.-]+\s+/, '')) || LEGAL_TAIL.test(f(best.name))) {
    const above = lines[li - 1]
    const head = near(above) ? over(above!) : undefined
    if (head && LEGAL_TAIL.test(f(best.name)) && !LEGAL_FORM.test(f(head.text)))
      return { name: `${head.text} ${best.name}`, line: best.line, seg: best.seg }
    return best
  }
  const below = lines[li + 1]
  const tail = near(below) ? over(below!) : undefined
  if (tail && LEGAL_TAIL.test(f(tail.text)))
    return { name: `${best.name} ${tail.text}`, line: below!, seg: tail }
  return best
}

/**
 * A name set in capitals in a header (often styled so) is given as the document spells it in
 * running text when it does, e.g. "HOTEL BELLEVUE" and "Hôtel Bellevue — SARL au capital…".
 */
function printedCase(name: string, lines: Line[]): string {
  if (name !== name.toUpperCase() || !/\p{Lu}{2}/u.test(name)) return name
  const key = f(name)
  for (const line of lines) {
    for (const seg of line.segments) {
      const at = f(seg.text).indexOf(key)
      if (at < 0) continue
      // foldText keeps the length of plain letters; accents fold away (NFD then strip), so
      // compare on the folded text and cut the same span out of the NFC original.
      const original = seg.text.normalize('NFC')
      if (f(original).length !== original.length) continue
      const candidate = original.slice(at, at + name.length)
      const before = original[at - 1]
      const after = original[at + name.length]
      if ((before && /[\p{L}\d]/u.test(before)) || (after && /[\p{L}\d]/u.test(after))) continue
      if (candidate !== candidate.toUpperCase()) return candidate
    }
  }
  return name
}

function splitParts(text: string): string[] {
  return text
    .split(/\s[–—·•|-]\s|\s{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
}

function findAddress(lines: Line[], nameLine: Line, nameSeg: Segment, customer: Set<Segment>): string | null {
  // Under the name: left-, right- or centre-aligned with it, or starting left of it (a logo
  // beside the name pushes the name right of the address lines).
  const aligned = (s: Segment) =>
    Math.abs(s.x0 - nameSeg.x0) < 18 ||
    Math.abs(s.x1 - nameSeg.x1) < 18 ||
    Math.abs((s.x0 + s.x1) / 2 - (nameSeg.x0 + nameSeg.x1) / 2) < 25 ||
    (s.x0 < nameSeg.x0 && s.x1 > nameSeg.x0 - 4 && nameSeg.x0 - s.x0 < 90)
  const parts: string[] = []
  let started = false
  let done = false
  let lastY = nameLine.y
  const start = lines.indexOf(nameLine)
  for (let li = start + 1; li < lines.length && li <= start + 9 && !done; li++) {
    const line = lines[li]!
    if (line.page !== nameLine.page) break
    if (line.y - lastY > Math.max(nameSeg.size, 8) * 4) break
    // Specks read as punctuation (scans) are no address line.
    const seg = line.segments.find((s) => aligned(s) && !customer.has(s) && /[\p{L}\d]{2,}/u.test(s.text))
    if (!seg) continue
    lastY = line.y
    for (const part of splitParts(seg.text)) {
      const t = f(part)
      if (CONTACT.test(t) || ADDRESS_END.test(t)) {
        if (started) done = true
        continue
      }
      // A registration number or the date under the name is no address line.
      if (REGISTRATION_LINE.test(t) || findDates(t).length > 0) continue
      const isCountry = COUNTRIES.test(t)
      const isPost = POSTCODE.test(t)
      const isStreet =
        STREET.test(t) || /^\d+[a-z]?[\s,]/.test(t) || /^\p{L}[\p{L} .'-]+\s\d+[a-z]?$/u.test(t)
      if (!started && !(isStreet || isPost)) continue
      // After the postcode line: the country, or a region printed in the same capitals
      // ("SELANGOR DARUL EHSAN", "CAMERON HIGHLANDS, PAHANG"); anything else ends it.
      const region =
        parts.length > 0 &&
        part === part.toUpperCase() &&
        /^[\p{Lu} .,&()'-]+$/u.test(part) &&
        part.split(/\s+/).length <= 4 &&
        parts[parts.length - 1] === parts[parts.length - 1]!.toUpperCase() &&
        !isFieldLabel(part)
      if (
        started &&
        parts.length > 0 &&
        POSTCODE.test(f(parts[parts.length - 1]!)) &&
        !isCountry &&
        !region
      ) {
        done = true
        break
      }
      started = true
      parts.push(part.replace(/,$/, ''))
      if (isCountry) {
        done = true
        break
      }
    }
  }
  if (parts.length === 0) return null
  return parts.join(', ').replace(/\s+/g, ' ')
}

// ---- identifiers --------------------------------------------------------------------------

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

const VAT_LABEL =
  /(\btva\b|\bvat\b|\bust\b|ust-?id|mwst|\biva\b|\bbtw\b|\bnif\b|\bcif\b|tax id|vat id|vat reg)/
const OTHER_PARTY = /(\byour\b|\bvotre\b|\bclient\b|\bcustomer\b|\bbuyer\b|\bacheteur\b|\bpreneur\b)/

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

/**
 * The supplier's VAT number among the labelled ones: never one of the customer block; where
 * several remain (a customer block OCR could not delimit), the one carrying a registration
 * number printed on the document (FR: the SIREN) or printed in the supplier's own block wins.
 */
function findVat(lines: Line[], customer: Set<Segment>, supplierName: string | null): string | null {
  const found: { value: string; ref: Ref; order: number }[] = []
  for (const ref of segments(lines)) {
    const t = f(ref.seg.text)
    if (/iban|\bbic\b/.test(t)) continue
    const prev = ref.line.segments[ref.si - 1]
    const labelled = VAT_LABEL.test(t) || (prev && VAT_LABEL.test(f(prev.text)))
    if (!labelled) continue
    const values = vatCandidates(ref.seg.text)
    if (values.length === 0) continue
    const context = `${prev ? f(prev.text) : ''} ${t}`
    if (customer.has(ref.seg) || OTHER_PARTY.test(context)) continue
    for (const value of values) found.push({ value, ref, order: found.length })
  }
  if (found.length <= 1 || new Set(found.map((c) => c.value)).size === 1) return found[0]?.value ?? null
  const registrations = registrationNumbers(lines, customer)
  const name = supplierName ? f(supplierName) : null
  const score = (c: (typeof found)[number]) => {
    let n = 0
    const digits = c.value.replace(/\D/g, '')
    if (
      registrations.some(
        (r) => r.length >= 8 && (digits.includes(r.slice(0, 9)) || r.includes(digits.slice(-9))),
      )
    )
      n += 2
    if (name) {
      for (let li = Math.max(0, c.ref.li - 6); li <= c.ref.li; li++) {
        const line = lines[li]!
        if (line.page !== c.ref.line.page) continue
        if (line.segments.some((s) => overlaps(s, c.ref.seg) && f(s.text).includes(name))) {
          n += 1
          break
        }
      }
    }
    return n
  }
  return [...found].sort((a, b) => score(b) - score(a) || a.order - b.order)[0]!.value
}

const IBAN_SPECS = getCountrySpecifications()

function ibanFrom(text: string, labelled = false): string | null {
  const upper = text.toUpperCase()
  const start = upper.search(/\b[A-Z]{2}\d{2}(?=[\s0-9A-Z])/)
  if (start < 0) return null
  const country = upper.slice(start, start + 2)
  const length = IBAN_SPECS[country]?.chars
  if (!length) return null
  let out = ''
  for (const ch of upper.slice(start)) {
    if (/[A-Z0-9]/.test(ch)) out += ch
    else if (ch === '*' || ch === '•' || ch === 'X') return null
    else if (!/[\s.-]/.test(ch)) break
    if (out.length === length) break
  }
  // After an IBAN label the printed account is the IBAN even at a wrong length (its check
  // then fails and says so); bare text needs the country's exact length.
  if (out.length !== length && !(labelled && out.length >= 15 && /^[A-Z]{2}\d{2}\d/.test(out))) return null
  return electronicFormatIBAN(out) ?? out
}

function findIban(lines: Line[], customer: Set<Segment>): string | null {
  for (const ref of segments(lines)) {
    if (customer.has(ref.seg)) continue
    const t = ref.seg.text
    const at = f(t).search(/\biban\b/)
    if (at < 0) continue
    const rest = t.slice(at + 4).replace(/^[\s:.]+/, '')
    if (/\*|x{3,}/i.test(rest.slice(0, 12))) continue
    const iban = ibanFrom(rest, true) ?? ibanFrom(ref.line.segments[ref.si + 1]?.text ?? '', true)
    if (iban) return iban
  }
  return null
}

// ---- invoice number -----------------------------------------------------------------------

function cleanNumber(raw: string): string | null {
  const token = raw
    .trim()
    .split(/\s+/)[0]
    ?.replace(/[.,;:)]+$/, '')
  if (!token || token.length < 3 || token.length > 30) return null
  if (!/\d/.test(token) || !/^[A-Z0-9][A-Z0-9/_.-]*$/i.test(token)) return null
  if (findDates(token).length > 0 && /^\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}$/.test(token)) return null
  return token
}

/**
 * The invoice number: every label of the lexicon's `invoice_number` gives a candidate (its
 * value right of it, in the next segment or under it); the most specific label wins, then
 * the first printed. Look-alikes (customer, order, delivery numbers) are no label.
 */
function findInvoiceNumber(lines: Line[], customer: Set<Segment>): string | null {
  let best: { value: string; score: number } | null = null
  for (const ref of segments(lines)) {
    if (customer.has(ref.seg)) continue
    for (const hit of labelsIn('invoice_number', ref.seg.text)) {
      // A label inside running text ("… die Rechnungsnummer an.") needs its value on the spot.
      const values = hit.rest ? [hit.rest] : hit.index === 0 ? valueAfter(lines, ref, '') : []
      for (const candidate of values) {
        const value = cleanNumber(candidate)
        if (value) {
          const score = hit.rank + (hit.index === 0 ? 0.05 : 0)
          if (!best || score > best.score) best = { value, score }
          break
        }
        if (candidate.trim()) break
      }
    }
  }
  return best?.value ?? null
}

// ---- dates --------------------------------------------------------------------------------

/** The label printed before a date: in its segment, the segment left of it, or just above it. */
function dateContext(lines: Line[], ref: Ref, index: number): string {
  const own = ref.seg.text.slice(0, index)
  if (own.replace(/[\s:]/g, '').length > 0) return own
  const prev = ref.line.segments[ref.si - 1]
  if (prev) return prev.text
  const above = lines[ref.li - 1]
  const over = above?.segments.find((s) => overlaps(s, ref.seg))
  return over && ref.line.y - above!.y < ref.seg.size * 2.5 ? over.text : ''
}

/** The end of a label phrase: "Invoice date:", "Rechnung Nr. 5 vom", "München, den". */
const lastWords = (context: string) =>
  context
    .replace(/[\s:]+$/, '')
    .split(/\s{2,}|[|·•]/)
    .pop() ?? ''

/**
 * The issue date among every date printed: one labelled as the issue date (lexicon
 * `issue_date`) beats a date labelled as another one (due, delivery, order, period…); a title
 * line's date ("Rechnung Nr. 5 vom 05.03.2018", "Paris, le 3 mars 2026") counts as labelled;
 * unlabelled dates come last, the first printed first. Day and month are read in the
 * document's convention.
 */
function findIssueDate(lines: Line[], customer: Set<Segment>, order: DateOrder): string | null {
  let best: { iso: string; score: number } | null = null
  let n = 0
  for (const ref of segments(lines)) {
    if (customer.has(ref.seg)) continue
    for (const d of findDates(ref.seg.text, order)) {
      n++
      const context = lastWords(dateContext(lines, ref, d.index))
      const issue = labelAt('issue_date', context)
      const other = labelAt('other_date', context)
      let score: number
      if (issue && (!other || issue.label.length >= other.label.length))
        score = 2 + labelRank('issue_date', context)
      else if (other) score = -1
      else if (
        /(^|\s)(vom|du|of|dated|issued( at| on)?|le|den)$/i.test(context.trim()) &&
        !/\b(bis|au|to|until)\b/i.test(context)
      )
        score = hasLabel('title', context) || /,\s*(le|den)$/i.test(context.trim()) ? 2.2 : 1
      else if (hasLabel('issue_date', context) && !hasLabel('other_date', context)) score = 1.5
      else score = ref.line.segments.length < 4 && !hasLabel('other_date', context) ? 0.5 : 0
      score -= n * 0.001
      // An unlabelled date is still a candidate (honest status: FAILED only when none exists).
      if (score > -0.5 && (!best || score > best.score)) best = { iso: d.iso, score }
    }
  }
  return best?.iso ?? null
}

// ---- totals -------------------------------------------------------------------------------

/** ISO 4217 codes the runtime knows (EUR, USD, GBP, CHF, MYR, SGD, JPY…). */
const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'))
/**
 * A currency symbol as printed next to an amount ("€ 12,00", "12.00 €", "$12.00") or standing
 * alone ("Total (€)", "Total € incl. VAT"): one inside a word ("1€ML2", "Wood£heer") or before other
 * text ("$ = 6%") is an OCR misreading of a letter, no currency.
 */
const symbol = (sym: string) =>
  new RegExp(
    String.raw`(?:^|[\s(:])${sym}(?=\s?[-−]?\d[\d.,' ]*[.,]\d{2}(?!\d)|\s*\)|\s*$|\s{2}|\s\p{L})|\d[.,]\d{2}\s?${sym}(?![\p{L}\d])`,
    'u',
  )
const SYMBOLS: [RegExp, string][] = [
  [/\beuros?\b/i, 'EUR'],
  [symbol('€'), 'EUR'],
  [symbol('£'), 'GBP'],
  [/\bRM\s?\d|\bRM\b|\(RM\)/, 'MYR'],
  [symbol(String.raw`S\$`), 'SGD'],
  [/\bCHF\b|\bFr\.\s?\d/, 'CHF'],
  [symbol('¥'), 'JPY'],
  [symbol(String.raw`(?:US)?\$`), 'USD'],
]

const AMOUNT_NEAR = String.raw`\d[\d.,' ]*\d`
/**
 * The currencies a text prints: ISO codes written next to an amount ("EUR 12,00", "12.00 MYR",
 * "(USD)"), then symbols. A bare capitalised word is no code ("BHD" in "Sdn Bhd", "ALL").
 */
function currenciesIn(text: string): string[] {
  const out: string[] = []
  const re = new RegExp(
    String.raw`(?<![A-Za-z])([A-Z]{3})\s?(?=${AMOUNT_NEAR})|${AMOUNT_NEAR}\s?([A-Z]{3})(?![A-Za-z])|\(([A-Z]{3})\)|(?<![A-Za-z])(EUR|USD|GBP|CHF|MYR|SGD)(?![A-Za-z])`,
    'g',
  )
  for (const m of text.matchAll(re)) {
    const code = m[1] ?? m[2] ?? m[3] ?? m[4]
    if (code && ISO_CURRENCIES.has(code) && !out.includes(code)) out.push(code)
  }
  for (const [re, code] of SYMBOLS) if (re.test(text) && !out.includes(code)) out.push(code)
  return out
}

/**
 * The document's currency: the one printed on the total's row, else a currency label's value
 * ("Währung: EUR", "Beträge in EUR", "Currency"), else the one most rows with amounts print.
 * Null when the document prints none: no currency is assumed.
 */
function findCurrency(lines: Line[], totalText: string | null): string | null {
  const fromTotal = totalText ? currenciesIn(totalText)[0] : undefined
  // A bare "$" names no one currency (and OCR reads S or 5 as "$"): a currency the document
  // spells out elsewhere ("RM", "EUR", "(MYR)") decides.
  const bareDollar = (t: string) => !/\bUSD\b|US\$/.test(t)
  if (fromTotal && !(fromTotal === 'USD' && bareDollar(totalText!))) return fromTotal
  if (fromTotal) {
    const other = lines.flatMap((l) => currenciesIn(l.text)).find((c) => c !== 'USD')
    return other ?? fromTotal
  }
  for (const line of lines) {
    const m = line.text.match(
      /\b(w[aä]hrung|currency|devise|monnaie|betr[aä]ge in|amounts in|montants en)\b\s*:?\s*(.*)$/i,
    )
    const code = m ? currenciesIn(m[2]!)[0] : undefined
    if (code) return code
  }
  // Rows with amounts count fully; others (a column header "Netto EUR") half.
  const counts = new Map<string, number>()
  for (const line of lines) {
    const weight = findAmounts(line.text).length > 0 ? 1 : 0.5
    for (const c of currenciesIn(line.text)) counts.set(c, (counts.get(c) ?? 0) + weight)
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]).map(([c]) => c)
  if (ranked[0] === 'USD' && ranked.length > 1 && lines.every((l) => bareDollar(l.text))) return ranked[1]!
  return ranked[0] ?? null
}

// ---- OCR accents --------------------------------------------------------------------------

/** A German or Austrian supplier: by its VAT number or the country ending its address. */
function germanSupplier(address: string | null, vat: string | null): boolean {
  if (vat && /^(DE|ATU)/.test(vat)) return true
  return address !== null && /(germany|deutschland|allemagne|austria|osterreich|autriche)$/.test(f(address))
}

/**
 * German has no circumflex: OCR models trained on French read ö, ü, ä as ô, û, â. In a German
 * supplier's name and address they are the umlauts.
 */
function umlauts(text: string | null): string | null {
  if (text === null) return null
  const map: Record<string, string> = { ô: 'ö', û: 'ü', â: 'ä', Ô: 'Ö', Û: 'Ü', Â: 'Ä' }
  return text.normalize('NFC').replace(/[ôûâÔÛÂ]/g, (c) => map[c] ?? c)
}

// ---- entry point --------------------------------------------------------------------------

/**
 * OCR sets a space after the decimal point of some amounts ("164. 80"): read as one amount.
 * Only a point followed by exactly two digits and no further number is joined.
 */
function joinSplitAmounts(line: Line): Line {
  const fix = (t: string) => t.replace(/(\d)\. (\d{2})(?![\d.,])/g, '$1.$2')
  if (!/\d\. \d{2}/.test(line.text)) return line
  return { ...line, text: fix(line.text), segments: line.segments.map((s) => ({ ...s, text: fix(s.text) })) }
}

export function extractFields(pages: PageText[]): ExtractedFields {
  const lines = pages.flatMap((p) => p.lines).map(joinSplitAmounts)
  const customer = customerSegments(pages, lines)
  const allText = f(lines.map((l) => l.text).join('\n'))
  const hasVat =
    !/(tva non applicable|293\s*b|vat not applicable|not subject to vat|no vat charged|exonere de tva|exoneration de tva|vat exempt|franchise en base)/.test(
      allText,
    )
  const supplier = findSupplier(pages, lines, customer)
  const vatNumber = findVat(lines, customer, supplier.name)
  const german = germanSupplier(supplier.address, vatNumber)
  const totals = decideTotals(
    amountCandidates(lines, (s) => customer.has(s)),
    hasVat,
  )
  return {
    invoice_number: findInvoiceNumber(lines, customer),
    document_date: findIssueDate(lines, customer, dateOrder(lines.map((l) => l.text).join('\n'))),
    business_name: german ? umlauts(supplier.name) : supplier.name,
    business_address: german ? umlauts(supplier.address) : supplier.address,
    vat_number: vatNumber,
    iban: findIban(lines, customer),
    currency: findCurrency(lines, totals.inclText),
    has_vat: hasVat,
    total_vat_amount: totals.vat,
    total_charge_excluding_vat: totals.excl,
    total_invoice_including_vat: totals.incl,
  }
}

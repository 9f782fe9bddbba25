import { decideIban, decideVatId } from './identifiers.ts'
import { overlaps, segmentsOf, valueAfter } from './layout.ts'
import { hasLabel, isLabel, labelAt, othersLabel } from './lexicon.ts'
import { dateOrder, findAmounts, findDates, foldText } from './parse.ts'
import type { Line, PageText, Segment } from './pdf-text.ts'
import {
  cutAtRegistration,
  isTillReceipt,
  itemSum,
  noiseShare,
  ownerName,
  repairTillLabels,
  underLogo,
} from './receipt.ts'
import { type AddressPart, type AddressReading, addressCandidates, decideAddress } from './scoring/address.ts'
import { decideCurrency } from './scoring/currency.ts'
import { decideIssueDate } from './scoring/dates.ts'
import { decideHasVat } from './scoring/has-vat.ts'
import { decideInvoiceNumber } from './scoring/invoice-number.ts'
import {
  type Candidate,
  type Decision,
  decide,
  type Evidence,
  type Feature,
  flag,
  type Models,
  modelOf,
  type PageModel,
} from './scoring/model.ts'
import { placeOf } from './scoring/place.ts'
import { decideTotals } from './scoring/totals.ts'
import { type AmountCandidate, amountCandidates } from './totals.ts'

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
  /**
   * Where the fields a fitted scorer decided were read, and how sure it is (see scoring/):
   * field name (`document_date`, …) → page, box, confidence and alternatives.
   */
  evidence?: Partial<Record<EvidenceField, Evidence<string> | Evidence<number> | Evidence<boolean>>>
}

/** The fields whose place a fitted scorer gives. */
type EvidenceField =
  | 'document_date'
  | 'invoice_number'
  | 'business_name'
  | 'business_address'
  | 'vat_number'
  | 'iban'
  | 'currency'
  | 'has_vat'
  | 'total_invoice_including_vat'
  | 'total_charge_excluding_vat'
  | 'total_vat_amount'

const f = foldText

// ---- labels -------------------------------------------------------------------------------

const CUSTOMER_LABEL =
  /^(factur[ee]\s*a\b|adresse de facturation|adresse de livraison|bill(ed)?\s*to\b|invoice(d)?\s*to\b|ship(ped)?\s*to\b|deliver(y|ed)?\s*to\b|sold\s*to\b|client\s*:?$|client\s*:|customer\s*:?$|customer\s*:|destinataire|livr[ee] a|livraison a|recipient|your details|vos coordonnees)/
const TITLE_WORDS =
  /^(facture|invoice|tax invoice|receipt|recu|ticket|note de course|note de frais|devis|avoir|credit note|bill|quittance|facture acquittee|original|duplicata|copie|page \d)\b/
/** Lines that follow an address on receipts and letterheads: tax registration, till details. */
const ADDRESS_END =
  /(\b[g65]st\b|:\s*[\d(+][\d\s()/-]{6,}|^[^\p{L}]*\d{2,4}[\s-]\d{3,4}[\s-]?\d{3,5}[^\p{L}]*$|\broc\b|\bsst\b|^[tf]\s*:|tax invoice|\binvoice\b|\breceipt\b|cashier|\bdate\b|\btable\b|\bbill\b)/u
const CONTACT =
  /(\bt[ee]l\b|\btel\.|telephone|phone|\bfax\b|mobile|e-?mail|@|www\.|https?:|\bsiret\b|\bsiren\b|\brcs\b|\btva\b|\bvat\b|\bust|\blicen[cs]e\b|capital|\bape\b|\bnaf\b|\bhrb\b|company no|registered|iban|\bbic\b|swift)/
const COUNTRIES =
  /^(france|germany|deutschland|allemagne|united kingdom|uk|royaume-uni|england|belgium|belgique|belgie|switzerland|suisse|schweiz|spain|espagne|espana|italy|italie|italia|netherlands|pays-bas|nederland|luxembourg|ireland|irlande|austria|autriche|osterreich|portugal|usa|united states|united states of america|etats-unis|monaco|denmark|sweden|poland)$/
const STREET =
  /(\brue\b|\bavenue\b|\bav\.|\bboulevard\b|\bbd\b|\bplace\b|\ballee\b|\bchemin\b|\bquai\b|\bcours\b|\bimpasse\b|\broute\b|\bvoie\b|\bparvis\b|\bsquare\b|\bfaubourg\b|\bpassage\b|\bzi\b|\bza\b|\bzac\b|\blieu-dit\b|\bbp\b|\bcs\b|\bstreet\b|\bst\b|\broad\b|\brd\b|\blane\b|\bway\b|\bdrive\b|\bhouse\b|\bbuilding\b|\bfloor\b|\bsuite\b|\bunit\b|\bpark\b|\bclose\b|\bterrace\b|\bcrescent\b|\bhill\b|\bgardens?\b|\bmews\b|\bwharf\b|\bmarket\b|\bplaza\b|\bmall\b|\bmegamall\b|\bcentre\b|\bcenter\b|\bwisma\b|\bmenara\b|\bkompleks\b|\bcomplex\b|\blevel\b|\bblk\b|\bblock\b|\btingkat\b|strasse|stra(ss|ß)e\b|str[.;]\s*\d|allee\b|weg\b|platz\b|markt\b|ring\b|gasse\b|damm\b|ufer\b|\bvia\b|\bcalle\b|\bcarrer\b|\bpiazza\b|\bcorso\b|\bjalan\b|\bjln\b|\btaman\b|\blorong\b|\bpersiaran\b|\blebuh\b|\blot\b|^c\/\s?[a-z]|^no\s?[.:]?\s?\d)/
const POSTCODE =
  /(\b\d{5}\s+\p{L}|\p{L}.*[\s,]\d{5},?$|\b\d{4}\s+\p{L}{2,}|\b[a-z]{1,2}\d[a-z\d]?\s*\d[a-z]{2}\b|\b[a-z]{2}\s+\d{5}(-\d{4})?\b|\bcedex\b)/u
const LEGAL_FORM =
  /(\b(sarl|sas|sasu|sa|eurl|sci|scea|scop|snc|ei|eirl|selarl|gmbh|ag|kg|ug|ohg|ltd|limited|llp|plc|inc|llc|corp|co|bv|nv|srl|spa|sl|sprl|sc|gie|association|micro-entreprise|entrepreneur|bhd|berhad|s\/b|sb|enterprise|trading|a\.g|e\.\s?k)\.?|\bug\s*\(haftungsbeschrankt\))$/

// ---- helpers ------------------------------------------------------------------------------

const segments = segmentsOf

// ---- customer block -----------------------------------------------------------------------

/** Segments that belong to a customer / delivery block (never the supplier's data). */
function customerSegments(pages: PageText[], lines: Line[]): Set<Segment> {
  const marked = new Set<Segment>()
  for (const ref of segments(lines)) {
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
  for (const ref of segments(lines)) {
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
  for (const ref of segments(lines)) {
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
  // A street word and a figure make an address line, unless the line ends in a legal form: a
  // company named after a place ("… Centre (M) Sdn. Bhd.", a figure misread in it).
  if (STREET.test(t) && /\d/.test(t) && !LEGAL_FORM.test(t)) return false
  return /\p{L}{2,}/u.test(t)
}

/** A company registration line printed under a name: "(867388-U)", "Co. Reg. No: 1234", "JM0325955-V". */
const REGISTRATION_LINE =
  /^[([]?\s*(co\.?\s*(reg|no)|company\s*(no|reg)|reg\.?\s*no|roc|[a-z]{0,3}\d{5,}\s*-\s*[a-z])/i

/** Labels of other fields ("Total", "Date", "Cashier", "Tax invoice", "Page 1/1") are never a name. */
function isFieldLabel(text: string): boolean {
  const t = text.replace(/[*#:|]+/g, ' ').trim()
  return (
    isLabel('other_date', t) ||
    labelAt('title', t) !== null ||
    labelAt('total_incl', t) !== null ||
    labelAt('issue_date', t) !== null ||
    labelAt('customer', t) !== null ||
    labelAt('invoice_number', t) !== null ||
    labelAt('not_total', t) !== null ||
    labelAt('not_name', t) !== null ||
    labelAt('buyer_reference', t) !== null ||
    labelAt('vat_id', t) !== null ||
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

/** A house number before a street's name ("5, Jalan", "12a rue"), not an amount ("1,19 €", "2x 4,50"). */
const HOUSE_NUMBER = /^\d+[a-z]?\s?,?\s*[a-z]{2}/

/** Whether a line reads as the start of an address or a registration line (the letterhead's body). */
function addressLike(text: string): boolean {
  const t = f(text)
  return REGISTRATION_LINE.test(t) || STREET.test(t) || POSTCODE.test(t) || HOUSE_NUMBER.test(t)
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

/** A registration number printed after a name on its line: "(728515-M)", "862725-U", "(CO. NO. 1234-X)". */
const TRAILING_REGISTRATION =
  /\s*[([{]?\s*((co|company|reg|roc)\.?\s*(no|reg)?\.?\s*:?\s*)?[a-z]{0,3}\d[\d\s]{3,}\s*-?\s*[a-z]?\s*[)\]};:.,]*\s*$/i

/**
 * A segment as a candidate name: OCR specks around it dropped (symbols, a stray lower-case
 * letter before capitals), a registration number after it cut off (and noted), and the OCR
 * misreading of the Malaysian legal form "SDN BHD" as "SON BHD" repaired.
 */
function nameCandidate(text: string): { name: string; registration: boolean } {
  let t = cutAtRegistration(letterI(text))
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
    .replace(
      /\b(SDN\.?\s*)(EMD|BND|8HD|i3HD|BH0|BHO)\b/gi,
      (_, sdn: string) => `${sdn}${sdn.startsWith('s') ? 'bhd' : 'BHD'}`,
    )
    .replace(/\bS[i1l]n(\.?\s*)Bhd\b/g, 'Sdn$1Bhd')
    // Malaysia's "Sdn Bhd" as OCR mangles its first word: "SON, BHD", "SC! : BHD", "Shn Bhd".
    .replace(
      /\bS([\p{L}!|10]{1,2})([.,]?)\s*[:;]?\s*(BHD|Bhd)\b/gu,
      (m, mid: string, dot: string, bhd: string) =>
        /^dn$/i.test(mid) ? m : `${bhd === 'BHD' ? 'SDN' : 'Sdn'}${dot ? '.' : ''} ${bhd}`,
    )
    .split(' ')
    .map(letterO)
    .join(' ')
    .trim()
  // Nothing follows a legal form but specks ("… SDN. BHD. Wr").
  const tail = t.match(/^(.*\b(?:sdn\.?\s*bhd|bhd|berhad|s\/b|ltd|gmbh|sarl)\.?)\s+(\S{1,3})$/i)
  if (tail && !/^\(.*\)$/.test(tail[2]!)) t = tail[1]!
  // Nor a trade word ending a name ("YONG ENTERPRISE FO TE"): one or two specks of one or two
  // letters after it are a stamp's or a logo's, unless a legal form ("TRADING CO").
  const words = t.split(' ')
  for (let n = 2; n >= 1; n--) {
    const specks = words.slice(-n)
    const end = words.slice(0, -n)
    if (
      end.length >= 2 &&
      specks.every((w) => /^\p{L}{1,2}$/u.test(w) && !LEGAL_FORM.test(f(w))) &&
      (hasLabel('trade_word', end[end.length - 1]!) || LEGAL_FORM.test(f(end.join(' '))))
    ) {
      t = end.join(' ')
      break
    }
  }
  return { name: t, registration }
}

/**
 * OCR's "|" or "!" for the letter I ending a word of capitals or inside one ("JIAWE|", "DAMA!"),
 * its "|" or "]" for an l ending a word in lower case ("Petro]").
 */
function letterI(text: string): string {
  return text
    .replace(/(?<=\p{Lu}{2})[|!](?=\s|$|\p{Lu})/gu, 'I')
    .replace(/(?<=\p{Lu}\p{Ll}+)[|\]](?=\s|$)/gu, 'l')
}

/** A zero OCR read for the letter O in a word of capitals ("HAI-0", "H0TEL"); numbers keep theirs. */
function letterO(word: string): string {
  if (!/0/.test(word) || /[1-9]/.test(word) || (word.match(/\p{Lu}/gu) ?? []).length < 2) return word
  return /^[\p{Lu}'&.-]*0[\p{Lu}0'&.-]*$/u.test(word) ? word.replace(/0/g, 'O') : word
}

/** A table's column header ("Qty", "Amount Tax", "U.Price"): every word a column label. */
function isColumnHeader(text: string): boolean {
  const words = text.split(/\s+/).filter((w) => /\p{L}/u.test(w))
  return (
    isLabel('amount_column', text) ||
    (words.length > 0 && words.every((w) => isLabel('column_header', w) || isLabel('amount_column', w)))
  )
}

/** A company the page names somewhere, with the line and segment it is printed on. */
interface Party {
  name: string
  /** Undefined: read from the lines under the name once chosen. */
  address: string | null | undefined
  line: Line
  seg: Segment
}

/** A line (or a segment of one) at the top of the first page that may print the supplier's name. */
interface NameSite {
  seg: Segment
  line: Line
  li: number
  name: string
  folded: string
  /** Its registration number printed after it ("Sdn Bhd (123456-X)"). */
  registration: boolean
  till: boolean
  ctx: NameContext
  /** Where on the page the name was found: a top line, or a party the page names in other ways. */
  source: NameSource
  /** The address printed with it, when its source gives one (a return line, a legal footer). */
  address?: string | null
}

/**
 * The top lines of the first page; the value of a supplier label; the sender's return line above
 * the address window; the company a legal footer names; the payee of the bank details; on a till,
 * a company line (a legal form ending it) printed below the top, its letterhead being a logo.
 */
type NameSource = 'top' | 'label' | 'sender' | 'footer' | 'payee' | 'closing'

interface NameContext {
  lines: Line[]
  pages: PageText[]
  page1: PageText
  maxSize: number
  allText: string
  sender: Party | null
  /** The names (folded) of the companies the page names as parties: label, return line, footer, payee. */
  parties: string[]
  /** The lines carrying legal mentions (registrations, share capital), folded. */
  legalLines: string[]
  domains: Set<string>
  afterLetterhead: number
}

/** A row of words then an amount (a till's item), not a date or a time. */
function pricedRow(line: Line): boolean {
  const last = line.segments[line.segments.length - 1]
  return (
    line.segments.length > 1 &&
    /\p{L}{2}/u.test(line.segments[0]!.text) &&
    last !== undefined &&
    findAmounts(last.text).length > 0 &&
    findDates(line.text).length === 0 &&
    !/\d:\d\d/.test(line.text)
  )
}

/** Candidates for the supplier's name among the top lines of the first page, with what their features read. */
function nameSites(pages: PageText[], lines: Line[], customer: Set<Segment>, till: boolean) {
  const page1 = pages[0]!
  const upper = lines.filter((l) => l.page === 1 && l.y < page1.height * 0.42)
  // A till prints its header (name, address) before its items: a line below its first priced row
  // is an item ("ERFRISCHUNGSSTÄBCHEN 1,59 €" OCR read large), not the merchant, and no measure of
  // the header's type size. (None of the 38 such lines of the training tills is their merchant.)
  const firstItem = till ? upper.find(pricedRow) : undefined
  const top = firstItem ? upper.filter((l) => l.y <= firstItem.y) : upper
  // The letterhead ends at its contact lines (phone, e-mail, tax registration): a company
  // printed further down is another party (a till's owner, a customer), not the letterhead's.
  const contactAt = top.findIndex(
    (l, i) => i > 0 && /\b(tel|fax|phone|mobile|e-?mail|www|gst)\b/.test(f(l.text)),
  )
  const ctx: NameContext = {
    lines,
    pages,
    page1,
    maxSize: Math.max(...top.flatMap((l) => l.segments.map((s) => s.size)), 1),
    allText: f(lines.map((l) => l.text).join('\n')),
    sender: senderLine(top),
    parties: [],
    legalLines: lines.filter((l) => hasLabel('legal', l.text)).map((l) => f(l.text)),
    domains: webDomains(lines, customer),
    afterLetterhead: contactAt > 0 ? top[contactAt]!.y : Number.POSITIVE_INFINITY,
  }
  const list: NameSite[] = []
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
        !(/^\d/.test(folded) && LEGAL_FORM.test(folded) && isNameLike(name.replace(/^\d+\s+/, ''))) &&
        !(till && ownerName(name) && LEGAL_FORM.test(folded))
      )
        continue
      // A legal form alone ("Co.") is no name; "Sdn Bhd" under a name is its end (wrappedName).
      const legalOnly = LEGAL_TAIL.test(folded)
      if (!legalOnly && !/\p{L}{2,}/u.test(folded.replace(LEGAL_FORM, ''))) continue
      list.push({ seg, line, li: lines.indexOf(line), name, folded, registration, till, ctx, source: 'top' })
    }
  }
  return { list, ctx }
}

const nameWords = (t: string) =>
  f(t)
    .split(/[^\p{L}\d]+/u)
    .filter(Boolean)

/** Two names of one company: the words of the shorter all in the longer ("Muster GmbH", "Muster Software GmbH"). */
function sameParty(a: string, b: string): boolean {
  const [x, y] = [nameWords(a), nameWords(b)].sort((p, q) => p.length - q.length)
  return x!.length > 0 && x!.every((w) => y!.includes(w))
}

/** A name all of whose words are the company's ("Muster GmbH" of "Muster Software GmbH"), not one with more. */
function partOf(part: string, name: string): boolean {
  const words = nameWords(name)
  const own = nameWords(part)
  return own.length > 0 && own.every((w) => words.includes(w))
}

/** A party the page names (a label's value, a return line, a legal footer, a payee) as a name site. */
function partySite(ctx: NameContext, source: NameSource, party: Party, till: boolean): NameSite {
  const name = party.name.replace(/^[\s:]+/, '').trim()
  return {
    seg: party.seg,
    line: party.line,
    li: ctx.lines.indexOf(party.line),
    name,
    folded: f(name),
    registration: false,
    till,
    ctx,
    source,
    address: party.address,
  }
}

/** Every site that may name the supplier: the top lines and the parties the page names. */
function supplierSites(pages: PageText[], lines: Line[], customer: Set<Segment>, till: boolean): NameSite[] {
  const { list, ctx } = nameSites(pages, lines, customer, till)
  const labelled = labelledSupplier(lines, customer)
  const payee = payeeParty(lines, customer)
  const parties: [NameSource, Party | null][] = [
    ['label', labelled && { ...labelled, address: undefined }],
    ['sender', ctx.sender],
    ['footer', footerParty(pages, lines, customer)],
    ['payee', payee && { ...payee, address: undefined }],
  ]
  for (const [source, party] of parties)
    if (party) {
      list.push(partySite(ctx, source, party, till))
      ctx.parties.push(f(party.name))
    }
  if (till) list.push(...closingSites(ctx, customer))
  return list
}

/**
 * On a till whose letterhead is a logo (its first line is already the address), the company
 * lines below the top: a line of its own ended by a legal form ("REWE Markt GmbH").
 */
function closingSites(ctx: NameContext, customer: Set<Segment>): NameSite[] {
  const { lines, page1 } = ctx
  if (firstAddressLine(ctx.pages, lines, customer)?.li !== 0) return []
  const out: NameSite[] = []
  lines.forEach((line, li) => {
    if (line.page === 1 && line.y < page1.height * 0.42) return
    if (line.segments.length !== 1 || customer.has(line.segments[0]!)) return
    const seg = line.segments[0]!
    const name = seg.text.trim()
    const folded = f(name)
    if (!LEGAL_FORM.test(folded) || LEGAL_TAIL.test(folded) || !isNameLike(name) || isFieldLabel(name)) return
    if (hasLabel('legal', name) || findAmounts(name).length > 0) return
    out.push({ seg, line, li, name, folded, registration: false, till: true, ctx, source: 'closing' })
  })
  return out
}

/** The segments of the lines within `rows` after (or before, when negative) a site's line, under it. */
function around(site: NameSite, from: number, to: number, reach: number): Segment[] {
  const { lines } = site.ctx
  return lines
    .slice(Math.max(0, site.li + from), site.li + to)
    .filter(
      (l) => l.page === site.line.page && Math.abs(l.y - site.line.y) < Math.max(site.seg.size, 8) * reach,
    )
    .flatMap((l) => l.segments.filter((s) => overlaps(s, site.seg, 30)))
}

const streetLike = (t: string) => (STREET.test(t) && /\d/.test(t)) || POSTCODE.test(t) || HOUSE_NUMBER.test(t)

type NameFeature = Feature<[s: NameSite]>
const yes = flag<[s: NameSite]>

/** The supplier name's features, each a small named measure; their weights are in weights.json. */
export const NAME_FEATURES: readonly NameFeature[] = [
  {
    name: 'type_size',
    doc: "its type size against the top's largest",
    of: (s) => s.seg.size / s.ctx.maxSize,
  },
  yes('legal_form', 'the name it gives ends with a legal form (SARL, GmbH, Ltd, Sdn Bhd…)', (s) =>
    LEGAL_FORM.test(f(givenName(s))),
  ),
  yes('registration_after', 'its registration number is printed after it', (s) => s.registration),
  yes(
    'printed_again',
    'the same name is printed elsewhere on the document',
    (s) => s.ctx.allText.split(s.folded).length - 1 >= 2,
  ),
  yes('short_capitals', 'one to five capitals and nothing else (initials, a code)', (s) =>
    /^[A-Z]{1,5}$/.test(s.name),
  ),
  yes('one_word', 'the name it gives is a single word', (s) => f(givenName(s)).split(/\s+/).length === 1),
  yes('street_line', 'it reads as a street or a postcode and town (an address line, not a name)', (s) =>
    streetLike(s.folded),
  ),
  yes('address_below', 'an address line is printed right under it', (s) =>
    around(s, 1, 4, 4.5).some((g) => addressLike(g.text)),
  ),
  yes(
    'till_owner',
    'on a till, a line naming its owner company ("Owned by …")',
    (s) => s.till && ownerName(s.name),
  ),
  yes(
    'till_trade_word',
    'on a till, a trade word (ENTERPRISE, TRADING, RESTORAN)',
    (s) => s.till && hasLabel('trade_word', s.name),
  ),
  yes(
    'till_under_logo',
    'on a till, under a bigger line (a logo read as letters) and over an address',
    (s) => s.till && underLogo(s.seg.size, s.ctx.lines, s.li, addressLike),
  ),
  {
    name: 'till_noise',
    doc: 'on a till, the share of it OCR noise (symbols, lone letters), 0 off tills',
    of: (s) => (s.till ? noiseShare(s.name) : 0),
  },
  yes('registration_next_line', 'a registration line right under it', (s) => {
    const next = s.ctx.lines[s.li + 1]
    return (
      !s.registration &&
      next !== undefined &&
      next.page === s.line.page &&
      next.y - s.line.y < Math.max(s.seg.size, 8) * 2 &&
      next.segments.some((g) => overlaps(g, s.seg, 30) && REGISTRATION_LINE.test(f(g.text).trim()))
    )
  }),
  {
    name: 'not_words',
    doc: 'the share of it that does not read as words (OCR noise)',
    of: (s) => 1 - wordiness(s.name),
  },
  yes('no_capital', 'no capital letter (a stamp, handwriting)', (s) => !/\p{Lu}/u.test(s.name)),
  yes('label_of_row', 'a figure follows it on its row (the label of a label | value row)', (s) => {
    const at = s.line.segments.indexOf(s.seg)
    const right = at >= 0 ? s.line.segments[at + 1] : undefined
    return right !== undefined && /^[\d(+-]/.test(right.text.trim())
  }),
  yes('under_street', 'a street or postcode line right above it (the address going on)', (s) =>
    around(s, -2, 0, 2.2).some((g) => !REGISTRATION_LINE.test(f(g.text)) && streetLike(f(g.text))),
  ),
  yes(
    'under_postcode_on_till',
    "on a till, a postcode line above it (a station's operator)",
    (s) => s.till && around(s, -4, 0, 5).some((g) => POSTCODE.test(f(g.text))),
  ),
  yes(
    'after_contacts',
    "printed after the letterhead's contact lines (phone, e-mail)",
    (s) => s.line.y > s.ctx.afterLetterhead,
  ),
  {
    name: 'height_on_page',
    doc: "a top line's height on the first page, 0 (top) to 1; 0 for a party named elsewhere",
    of: (s) => (s.source === 'top' || s.source === 'closing' ? s.line.y / s.ctx.page1.height : 0),
  },
  yes(
    'sender_line',
    "the sender's one-line return address above the window names it",
    (s) => s.ctx.sender !== null && f(s.ctx.sender.name) === s.folded,
  ),
  yes('web_domain', "the document's e-mail or web address carries it", (s) => {
    const words = s.folded.split(/[^\p{L}\d]+/u).filter((w) => w.length >= 4)
    const squashed = s.folded.replace(LEGAL_FORM, '').replace(/[^\p{L}\d]+/gu, '')
    return [...s.ctx.domains].some(
      (d) =>
        words.some((w) => d.split('-').includes(w)) ||
        (squashed.length >= 6 && d.replace(/-/g, '') === squashed),
    )
  }),
  yes(
    'legal_mentions',
    'printed on a line of legal mentions (share capital, registrations), its own line aside',
    (s) => {
      const core = s.folded.replace(LEGAL_FORM, '').trim()
      const own = f(s.line.text)
      return core.length >= 3 && s.ctx.legalLines.some((l) => l !== own && l.includes(core))
    },
  ),
  {
    name: 'across_page',
    doc: "its centre across the page's width, 0 (left) to 1",
    of: (s) => {
      const page = s.ctx.pages.find((p) => p.page === s.line.page) ?? s.ctx.page1
      return (s.seg.x0 + s.seg.x1) / 2 / page.width
    },
  },
  yes(
    'named_party',
    'a company the page names as a party (label, return line, legal footer, payee)',
    (s) => s.source !== 'top' && s.source !== 'closing',
  ),
  yes(
    'other_party_named',
    'a top line while the page names another company (a legal form) as a party',
    (s) => s.source === 'top' && s.ctx.parties.some((p) => LEGAL_FORM.test(p) && !sameParty(p, s.folded)),
  ),
  yes(
    'party_agrees',
    'a top line naming the company a party names too (in full or in part)',
    (s) => s.source === 'top' && s.ctx.parties.some((p) => sameParty(p, s.folded)),
  ),
  yes(
    'named_by_label',
    'the value of a supplier label ("Supplier:", "Fournisseur", "Verkäufer")',
    (s) => s.source === 'label',
  ),
  yes(
    'return_line',
    "the name on the sender's return line above the address window",
    (s) => s.source === 'sender',
  ),
  yes('legal_footer', 'the company a legal footer names with its address', (s) => s.source === 'footer'),
  yes('bank_payee', 'the payee of the bank details', (s) => s.source === 'payee'),
  yes(
    'closing_line',
    'on a till, a company line below the top (the letterhead a logo)',
    (s) => s.source === 'closing',
  ),
]

const nameFeatures = (site: NameSite) => NAME_FEATURES.map((feature) => feature.of(site))

const given = new WeakMap<NameSite, string>()

/** The name a site gives (siteName), worked out once per site. */
function givenName(site: NameSite): string {
  let name = given.get(site)
  if (name === undefined) {
    name = siteName(site).name
    given.set(site, name)
  }
  return name
}

/** The name a site gives once chosen: wrapped onto its next line, a till's two lines, as printed. */
function siteName(site: NameSite): { seg: Segment; line: Line; name: string } {
  const { lines } = site.ctx
  if (site.source === 'label') {
    // "Supplier: Acme Supplies" over "SARL": the legal form wrapped onto the next line.
    const labelled = LEGAL_TAIL.test(site.folded) ? site : wrappedName(lines, site, true)
    return { ...labelled, name: printedCase(labelled.name, lines) }
  }
  if (site.source !== 'top') return { ...site, name: printedCase(site.name, lines) }
  const wrapped = wrappedName(lines, site)
  const joined = site.till && wrapped === site ? tillTwoLines(lines, site) : legalFormGoesOn(lines, wrapped)
  return { ...joined, name: printedCase(joined.name, lines) }
}

/**
 * A name whose legal form breaks off after "&" or "& Co." goes on with the legal form alone on the
 * line under it ("Rheinland Software GmbH & Co." over "KG"); any name, with a legal form's words
 * in parentheses ("Brightwater Technik UG" over "(haftungsbeschränkt)").
 */
function legalFormGoesOn(lines: Line[], name: { seg: Segment; line: Line; name: string }) {
  const broken = /&(\s*co\.?)?\s*$/i.test(name.name)
  const li = lines.indexOf(name.line)
  const next = lines
    .slice(li + 1, li + 4)
    .find(
      (l) =>
        l.page === name.line.page &&
        l.y - name.line.y < Math.max(name.seg.size, 8) * 1.8 &&
        l.segments.some((s) => overlaps(s, name.seg, 20)),
    )
  const tail = next?.segments.find(
    (s) =>
      overlaps(s, name.seg, 20) && LEGAL_TAIL.test(f(s.text)) && (broken || /^\(.*\)$/.test(s.text.trim())),
  )
  return tail ? { seg: tail, line: next!, name: `${name.name} ${tail.text}` } : name
}

/** The address a site offers with its name: the one its source printed, else the lines under it. */
function siteReadings(site: NameSite, model: PageModel): AddressReading[] {
  const { customer, lines } = model
  if (site.address !== undefined)
    return site.address
      ? [{ source: site.source, parts: printedParts(site.address, site.line, site.seg), whole: true }]
      : []
  if (site.source === 'closing') {
    const parts = letterheadParts(model)
    return parts.length > 0 ? [{ source: 'closing', parts, whole: false }] : []
  }
  if (site.source === 'payee') {
    const anchor = topAnchor(model.pages, lines, customer)
    return anchor
      ? [{ source: 'payee', parts: addressParts(lines, anchor.line, anchor.seg, customer), whole: false }]
      : []
  }
  const joined = siteName(site)
  // Under the name's last line, aligned with its widest line (a legal form wrapped under it is narrow).
  const last = joined.line.y >= site.line.y ? joined.line : site.line
  const widest = joined.seg.x1 - joined.seg.x0 >= site.seg.x1 - site.seg.x0 ? joined.seg : site.seg
  const parts = addressParts(lines, last, widest, customer)
  const sender = site.ctx.sender
  // A letterhead that prints no address under its name: the return line's may be its.
  if (parts.length === 0 && site.source === 'top' && sender?.address)
    return [{ source: 'sender', parts: printedParts(sender.address, sender.line, sender.seg), whole: true }]
  return [{ source: site.source, parts, whole: false }]
}

/** The supplier-name candidates of a page model: every site, valued as the engine would print it. */
function supplierCandidates(pages: PageText[], model: PageModel, till: boolean): Candidate<NameSite>[] {
  // A legal form alone that joins no name above it ("Co. KG" under a label's line) is no name.
  const sites = supplierSites(pages, model.lines, model.customer, till).filter(
    (site) => site.source !== 'top' || !LEGAL_TAIL.test(f(givenName(site))),
  )
  return sites.map((site) => ({
    value: site,
    text: site.name,
    ...placeOf(pages, site.line, site.seg),
    x: nameFeatures(site),
  }))
}

/** The address candidates of the supplier the weights choose (for fitting: `models` those fitted so far). */
export function addressCandidatesOf(pages: PageText[], models?: Models): Candidate<string | null>[] {
  const model = pageModel(pages)
  const till = isTillReceipt(pages, model.lines)
  return addressCandidates(pages, findSupplier(pages, model, till, models).readings, till)
}

/** Every supplier-name candidate with the name it gives (for fitting). */
export function nameCandidates(pages: PageText[]): Candidate<string>[] {
  const model = pageModel(pages)
  return supplierCandidates(pages, model, isTillReceipt(pages, model.lines)).map((c) => ({
    ...c,
    value: givenName(c.value),
  }))
}

/**
 * The supplier's name and address: one decision over every site that may name it (the top lines
 * and the parties the page names), a name found at several sites adding up their probability.
 */
function findSupplier(pages: PageText[], model: PageModel, till: boolean, models?: Models) {
  const candidates = supplierCandidates(pages, model, till)
  const decision = decide(modelOf('business_name', NAME_FEATURES, models), candidates, (site) =>
    f(givenName(site)),
  )
  if (!decision) return { name: null, address: null, readings: [] }
  const chosen = decision.value
  // A party named in short elsewhere ("Muster GmbH · Hauptstr. 1 · …") is named by its letterhead
  // in full ("Muster Software GmbH"): the company's fullest name on the page's top is its name.
  const fuller =
    chosen.source === 'top'
      ? undefined
      : candidates
          .map((c) => givenName(c.value))
          .filter(
            (n) =>
              LEGAL_FORM.test(f(n)) &&
              n.split(/\s+/).length > givenName(chosen).split(/\s+/).length &&
              sameParty(n, givenName(chosen)),
          )
          .sort((a, b) => b.length - a.length)[0]
  const name = fuller ?? givenName(chosen)
  // (A line that prints more than the company's name, "Claire Morel   Valmont Supplies LLP"
  // joined across a customer window, reads another's address under it.)
  const own = candidates.map((c) => c.value).filter((site) => partOf(givenName(site), name))
  // The letterhead's first address lines stand in for a payee's only where the top does not
  // name the company: under its name are its own.
  const topNamed = own.some((site) => site.source === 'top')
  const readings = own
    .filter((site) => !(topNamed && site.source === 'payee'))
    .flatMap((site) => siteReadings(site, model))
    .map((r) => withoutName(r, name))
  const address = decideAddress(pages, readings, till, models)
  return {
    name,
    address: address?.value ?? null,
    readings,
    addressEvidence: address?.evidence,
    evidence: {
      ...decision.evidence,
      alternatives: decision.evidence.alternatives.map((a) => ({ ...a, value: givenName(a.value) })),
    },
  }
}

/**
 * A reading without the name's own lines at its start: under the first line of a name printed on
 * three ("Atelier" / "Engineering" / "Limited"), the address starts after the last.
 */
function withoutName(reading: AddressReading, name: string): AddressReading {
  if (reading.whole) return reading
  const first = reading.parts.findIndex((p) => !partOf(p.text, name))
  if (first === 0) return reading
  return { ...reading, parts: first < 0 ? [] : reading.parts.slice(first) }
}

/** An IBAN printed on a line (grouped or not). */
const IBAN_SHAPE = /\b[A-Z]{2}\d{2}\s?(?:[A-Z0-9]{4}\s?){2,7}[A-Z0-9]{1,4}\b/

/**
 * The payee of the bank details ("Account holder: Acme Ltd", "Kontoinhaber: …", "Bénéficiaire"
 * over the name): a label of the lexicon's `payee` with a name as its value, an IBAN printed
 * within a few lines of it.
 */
function payeeParty(lines: Line[], customer: Set<Segment>): Omit<Party, 'address'> | null {
  for (const ref of segments(lines)) {
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

/** The letterhead's address lines from its first street or postcode line (its name printed as a logo). */
function letterheadParts({ pages, lines, customer }: PageModel): AddressPart[] {
  const first = firstAddressLine(pages, lines, customer)
  return first ? addressParts(lines, lines[first.li]!, first.seg, customer, first.li) : []
}

/** The first line of the page's top (from line `from`) printing an address with a number, not the customer's. */
function firstAddressLine(
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
function topAnchor(
  pages: PageText[],
  lines: Line[],
  customer: Set<Segment>,
): { line: Line; seg: Segment } | null {
  const first = firstAddressLine(pages, lines, customer, 1)
  return first ? { line: lines[first.li - 1]!, seg: first.seg } : null
}

/**
 * The sender's return address printed on one line above the address window
 * ("Kraxi GmbH · Flugzeugallee 17 · 12345 Papierfeld"): its name and the rest as its address.
 */
function senderLine(top: Line[]): Party | null {
  for (const line of top) {
    for (const seg of line.segments) {
      const parts = seg.text.split(/\s[·•|]\s/).map((p) => p.trim())
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
    if (LEGAL_FORM.test(f(head)) && labelAt('legal', words.slice(i).join(' '))) return head
  }
  return part
}

/**
 * The company a legal footer names: the first part of a line in the lower quarter of a page
 * ("Beispiel Handels GmbH · Hafenstraße 9 · 20457 Hamburg") carrying a legal form, on a footer
 * with legal wording (register court, managing director, share capital…); its street and town
 * parts are its address.
 */
function footerParty(pages: PageText[], lines: Line[], customer: Set<Segment>): Party | null {
  const footers = lines.filter((l) => {
    const page = pages.find((p) => p.page === l.page) ?? pages[0]!
    return l.y > page.height * 0.75
  })
  if (!footers.some((l) => hasLabel('legal', l.text))) return null
  for (const line of footers) {
    for (const seg of line.segments) {
      if (customer.has(seg)) continue
      const parts = seg.text.split(/\s[·•|–—-]\s|,\s/).map((p) => p.trim())
      const name = beforeMentions(parts[0]!)
      if (!LEGAL_FORM.test(f(name)) || !isNameLike(name) || isFieldLabel(name) || hasLabel('legal', name))
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
function webDomains(lines: Line[], customer: Set<Segment>): Set<string> {
  const out = new Set<string>()
  for (const ref of segments(lines)) {
    if (customer.has(ref.seg)) continue
    for (const m of f(ref.seg.text).matchAll(
      /(?:@|www\.|https?:\/\/)(?:[a-z0-9-]+\.)*?([a-z0-9-]{3,})\.[a-z]{2,6}\b/g,
    ))
      out.add(m[1]!)
  }
  return out
}

/** A legal form alone ("SDN. BHD.", "CO. (M) SDN BHD") is the end of a name printed on two lines. */
const LEGAL_TAIL =
  /^(\([\p{L} .'-]{2,30}\)\s*)?(co\.?\s*)?(\(m\)\s*)?(sdn\.?\s*bhd\.?|bhd\.?|berhad|s\/b|gmbh|sarl|sas|sasu|sa|eurl|ltd\.?|limited|llp|plc|inc\.?|llc|ag|kg|&\s*co\.?\s*kg|e\.\s?k\.?|ug|ug\s*\(haftungsbeschrankt\)|\(haftungsbeschrankt\)|gmbh\s*&\s*co\.?\s*kg)\s*$/iu

/**
 * A name set on two lines: the line under it holding only its legal form, or the chosen line
 * being that legal form under the rest of the name.
 */
function wrappedName(lines: Line[], best: { seg: Segment; line: Line; name: string }, onlyBelow = false) {
  const li = lines.indexOf(best.line)
  const near = (l: Line | undefined) =>
    l && l.page === best.line.page && Math.abs(l.y - best.line.y) < Math.max(best.seg.size, 8) * 1.8
  // The line above / below in the name's column (a line of another column may come between in
  // reading order).
  const sameColumn = (l: Line) => l.segments.some((s) => overlaps(s, best.seg, 20))
  const aboveLi =
    [li - 1, li - 2, li - 3].find((i) => i >= 0 && near(lines[i]) && sameColumn(lines[i]!)) ?? li - 1
  const belowLi = [li + 1, li + 2, li + 3].find((i) => near(lines[i]) && sameColumn(lines[i]!)) ?? li + 1
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
  if (
    !onlyBelow &&
    (LEGAL_TAIL.test(f(best.name).replace(/^[\w&'.-]+\s+/, '')) || LEGAL_TAIL.test(f(best.name)))
  ) {
    const above = lines[aboveLi]
    const head = near(above) ? over(above!) : undefined
    if (head && LEGAL_TAIL.test(f(best.name)) && !LEGAL_FORM.test(f(head.text)))
      return {
        name: `${nameAbove(lines, lines[aboveLi]!, head)}${head.text} ${best.name}`,
        line: best.line,
        seg: best.seg,
      }
    // One word and its legal form ("Technik AG") may still be the end of a longer name.
    if (!head) return best
  }
  // "MVM Musterhafter" over "Versicherungsverein Musterstadt a.G.": a name line ending in its
  // legal form, under a line of the same type and left edge with no legal form of its own.
  const above = lines[aboveLi]
  const head = near(above) ? over(above!) : undefined
  if (
    !onlyBelow &&
    head &&
    LEGAL_FORM.test(f(best.name)) &&
    // Words of a name, not a slogan's sentence ("Ihr Partner für Bau" over "Muster Bau GmbH").
    head.text.split(/\s+/).length <= 4 &&
    head.text.split(/\s+/).every((w) => /^[\p{Lu}\d&]/u.test(w)) &&
    !LEGAL_FORM.test(f(head.text)) &&
    Math.abs(head.x0 - best.seg.x0) < 3 &&
    Math.abs(head.size - best.seg.size) < 0.5 &&
    // Nothing else on the head's row but another column well apart ("Brightwater" | "RECHNUNG").
    above!.segments.every((s) => overlaps(s, head, 0) || s.x0 > head.x1 + head.size * 3) &&
    !isFieldLabel(head.text)
  )
    return {
      name: `${nameAbove(lines, above!, head)}${head.text} ${best.name}`,
      line: best.line,
      seg: best.seg,
    }
  const below = lines[belowLi]
  // (A legal form alone, "e.K.", reads as no name of its own.)
  const whole = near(below) ? over(below!) : undefined
  const tail =
    whole && LEGAL_TAIL.test(f(whole.text))
      ? whole
      : near(below)
        ? (below!.segments.find((s) => overlaps(s, best.seg, 20) && LEGAL_TAIL.test(f(s.text))) ?? whole)
        : undefined
  if (tail && LEGAL_TAIL.test(f(tail.text)))
    return {
      // (A name broken after its ampersand, "Muster GmbH &" over "Co. KG", keeps it.)
      name: `${onlyBelow ? '' : nameAbove(lines, best.line, best.seg)}${best.name}${/&\s*$/.test(best.seg.text) && !/&\s*$/.test(best.name) ? ' &' : ''} ${tail.text}`,
      line: below!,
      seg: tail,
    }
  return best
}

/** Capitals only (OCR's "|" for an I included): a till's name line. */
const capitalsOnly = (t: string) => /\p{Lu}{2}/u.test(t) && !/\p{Ll}/u.test(t)

/**
 * A till's name printed on two lines in one type ("RESTAURANT SERI" over "SERI HOUSE", "TSH
 * POWER HARDWARE" over "TRADING"), right above its registration or tax line: both lines in
 * capitals, without figures, neither a company with its legal form (a company line's next line
 * is its branch). The chosen line may be either of the two. A company line itself takes the
 * line above as its start only in a smaller type (a brand over it is as big or bigger).
 */
function tillTwoLines(lines: Line[], best: { seg: Segment; line: Line; name: string }) {
  const li = lines.indexOf(best.line)
  const piece = (l: Line | undefined, from: Line) => {
    // (Specks OCR read beside it, ":" or "|", are no second column.)
    const segs = l?.segments.filter((x) => /[\p{L}\d]/u.test(x.text)) ?? []
    if (!l || l.page !== from.page || segs.length !== 1) return null
    const seg = segs[0]!
    if (!overlaps(seg, best.seg, 20) || Math.abs(l.y - from.y) > Math.max(best.seg.size, 8) * 1.8) return null
    const { name } = nameCandidate(seg.text)
    // One type, but for a lone legal form or trade word ending the name ("TRADING").
    const tail = LEGAL_FORM.test(f(name)) && !/\s/.test(name.trim())
    if (!tail && Math.min(seg.size, best.seg.size) / Math.max(seg.size, best.seg.size) < 0.85) return null
    return { seg, name }
  }
  // A name part: capitals, no figure, no address, no field label.
  const part = (t: string) =>
    capitalsOnly(t) && !/[\d:]/.test(t) && isNameLike(t) && !POSTCODE.test(f(t)) && !isFieldLabel(t)
  // A company with its legal form ("… SDN BHD") is whole; a lone trade word ("TRADING") is an end.
  const whole = (t: string) => LEGAL_FORM.test(f(t)) && f(t).split(/\s+/).length > 1
  // The registration or tax line under the name (an address line may follow a name's first line).
  const body = (l: Line | undefined) =>
    (l?.segments ?? []).some((seg) => {
      const t = f(seg.text).trim()
      return (
        REGISTRATION_LINE.test(t) || /\b(gst|sst|reg|roc)\b/.test(t) || /^\(?\d{5,}\s*-?\s*[a-z]?\)?$/.test(t)
      )
    })
  if (whole(best.name)) {
    // A company line whose name starts on the line above in the same style and a smaller type
    // ("GHEE HIANG" over "GH DISTRIBUTOR SDN BHD", its registration under it); a brand (or a
    // name stamped) over a company is printed as big or bigger, a company line carrying its
    // registration is whole.
    const head = piece(lines[li - 1], best.line)
    const h = head?.name ?? ''
    if (
      head &&
      head.seg.size < best.seg.size * 0.98 &&
      body(lines[li + 1]) &&
      !/\d{4,}/.test(best.line.text) &&
      !ownerName(best.name) &&
      capitalsOnly(h) === capitalsOnly(best.name) &&
      h.split(/\s+/).length <= 4 &&
      h.split(/\s+/).every((w) => /^[\p{Lu}\d]/u.test(w)) &&
      /\p{L}{2}/u.test(h) &&
      !LEGAL_FORM.test(f(h)) &&
      !isFieldLabel(h) &&
      !addressLike(h) &&
      // (A line under an address is its last line, a state: "Selangor".)
      !lines
        .slice(Math.max(0, li - 4), li - 1)
        .some(
          (l) =>
            l.page === best.line.page &&
            (POSTCODE.test(f(l.text)) || (STREET.test(f(l.text)) && /\d/.test(l.text))),
        )
    )
      return { name: `${h} ${best.name}`, line: best.line, seg: best.seg }
    return best
  }
  if (!part(best.name)) return best
  const below = piece(lines[li + 1], best.line)
  if (below && part(below.name) && !whole(below.name) && body(lines[li + 2]))
    return { name: `${best.name} ${below.name}`, line: lines[li + 1]!, seg: below.seg }
  const above = piece(lines[li - 1], best.line)
  if (
    above &&
    part(above.name) &&
    !whole(above.name) &&
    !LEGAL_FORM.test(f(above.name)) &&
    body(lines[li + 1])
  )
    return { name: `${above.name} ${best.name}`, line: best.line, seg: best.seg }
  return best
}

/**
 * The first words of a name set on three lines ("Horizon" over "Logistique" over "SARL"): the
 * line right above `top` in the same column, type and left edge, a few capitalised words with no
 * legal form (with a space after it), or ''.
 */
function nameAbove(lines: Line[], top: Line, seg: Segment): string {
  const li = lines.indexOf(top)
  for (let i = li - 1; i >= 0 && i >= li - 3; i--) {
    const line = lines[i]!
    if (line.page !== top.page || top.y - line.y > Math.max(seg.size, 8) * 1.8) break
    const head = line.segments.find((s) => overlaps(s, seg, 20))
    if (!head) continue
    const words = head.text.split(/\s+/)
    const ok =
      Math.abs(head.x0 - seg.x0) < 3 &&
      Math.abs(head.size - seg.size) < 0.5 &&
      words.length <= 3 &&
      words.every((w) => /^[\p{Lu}\d&]/u.test(w)) &&
      isNameLike(head.text) &&
      !LEGAL_FORM.test(f(head.text)) &&
      !isFieldLabel(head.text)
    return ok ? `${head.text} ` : ''
  }
  return ''
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
    post: POSTCODE.test(t),
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
function printedParts(address: string, line: Line, seg: Segment): AddressPart[] {
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
function addressParts(
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

// ---- invoice number -----------------------------------------------------------------------

// ---- totals -------------------------------------------------------------------------------

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

/** What the totals are decided from: every amount printed, whether VAT is charged, a till's layout. */
export function totalsInputs(
  model: PageModel,
  models?: Models,
): {
  hasVat: Decision<boolean>
  till: boolean
  cands: AmountCandidate[]
  /** A till's item rows summed when its total rows were read without amounts. */
  items: number | null
} {
  const { pages, lines, customer } = model
  const till = isTillReceipt(pages, lines)
  const cands = amountCandidates(till ? repairTillLabels(lines) : lines, (s) => customer.has(s), till)
  const hasVat = decideHasVat(model, cands, till, models)
  return { hasVat, till, cands, items: till ? itemSum(cands, lines) : null }
}

/** The positioned lines of every page, with the customer's block marked: what candidates are read from. */
export function pageModel(pages: PageText[]): PageModel {
  const lines = pages.flatMap((p) => p.lines).map(joinSplitAmounts)
  return { pages, lines, customer: customerSegments(pages, lines) }
}

/** The fields of a document's pages; `models` replaces committed weights (benches' grouped refits). */
export function extractFields(pages: PageText[], models?: Models): ExtractedFields {
  const model = pageModel(pages)
  const { lines } = model
  const { hasVat, till, cands, items } = totalsInputs(model, models)
  const supplier = findSupplier(pages, model, till, models)
  const vat = decideVatId(model, models)
  const iban = decideIban(model, models)
  const vatNumber = vat?.value ?? null
  const german = germanSupplier(supplier.address, vatNumber)
  const decided = decideTotals(cands, hasVat.value, pages, models, items)
  const { totals } = decided
  const currency = decideCurrency(model, { totalLine: totals.inclLine, till, vat, iban }, models)
  const date = decideIssueDate(model, dateOrder(lines.map((l) => l.text).join('\n')), models)
  const number = decideInvoiceNumber(model, models)
  return {
    invoice_number: number?.value ?? null,
    document_date: date?.value ?? null,
    business_name: german ? umlauts(supplier.name) : supplier.name,
    business_address: german ? umlauts(supplier.address) : supplier.address,
    vat_number: vatNumber,
    iban: iban?.value ?? null,
    currency: currency?.value ?? null,
    has_vat: hasVat.value,
    total_vat_amount: totals.vat,
    total_charge_excluding_vat: totals.excl,
    total_invoice_including_vat: totals.incl,
    evidence: {
      ...(date && { document_date: date.evidence }),
      ...(number && { invoice_number: number.evidence }),
      ...(vat && { vat_number: vat.evidence }),
      ...(iban && { iban: iban.evidence }),
      ...('evidence' in supplier && { business_name: supplier.evidence }),
      ...('addressEvidence' in supplier &&
        supplier.addressEvidence && { business_address: supplier.addressEvidence }),
      ...(currency && { currency: currency.evidence }),
      has_vat: hasVat.evidence,
      ...(decided.evidence.incl && { total_invoice_including_vat: decided.evidence.incl }),
      ...(decided.evidence.excl && { total_charge_excluding_vat: decided.evidence.excl }),
      ...(decided.evidence.vat && { total_vat_amount: decided.evidence.vat }),
    },
  }
}

/**
 * The supplier's name: every site that may print it (the first page's top lines, the parties the
 * page names: a supplier label's value, a return line, a legal footer, a payee; a till's company
 * line below a logo) is a candidate; named features describe it; the fitted scorer picks one,
 * and the address is decided among the readings of the sites naming the same company.
 */

import { addressParts, firstAddressLine, letterheadParts, printedParts, topAnchor } from '../address-parts.ts'
import { overlaps } from '../layout.ts'
import { hasLabel } from '../lexicon.ts'
import {
  addressLike,
  hasLegalForm,
  isColumnHeader,
  isFieldLabel,
  isNameLike,
  LEGAL_FORM,
  LEGAL_TAIL,
  POSTCODE,
  REGISTRATION_LINE,
  streetLike,
  withoutLegalForm,
  wordiness,
} from '../line-shapes.ts'
import {
  legalFormGoesOn,
  nameCandidate,
  printedAccents,
  printedCase,
  stripInitials,
  tillTwoLines,
  wrappedName,
} from '../name-lines.ts'
import { foldText as f, findAmounts, findDates } from '../parse.ts'
import { footerParty, labelledSupplier, type Party, payeeParty, senderLine, webDomains } from '../parties.ts'
import type { Line, PageText, Segment } from '../pdf-text.ts'
import { noiseShare, ownerName, underLogo } from '../receipt.ts'
import type { AddressReading } from './address.ts'
import { decideAddress } from './address.ts'
import type { PageModel } from './model.ts'
import { type Candidate, decide, type Feature, flag, type Models, modelOf } from './model.ts'
import { placeOf } from './place.ts'

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
    hasLegalForm(f(givenName(s))),
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
    const squashed = withoutLegalForm(s.folded).replace(/[^\p{L}\d]+/gu, '')
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
      const core = withoutLegalForm(s.folded).trim()
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
    (s) => s.source === 'top' && s.ctx.parties.some((p) => hasLegalForm(p) && !sameParty(p, s.folded)),
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
export function givenName(site: NameSite): string {
  let name = given.get(site)
  if (name === undefined) {
    name = siteName(site).name
    given.set(site, name)
  }
  return name
}

/** A name in the case and accents the page prints it with elsewhere. */
const printedSpelling = (name: string, lines: Line[]) => printedAccents(printedCase(name, lines), lines)

/** The name a site gives once chosen: wrapped onto its next line, a till's two lines, as printed. */
function siteName(site: NameSite): { seg: Segment; line: Line; name: string } {
  const { lines } = site.ctx
  if (site.source === 'label') {
    // "Supplier: Acme Supplies" over "SARL": the legal form wrapped onto the next line.
    const labelled = LEGAL_TAIL.test(site.folded) ? site : wrappedName(lines, site, true)
    return { ...labelled, name: printedSpelling(labelled.name, lines) }
  }
  if (site.source !== 'top') return { ...site, name: printedSpelling(site.name, lines) }
  const wrapped = wrappedName(lines, site)
  const joined = site.till && wrapped === site ? tillTwoLines(lines, site) : legalFormGoesOn(lines, wrapped)
  return { ...joined, name: printedSpelling(joined.name, lines) }
}

/** The address a site offers with its name: the one its source printed, else the lines under it. */
function siteReadings(site: NameSite, model: PageModel): AddressReading[] {
  const { customer, lines } = model
  if (site.address)
    return [{ source: site.source, parts: printedParts(site.address, site.line, site.seg), whole: true }]
  // A till's company line under a logo, a legal footer printing no address: the letterhead's
  // address lines (a letterhead without its name) are the company's.
  if (site.source === 'closing' || (site.source === 'footer' && site.address === null)) {
    const parts = letterheadParts(model)
    return parts.length > 0 ? [{ source: site.source, parts, whole: false }] : []
  }
  if (site.address !== undefined) return []
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
export function supplierCandidates(
  pages: PageText[],
  model: PageModel,
  till: boolean,
): Candidate<NameSite>[] {
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

/**
 * The supplier's name and address: one decision over every site that may name it (the top lines
 * and the parties the page names), a name found at several sites adding up their probability.
 */
export function findSupplier(pages: PageText[], model: PageModel, till: boolean, models?: Models) {
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
              hasLegalForm(f(n)) &&
              n.split(/\s+/).length > givenName(chosen).split(/\s+/).length &&
              sameParty(n, givenName(chosen)),
          )
          .sort((a, b) => b.length - a.length)[0]
  const name = fuller ?? givenName(chosen)
  // (A line that prints more than the company's name, "Claire Morel   Valmont Supplies LLP"
  // joined across a customer window, reads another's address under it.)
  const own = candidates.map((c) => c.value).filter((site) => partOf(givenName(site), name))
  // The letterhead's first address lines stand in for a payee's (or a legal footer's that prints
  // none) only where the top does not name the company: under its name are its own.
  const topNamed = own.some((site) => site.source === 'top')
  const readings = own
    .filter((site) => !(topNamed && (site.source === 'payee' || (site.source === 'footer' && !site.address))))
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

/**
 * The supplier's address, a fitted decision taken with its name (one party): the sites that name
 * the chosen company each offer an address — the lines under a letterhead's or a label's name
 * (every run of them from the first street or postcode line: where the address ends is the
 * decision), the address a return line or a legal footer prints with the name, the letterhead's
 * address lines for the payee of the bank details — and the choice that the page prints none.
 */
import type { Line, PageText, Segment } from '../pdf-text.ts'
import {
  type Candidate,
  type Decision,
  decide,
  type Feature,
  flag,
  type Models,
  modelOf,
  NOWHERE,
  type Place,
  present,
} from './model.ts'
import { placeOf } from './place.ts'

/** One part of an address as printed: a line, or a piece of a line split at a wide gap. */
export interface AddressPart {
  text: string
  /** A street word, a house number first, or a name and a number ("Meir 141"). */
  street: boolean
  /** A postcode with its town, in one of the shapes Europe, the UK and the US print. */
  post: boolean
  /** A country's name alone. */
  country: boolean
  /** Capitals after capitals, four words at most ("SELANGOR DARUL EHSAN"). */
  region: boolean
  line: Line
  seg: Segment
}

/** Where an address comes from: which site named the company. */
type AddressSource = 'top' | 'label' | 'sender' | 'footer' | 'payee' | 'closing'

/** What one site offers: the parts under its name, or the address it printed with the name. */
export interface AddressReading {
  source: AddressSource
  parts: AddressPart[]
  /** Printed with the name on one line (a return line, a footer): taken whole, never cut. */
  whole: boolean
}

/** One candidate: a run of a reading's first parts, or none. */
interface AddressSite {
  source: AddressSource | 'none'
  span: AddressPart[]
  /** The reading's parts after the span. */
  rest: AddressPart[]
  till: boolean
}

type AddressFeature = Feature<[s: AddressSite]>
const yes = flag<[s: AddressSite]>
const last = (s: AddressSite) => s.span[s.span.length - 1]
const firstPost = (s: AddressSite) => s.span.findIndex((p) => p.post)

/** The address's features, each a small named measure; their weights are in weights.json. */
export const ADDRESS_FEATURES: readonly AddressFeature[] = [
  yes('none', 'the choice that the page prints no address of the supplier', (s) => s.source === 'none'),
  { name: 'parts', doc: 'how many parts (lines) the run holds, over 4', of: (s) => s.span.length / 4 },
  yes('starts_street', 'the run starts with a street line', (s) => s.span[0]?.street ?? false),
  yes('has_postcode', 'the run holds a postcode line', (s) => firstPost(s) >= 0),
  yes('ends_postcode', 'the run ends with a postcode line', (s) => last(s)?.post ?? false),
  yes('ends_country', "the run ends with a country's name", (s) => last(s)?.country ?? false),
  yes(
    'ends_region',
    'the run ends with a region after its postcode',
    (s) => firstPost(s) >= 0 && (last(s)?.region ?? false),
  ),
  yes(
    'past_postcode',
    'a part after the postcode that is no country and no region',
    (s) => firstPost(s) >= 0 && s.span.slice(firstPost(s) + 1).some((p) => !p.country && !p.region),
  ),
  yes('past_country', "a part after a country's name", (s) => s.span.slice(0, -1).some((p) => p.country)),
  yes(
    'cut_before_postcode',
    'no postcode in the run, one in the parts after it',
    (s) => firstPost(s) < 0 && s.rest.some((p) => p.post),
  ),
  yes(
    'cut_before_tail',
    "the part after the run is a country's name, or a region after the run's postcode",
    (s) => s.rest[0] !== undefined && (s.rest[0].country || (s.rest[0].region && firstPost(s) >= 0)),
  ),
  yes('cut_before_street', 'the part after the run is a street line', (s) => s.rest[0]?.street ?? false),
  yes('under_label', "the lines under a supplier label's name", (s) => s.source === 'label'),
  yes('return_line', "the address on the sender's return line", (s) => s.source === 'sender'),
  yes('legal_footer', 'the address a legal footer prints with the name', (s) => s.source === 'footer'),
  yes(
    'letterhead_for_payee',
    "the letterhead's address lines, for the payee of the bank details",
    (s) => s.source === 'payee',
  ),
  yes('till', 'a till receipt', (s) => s.source !== 'none' && s.till),
]

const joined = (parts: AddressPart[]) =>
  parts
    .map((p) => p.text)
    .join(', ')
    .replace(/\s+/g, ' ')

function sites(readings: AddressReading[], till: boolean): AddressSite[] {
  const out: AddressSite[] = []
  for (const r of readings)
    for (let n = r.whole ? r.parts.length : 1; n <= r.parts.length; n++)
      out.push({ source: r.source, span: r.parts.slice(0, n), rest: r.parts.slice(n), till })
  out.push({ source: 'none', span: [], rest: [], till })
  return out
}

/** The box around a run of parts (their lines' segments), on the first part's page. */
function spanPlace(pages: PageText[], span: AddressPart[]): Place {
  const boxes = span.map((p) => placeOf(pages, p.line, p.seg)).filter((b) => b.page === span[0]!.line.page)
  return {
    page: boxes[0]!.page,
    box: [
      Math.min(...boxes.map((b) => b.box[0])),
      Math.min(...boxes.map((b) => b.box[1])),
      Math.max(...boxes.map((b) => b.box[2])),
      Math.max(...boxes.map((b) => b.box[3])),
    ],
  }
}

/** Every address candidate of the chosen company's readings, the choice of none as `null`. */
export function addressCandidates(
  pages: PageText[],
  readings: AddressReading[],
  till: boolean,
): Candidate<string | null>[] {
  return sites(readings, till).map((site) => {
    const value = site.span.length > 0 ? joined(site.span) : null
    return {
      value,
      text: value ?? '',
      ...(site.span.length > 0 ? spanPlace(pages, site.span) : NOWHERE),
      x: ADDRESS_FEATURES.map((feature) => feature.of(site)),
    }
  })
}

/** The address key: case, spacing and commas do not tell two readings apart. */
const key = (v: string | null) =>
  (v ?? '')
    .toLowerCase()
    .replace(/[\s,]+/g, ' ')
    .trim()

export function decideAddress(
  pages: PageText[],
  readings: AddressReading[],
  till: boolean,
  models?: Models,
): Decision<string> | null {
  return present(
    decide(
      modelOf('business_address', ADDRESS_FEATURES, models),
      addressCandidates(pages, readings, till),
      key,
    ),
  )
}

/**
 * What a line or a piece of one reads as, shared by the supplier's rules: a street, a postcode,
 * a legal form, a registration line, contact details, another field's label, a name at all.
 */
import { isLabel, labelAt } from './lexicon.ts'
import { foldText as f, findDates } from './parse.ts'

const TITLE_WORDS =
  /^(facture|invoice|tax invoice|receipt|recu|ticket|note de course|note de frais|devis|avoir|credit note|bill|quittance|facture acquittee|original|duplicata|copie|page \d)\b/

/** Lines that follow an address on receipts and letterheads: tax registration, till details. */
export const ADDRESS_END =
  /(\b[g65]st\b|:\s*[\d(+][\d\s()/-]{6,}|^[^\p{L}]*\d{2,4}[\s-]\d{3,4}[\s-]?\d{3,5}[^\p{L}]*$|\broc\b|\bsst\b|^[tf]\s*:|tax invoice|\binvoice\b|\breceipt\b|cashier|\bdate\b|\btable\b|\bbill\b)/u

export const CONTACT =
  /(\bt[ee]l\b|\btel\.|telephone|phone|\bfax\b|mobile|e-?mail|@|www\.|https?:|\bsiret\b|\bsiren\b|\brcs\b|\btva\b|\bvat\b|\bust|\blicen[cs]e\b|capital|\bape\b|\bnaf\b|\bhrb\b|company no|registered|iban|\bbic\b|swift)/

export const COUNTRIES =
  /^(france|germany|deutschland|allemagne|united kingdom|uk|royaume-uni|england|belgium|belgique|belgie|switzerland|suisse|schweiz|spain|espagne|espana|italy|italie|italia|netherlands|pays-bas|nederland|luxembourg|ireland|irlande|austria|autriche|osterreich|portugal|usa|united states|united states of america|etats-unis|monaco|denmark|sweden|poland)$/

export const STREET =
  /(\brue\b|\bavenue\b|\bav\b|\bboulevard\b|\bbd\b|\bplace\b|\ballee\b|\bchemin\b|\bquai\b|\bcours\b|\bimpasse\b|\broute\b|\bvoie\b|\bparvis\b|\bsquare\b|\bfaubourg\b|\bpassage\b|\bzi\b|\bza\b|\bzac\b|\blieu-dit\b|\bbp\b|\bcs\b|\bstreet\b|\bst\b|\broad\b|\brd\b|\blane\b|\bway\b|\bdrive\b|\bhouse\b|\bbuilding\b|\bfloor\b|\bsuite\b|\bunit\b|\bpark\b|\bclose\b|\bterrace\b|\bcrescent\b|\bhill\b|\bgardens?\b|\bmews\b|\bwharf\b|\bmarket\b|\bplaza\b|\bmall\b|\bmegamall\b|\bcentre\b|\bcenter\b|\bwisma\b|\bmenara\b|\bkompleks\b|\bcomplex\b|\blevel\b|\bblk\b|\bblock\b|\btingkat\b|strasse|stra(ss|ß)e\b|str[.;]\s*\d|allee\b|weg\b|platz\b|markt\b|ring\b|gasse\b|damm\b|ufer\b|\bvia\b|\bcalle\b|\bcarrer\b|\bpiazza\b|\bcorso\b|\bjalan\b|\bjln\b|\btaman\b|\blorong\b|\bpersiaran\b|\blebuh\b|\blot\b|^c\/\s?[a-z]|^no\s?[.:]?\s?\d)/

export const POSTCODE =
  /(\b\d{5}\s+\p{L}|\p{L}.*[\s,]\d{5},?$|\b\d{4}\s+\p{L}{2,}|\b[a-z]{1,2}\d[a-z\d]?\s*\d[a-z]{2}\b|\b[a-z]{2}\s+\d{5}(-\d{4})?\b|\bcedex\b)/u

export const LEGAL_FORM =
  /(\b(sarl|sas|sasu|sa|eurl|sci|scea|scop|snc|ei|eirl|selarl|gmbh|ag|kg|ug|ohg|ltd|limited|llp|plc|inc|llc|corp|co|bv|nv|srl|spa|sl|sprl|sc|gie|association|micro-entreprise|entrepreneur|bhd|berhad|s\/b|sb|enterprise|trading|a\.g|e\.\s?k)\.?|\bug\s*\(haftungsbeschrankt\))$/

/**
 * A French company's legal form written before its name ("SARL Garage du Centre", "S.A.S. Jardins
 * de Bourgogne"), as French companies often print it (LEGAL_FORM reads the form ending a name).
 */
const LEADING_LEGAL_FORM =
  /^(s\.?a\.?r\.?l|s\.?a\.?s\.?u?|e\.?u\.?r\.?l|selarl|selas|sci|snc|scop|scea|earl|gaec)\.?\s+(?=\p{L})/u

/** Whether a (folded) name carries its legal form, after it or, the French way, before it. */
export function hasLegalForm(folded: string): boolean {
  return LEGAL_FORM.test(folded) || LEADING_LEGAL_FORM.test(folded)
}

/** A (folded) name without its legal form, wherever it is printed. */
export const withoutLegalForm = (folded: string) =>
  folded.replace(LEGAL_FORM, '').replace(LEADING_LEGAL_FORM, '')

export function isNameLike(text: string): boolean {
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
export const REGISTRATION_LINE =
  /^[([]?\s*(co\.?\s*(reg|no)|company\s*(no|reg)|reg\.?\s*no|roc|[a-z]{0,3}\d{5,}\s*-\s*[a-z])/i

/** Labels of other fields ("Total", "Date", "Cashier", "Tax invoice", "Page 1/1") are never a name. */
export function isFieldLabel(text: string): boolean {
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
export function wordiness(text: string): number {
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
export function addressLike(text: string): boolean {
  const t = f(text)
  // A date, or another field's label before a colon ("Service period: … 2025 to March 31"), is no
  // address, though a year and a word look like a four-figure postcode and its town.
  const label = /^([^:]{2,40}):/.exec(text)
  if (findDates(text).length > 0 || (label && isFieldLabel(label[1]!))) return false
  return REGISTRATION_LINE.test(t) || STREET.test(t) || POSTCODE.test(t) || HOUSE_NUMBER.test(t)
}

/** A table's column header ("Qty", "Amount Tax", "U.Price"): every word a column label. */
export function isColumnHeader(text: string): boolean {
  const words = text.split(/\s+/).filter((w) => /\p{L}/u.test(w))
  return (
    isLabel('amount_column', text) ||
    (words.length > 0 && words.every((w) => isLabel('column_header', w) || isLabel('amount_column', w)))
  )
}

export const streetLike = (t: string) =>
  (STREET.test(t) && /\d/.test(t)) || POSTCODE.test(t) || HOUSE_NUMBER.test(t)

/** A legal form alone ("SDN. BHD.", "CO. (M) SDN BHD") is the end of a name printed on two lines. */
export const LEGAL_TAIL =
  /^(\([\p{L} .'-]{2,30}\)\s*)?(co\.?\s*)?(\(m\)\s*)?(sdn\.?\s*bhd\.?|bhd\.?|berhad|s\/b|gmbh|sarl|sas|sasu|sa|eurl|ltd\.?|limited|llp|plc|inc\.?|llc|ag|kg|&\s*co\.?\s*kg|e\.\s?k\.?|ug|ug\s*\(haftungsbeschrankt\)|\(haftungsbeschrankt\)|gmbh\s*&\s*co\.?\s*kg)\s*$/iu

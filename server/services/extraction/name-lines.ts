/**
 * A supplier's name as printed: a segment cleaned into a name (OCR specks, a registration number
 * after it, misread legal forms), and a name set on two or three lines joined (its legal form
 * wrapped under it, a till's two lines, its first words above), in the case the page prints it.
 */
import { overlaps } from './layout.ts'
import { hasLabel } from './lexicon.ts'
import {
  addressLike,
  isFieldLabel,
  isNameLike,
  LEGAL_FORM,
  LEGAL_TAIL,
  POSTCODE,
  REGISTRATION_LINE,
  STREET,
} from './line-shapes.ts'
import { foldText as f, unmarked } from './parse.ts'
import type { Line, Segment } from './pdf-text.ts'
import { cutAtRegistration, ownerName } from './receipt.ts'

export function stripInitials(name: string): string {
  const m = name.match(/^([A-Z]{1,4})\s+(.+)$/)
  if (!m) return name
  const initials = m[2]!
    .split(/\s+/)
    .filter((w) => /^\p{Lu}/u.test(w))
    .map((w) => w[0])
    .join('')
  return initials.startsWith(m[1]!) ? m[2]! : name
}

/** A registration number printed after a name on its line: "(728515-M)", "862725-U", "(CO. NO. 1234-X)". */
const TRAILING_REGISTRATION =
  /\s*[([{]?\s*((co|company|reg|roc)\.?\s*(no|reg)?\.?\s*:?\s*)?[a-z]{0,3}\d[\d\s]{3,}\s*-?\s*[a-z]?\s*[)\]};:.,]*\s*$/i

/**
 * A segment as a candidate name: OCR specks around it dropped (symbols, a stray lower-case
 * letter before capitals), a registration number after it cut off (and noted), and the OCR
 * misreading of the Malaysian legal form "SDN BHD" as "SON BHD" repaired.
 */
export function nameCandidate(text: string): { name: string; registration: boolean } {
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

/**
 * A name whose legal form breaks off after "&" or "& Co." goes on with the legal form alone on the
 * line under it ("Rheinland Software GmbH & Co." over "KG"); any name, with a legal form's words
 * in parentheses ("Brightwater Technik UG" over "(haftungsbeschränkt)").
 */
export function legalFormGoesOn(lines: Line[], name: { seg: Segment; line: Line; name: string }) {
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

/**
 * A name set on two lines: the line under it holding only its legal form, or the chosen line
 * being that legal form under the rest of the name.
 */
export function wrappedName(
  lines: Line[],
  best: { seg: Segment; line: Line; name: string },
  onlyBelow = false,
) {
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
  return brokenOver(lines, best) ?? best
}

/**
 * How far two pieces of one name may differ in type size: half a point in a text layer; a quarter
 * of the size where OCR measured it (it sizes each line by its letters' heights: "Beratung" reads
 * larger than "Granite" over it).
 */
const sizeTolerance = (seg: Segment) => (seg.confidence ? Math.max(0.5, seg.size * 0.25) : 0.5)

/**
 * A name broken word by word in a narrow column ("Horizon" / "Trading" / "Limited" beside a wide
 * table), with the line over it that starts it: up to three lines under it in its type and at its
 * left edge, each a few capitalised words, the last of them ending in a legal form. None without
 * the legal form: a brand's lines in one type may also be a slogan under it.
 */
function brokenOver(lines: Line[], best: { seg: Segment; line: Line; name: string }) {
  const pieces: string[] = [best.name]
  let found: { seg: Segment; line: Line; name: string } | null = null
  let at = best.line
  for (let k = 0; k < 3; k++) {
    const li = lines.indexOf(at)
    const next = lines
      .slice(li + 1, li + 4)
      .find(
        (l) =>
          l.page === at.page &&
          l.y > at.y &&
          l.y - at.y < Math.max(best.seg.size, 8) * 1.8 &&
          l.segments.some((s) => overlaps(s, best.seg, 20)),
      )
    const seg = next?.segments.find((s) => overlaps(s, best.seg, 20))
    const words = seg?.text.trim().split(/\s+/) ?? []
    if (
      !next ||
      !seg ||
      Math.abs(seg.x0 - best.seg.x0) >= 3 ||
      Math.abs(seg.size - best.seg.size) >= sizeTolerance(best.seg) ||
      words.length > 3 ||
      // (The column's width: a piece far wider than the first is another block's line.)
      seg.x1 - seg.x0 > (best.seg.x1 - best.seg.x0) * 2 ||
      !words.every((w) => /^[\p{Lu}\d&(]/u.test(w)) ||
      !isNameLike(seg.text) ||
      isFieldLabel(seg.text)
    )
      break
    pieces.push(seg.text.trim())
    // ("Trading" is a form too: "Horizon" / "Trading" / "Limited" goes on to the last.)
    if (LEGAL_FORM.test(f(seg.text.trim())))
      found = {
        name: `${nameAbove(lines, best.line, best.seg, sizeTolerance(best.seg))}${pieces.join(' ')}`,
        line: next,
        seg,
      }
    at = next
  }
  return found
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
export function tillTwoLines(lines: Line[], best: { seg: Segment; line: Line; name: string }) {
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
function nameAbove(lines: Line[], top: Line, seg: Segment, tolerance = 0.5): string {
  const li = lines.indexOf(top)
  for (let i = li - 1; i >= 0 && i >= li - 3; i--) {
    const line = lines[i]!
    if (line.page !== top.page || top.y - line.y > Math.max(seg.size, 8) * 1.8) break
    const head = line.segments.find((s) => overlaps(s, seg, 20))
    if (!head) continue
    const words = head.text.split(/\s+/)
    const ok =
      Math.abs(head.x0 - seg.x0) < 3 &&
      Math.abs(head.size - seg.size) < tolerance &&
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
export function printedCase(name: string, lines: Line[]): string {
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

const marks = (s: string) => s.normalize('NFD').match(/\p{M}/gu)?.length ?? 0

/**
 * A name OCR read without its accents (a large bold "Bâtiment" read "Batiment") is given as the
 * page spells it elsewhere with them ("Lindenhof Bâtiment SA" in the legal footer): the same
 * letters in the same case, as a whole span, with more accents.
 */
export function printedAccents(name: string, lines: Line[]): string {
  const plain = unmarked(name)
  if (plain.length < 3) return name
  let best = name
  for (const line of lines) {
    for (const seg of line.segments) {
      const original = seg.text.normalize('NFC')
      const bare = unmarked(original)
      // Marks removed one by one keep the string's length in NFC for letters like â, é, ü, ç.
      if (bare.length !== original.length) continue
      for (let at = bare.indexOf(plain); at >= 0; at = bare.indexOf(plain, at + 1)) {
        const before = bare[at - 1]
        const after = bare[at + plain.length]
        if ((before && /[\p{L}\d]/u.test(before)) || (after && /[\p{L}\d]/u.test(after))) continue
        const candidate = original.slice(at, at + plain.length)
        if (marks(candidate) > marks(best)) best = candidate
      }
    }
  }
  return best
}

/**
 * OCR word correction: a word the recogniser was unsure of, that is not a word of the
 * vocabulary (ocr-vocabulary.json: business, address and receipt words in English, French,
 * German and Malay), is replaced by the one vocabulary word it is an OCR-typical confusion or
 * two away from ("OISTRIBUTION" → "DISTRIBUTION", "BAKERTES" → "BAKERIES", "buardian" →
 * "guardian"). Also a bracket or bar read inside a word of letters is the letter it stands for
 * ("BHPetro]" → "BHPetrol", "JIAWE|" → "JIAWEI"). Numbers (amounts, dates, identifiers) are
 * never touched: only words of at least three letters and at most one digit are.
 */

import lexicon from './lexicon.json' with { type: 'json' }
import data from './ocr-vocabulary.json' with { type: 'json' }
import { unmarked } from './parse.ts'
import type { Line, PageText, Segment } from './pdf-text.ts'

/** Upper case without accents ('ß' as 'SS'): how words are compared. */
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss').toUpperCase()

/** Folded vocabulary word → the word as written. */
const VOCABULARY = new Map<string, string>()
for (const [key, words] of Object.entries(data))
  if (key !== '$comment' && Array.isArray(words)) for (const w of words) VOCABULARY.set(fold(w), w)

/**
 * The vocabulary's accented words by their bare spelling ("batiment" → "bâtiment"), where no
 * language of the vocabulary writes that spelling bare ("hotel" is English as well as "hôtel").
 */
const ACCENTED = new Map<string, string>()
for (const [key, words] of Object.entries(data))
  if (key !== '$comment' && Array.isArray(words))
    for (const w of words) if (unmarked(w) !== w) ACCENTED.set(unmarked(w), w)
for (const [key, words] of Object.entries(data))
  if (key !== '$comment' && Array.isArray(words))
    for (const w of words) if (unmarked(w) === w) ACCENTED.delete(w)

/** A known word read without its accents, in small letters (capitals are often printed bare). */
function accentsBack(read: string): string | null {
  if (!/\p{Ll}/u.test(read) || unmarked(read) !== read) return null
  const word = ACCENTED.get(read.toLowerCase())
  return word ? inCaseOf(word, read) : null
}

/**
 * Every word of four letters or more of the labels documents print (lexicon.json), folded. A
 * shorter one (the "van" of "Vrijgesteld van btw", the "sin" of "Total sin IVA") is as often a
 * name's misread word ("Restoran Wan Sheng" read "Van"): it is known only when the vocabulary has it.
 */
const LABEL_WORDS = new Set<string>()
for (const [key, field] of Object.entries(lexicon))
  if (key !== '$comment' && field && typeof field === 'object')
    for (const labels of Object.values(field as Record<string, unknown>))
      if (Array.isArray(labels))
        for (const label of labels)
          for (const w of String(label).split(/[^\p{L}]+/u)) if (w.length >= 4) LABEL_WORDS.add(fold(w))

/** Whether a word (its letters, any case) is a word of the vocabulary or of the lexicon's labels. */
export function isKnownWord(word: string): boolean {
  const folded = fold(word.replace(/[^\p{L}]/gu, ''))
  return folded.length > 0 && (VOCABULARY.has(folded) || LABEL_WORDS.has(folded))
}

/** Folded vocabulary words by length, for the candidates of a word of about that length. */
const BY_LENGTH = new Map<number, string[]>()
for (const word of VOCABULARY.keys()) {
  const list = BY_LENGTH.get(word.length) ?? []
  list.push(word)
  BY_LENGTH.set(word.length, list)
}

/**
 * For a character as read, the (upper-case) letters it is often a misreading of, on the thermal
 * and dot-matrix prints of receipts and on low-resolution scans.
 */
const READ_FOR: Record<string, string> = {
  O: 'DQCUG',
  '0': 'OD',
  D: 'O',
  Q: 'O',
  C: 'GOE',
  G: 'CS',
  H: 'MNB',
  M: 'HN',
  N: 'HM',
  I: 'TLJ',
  T: 'I',
  L: 'I',
  J: 'IL',
  '1': 'IL',
  '|': 'IL',
  '!': 'IL',
  ']': 'LIJ',
  '[': 'LI',
  U: 'OVD',
  V: 'WUY',
  W: 'V',
  '5': 'S',
  '8': 'B',
  '6': 'GB',
  '2': 'Z',
  B: 'GERH',
  E: 'FB',
  F: 'EP',
  P: 'FR',
  R: 'PB',
  K: 'R',
  Y: 'V',
  '4': 'A',
  $: 'S',
}
/** Lower-case shapes with confusions of their own. */
const READ_FOR_LOWER: Record<string, string> = {
  b: 'GHD',
  h: 'BN',
  l: 'I',
  e: 'CO',
  c: 'EO',
  n: 'HU',
  u: 'NO',
}
/** Two characters read for one letter. */
const PAIRS: Record<string, string> = { RN: 'M', CL: 'D', VV: 'W' }
/** Thin marks a recogniser adds inside a word. */
const THIN = new Set(['I', 'L', '|', '.', ',', "'", '`', '’', '!'])
/** Letters a recogniser drops inside a word (thin strokes). */
const DROPPED = new Set(['I', 'L'])

/** Weighted edit cost from the word as read to a (folded) vocabulary word, or Infinity beyond `budget`. */
export function confusionCost(read: string, word: string, budget: number): number {
  const chars = [...read]
  const n = chars.length
  const m = word.length
  const up = chars.map(fold)
  let prev = new Array<number>(m + 1).fill(Number.POSITIVE_INFINITY)
  let prev2: number[] = []
  prev[0] = 0
  for (let i = 1; i <= n; i++) {
    const row = new Array<number>(m + 1).fill(Number.POSITIVE_INFINITY)
    const c = chars[i - 1]!
    const u = up[i - 1]!
    const extra = THIN.has(u) || (i >= 2 && u === up[i - 2])
    row[0] = extra ? prev[0]! + 1 : Number.POSITIVE_INFINITY
    for (let j = 1; j <= m; j++) {
      const w = word[j - 1]!
      let best = Number.POSITIVE_INFINITY
      if (u === w) best = prev[j - 1]!
      else if ((READ_FOR[u] ?? '').includes(w) || (READ_FOR_LOWER[c] ?? '').includes(w))
        best = prev[j - 1]! + 1
      if (i >= 2 && PAIRS[up[i - 2]! + u] === w) best = Math.min(best, prev2[j - 1]! + 1)
      if (extra) best = Math.min(best, prev[j]! + 1)
      // A dropped stroke inside the word, not at its ends ("PETRO" is no misread "PETROL").
      if (DROPPED.has(w) && i < n) best = Math.min(best, row[j - 1]! + 1)
      row[j] = best
    }
    // Beyond the budget in this row and the one before (a pair spans both): no match.
    if (Math.min(...row) > budget && Math.min(...prev) > budget) return Number.POSITIVE_INFINITY
    prev2 = prev
    prev = row
  }
  return prev[m]! <= budget ? prev[m]! : Number.POSITIVE_INFINITY
}

/** The vocabulary word a doubtful word stands for, when exactly one is nearest; else null. */
function vocabularyWord(read: string): string | null {
  const folded = fold(read)
  if (VOCABULARY.has(folded)) return null
  const letters = (read.match(/\p{L}/gu) ?? []).length
  const budget = letters >= 8 ? 2 : 1
  let best = Number.POSITIVE_INFINITY
  let found: string[] = []
  for (let len = folded.length - budget; len <= folded.length + budget; len++) {
    for (const word of BY_LENGTH.get(len) ?? []) {
      const cost = confusionCost(read, word, Math.min(budget, best))
      if (cost < best) {
        best = cost
        found = [word]
      } else if (cost === best && cost !== Number.POSITIVE_INFINITY) found.push(word)
    }
  }
  return found.length === 1 ? VOCABULARY.get(found[0]!)! : null
}

/** `word` in the case pattern of `like` (all capitals, all small, or capitalised). */
function inCaseOf(word: string, like: string): string {
  const letters = like.replace(/[^\p{L}]/gu, '')
  const upper = [...letters].filter((ch) => ch !== ch.toLowerCase()).length
  if (upper === 0) return word.toLowerCase()
  if (upper === letters.length || upper * 2 > letters.length) return word.toUpperCase()
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()
}

/** A word the recogniser gave less confidence than this may be corrected. */
export const UNSURE_BELOW = 93

/** Minimum letters of a word corrected by the vocabulary. */
const MIN_LETTERS = 4

/** A bracket or bar between letters, or ending a word of letters, is a letter: l after small letters, else I. */
function glyphFix(core: string): string {
  if ((core.match(/\p{L}/gu) ?? []).length < 3 || /\d/.test(core)) return core
  return core.replace(/(?<=\p{L})[\]|](?=\p{L}|$)/gu, (_m, at: number) =>
    /\p{Ll}/u.test(core[at - 1]!) ? 'l' : 'I',
  )
}

/**
 * Two words of letters joined by an underscore ("MARCO_POLO"): OCR's reading of the gap between
 * them (a low stroke, a fold). Printed names and addresses have none; an address with `@`, a file
 * name or an identifier (with figures or dots) keeps its underscore.
 */
const JOINED_WORDS = /^\p{L}{2,}(?:_\p{L}{2,})+$/u

/** One word as read (with its leading and trailing punctuation), corrected when it should be. */
export function correctWord(text: string, confidence: number | undefined): string {
  if (JOINED_WORDS.test(text)) return text.replaceAll('_', ' ')
  const m = /^([("'“‘«]*)(.*?)([.,;:)"'”’»]*)$/u.exec(text)
  if (!m) return text
  const [, lead, read, tail] = m as unknown as [string, string, string, string]
  // A bracket opened by a parenthesis is closed by one: "(M}" is "(M)".
  const core = lead.includes('(') && !tail.includes(')') ? read.replace(/^([^()]+)[}\]]$/u, '$1)') : read
  // A word split by hyphens or slashes ("IN-GPARKLE", "BAR/RESTAURANT"): each part on its own.
  const parts = core.split(/([-/&])/)
  const fixed = parts.map((part, i) => {
    if (i % 2 === 1) return part
    const glyphs = glyphFix(part)
    const accented = confidence === undefined ? null : accentsBack(glyphs)
    if (accented) return accented
    const letters = (glyphs.match(/\p{L}/gu) ?? []).length
    const digits = (glyphs.match(/\d/g) ?? []).length
    if (confidence === undefined || confidence >= UNSURE_BELOW) return glyphs
    if (glyphs.length < MIN_LETTERS || letters < 3 || digits > 1) return glyphs
    const word = vocabularyWord(glyphs)
    return word ? inCaseOf(word, glyphs) : glyphs
  })
  return lead + fixed.join('') + tail
}

/**
 * A bar standing alone after a word of capitals that is no vocabulary word, in a line of letters
 * ("RESTAURANT JIAWE |"): the word's last letter I, split off by OCR. A bar with a closing
 * parenthesis after it and none opened before is the opening one ("MOTOR | SUNGAI RENGIT )").
 */
export function splitBar(text: string): string {
  if (/\d/.test(text) || !text.includes(' |')) return text
  const known = (word: string) => VOCABULARY.has(fold(word)) || LABEL_WORDS.has(fold(word))
  return text.replace(/(\p{Lu}{4,}) \|(?= |$)/gu, (whole, word: string, at: number) => {
    const before = text.slice(0, at)
    const after = text.slice(at + whole.length)
    if (after.includes(')') && !before.includes('(')) return `${word} (`
    // A label or a word ending before a table's rule ("MONTANT |") keeps its rule.
    return known(word) ? whole : `${word}I`
  })
}

function correctSegment(segment: Segment): Segment {
  const words = segment.text.split(' ')
  const confidence = segment.confidence?.length === words.length ? segment.confidence : undefined
  const text = splitBar(words.map((w, i) => correctWord(w, confidence?.[i])).join(' '))
  return text === segment.text ? segment : { ...segment, text }
}

/** An OCR'd page with its doubtful words corrected (lines without word confidences stay as read). */
export function correctPage(page: PageText): PageText {
  return {
    ...page,
    lines: page.lines.map((line): Line => {
      const segments = line.segments.map(correctSegment)
      if (segments.every((s, i) => s === line.segments[i])) return line
      return { ...line, segments, text: segments.map((s) => s.text).join('  ') }
    }),
  }
}

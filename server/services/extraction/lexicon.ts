/**
 * Labels as data: lexicon.json holds, per field, the labels documents print for it in English,
 * French and German (and, under `excl`, look-alike labels of other things). This module turns
 * them into matchers; the field rules never spell a label themselves, so a new variant is one
 * line of JSON.
 */
import data from './lexicon.json' with { type: 'json' }

export type LabelField = Exclude<keyof typeof data, '$comment'>

/**
 * Lower case, accents removed, `°`/`º` as `o` (N° = No): keeps the length of NFC text, so an
 * index in the folded text is an index in the original.
 */
function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[°º]/g, 'o')
}

/** One printed label as a pattern: case, accents, `.`, `-`, `:` and spacing are free. */
function labelPattern(label: string): string {
  const l = fold(label.normalize('NFC')).trim()
  let out = ''
  for (let i = 0; i < l.length; i++) {
    const c = l[i]!
    if (c === 's' && l[i + 1] === 's') {
      out += '(?:ss|ß)'
      i++
    } else if (/[a-z0-9]/.test(c)) out += c
    else if (/[\s\-'’/]/.test(c)) out += "[\\s\\-'’./]*"
    else if (c === '.') out += '\\.?\\s*'
    else if (c === '(' || c === ')') out += `\\s*\\${c}?\\s*`
    else if (c === ':') out += ':?'
    else out += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  }
  return out
}

interface Compiled {
  /** Labels of the field, longest first, at the start of a text. */
  start: RegExp
  /** The field's `excl` look-alikes at the start of a text. */
  excl: RegExp | null
  /** Any label of the field anywhere, on word boundaries. */
  anywhere: RegExp
  /** The same, global (made on first use). */
  global?: RegExp
  /** The `excl` look-alikes anywhere, global (made on first use). */
  exclGlobal?: RegExp
}

const END = '(?![\\p{L}\\d])'
const LEAD = '^[\\s:.\\-#*(>|]*'

function compile(entry: Record<string, string[]>): Compiled {
  const labels = Object.entries(entry)
    .filter(([lang]) => lang !== 'excl')
    .flatMap(([, list]) => list)
  const alt = (list: string[]) =>
    [...new Set(list.map(labelPattern))].sort((a, b) => b.length - a.length).join('|')
  const excl = entry.excl?.length ? new RegExp(`${LEAD}(?:${alt(entry.excl)})${END}`, 'u') : null
  return {
    start: new RegExp(`${LEAD}(?:${alt(labels)})${END}`, 'u'),
    excl,
    anywhere: new RegExp(`(?<![\\p{L}\\d])(?:${alt(labels)})${END}`, 'u'),
  }
}

const compiled = new Map<LabelField, Compiled>()
for (const [field, entry] of Object.entries(data)) {
  if (field === '$comment') continue
  compiled.set(field as LabelField, compile(entry as Record<string, string[]>))
}

/** The labels of a field, as written in lexicon.json (for tests and diagnostics). */
export function labelsOf(field: LabelField): Record<string, string[]> {
  return (data as unknown as Record<string, Record<string, string[]>>)[field]!
}

/**
 * The languages whose labels of the field include the label as printed ("P.IVA": it; "IVA": it
 * and es; "NIF": es).
 */
export function labelLanguages(field: LabelField, printed: string): string[] {
  let list = whole.get(field)
  if (!list) {
    list = Object.entries(labelsOf(field))
      .filter(([lang]) => lang !== 'excl')
      .map(([lang, labels]) => ({
        lang,
        re: new RegExp(`${LEAD}(?:${labels.map(labelPattern).join('|')})[\\s:.#]*$`, 'u'),
      }))
    whole.set(field, list)
  }
  const folded = fold(printed.normalize('NFC'))
  return list.filter(({ re }) => re.test(folded)).map(({ lang }) => lang)
}

const whole = new Map<LabelField, { lang: string; re: RegExp }[]>()

/** The languages the lexicon lists labels in (each language key of lexicon.json). */
export const LEXICON_LANGUAGES: readonly string[] = [
  ...new Set(
    Object.entries(data)
      .filter(([field]) => field !== '$comment')
      .flatMap(([, entry]) => Object.keys(entry as Record<string, string[]>))
      .filter((lang) => lang !== 'excl'),
  ),
]

export interface LabelMatch {
  /** The label as printed. */
  label: string
  /** What follows the label (its value, when printed on the same segment), trimmed. */
  rest: string
}

/**
 * The field's label printed at the start of `text`, or null. A look-alike of the field's
 * `excl` list matching at least as much text wins (no label).
 */
export function labelAt(field: LabelField, text: string): LabelMatch | null {
  const c = compiled.get(field)!
  const nfc = text.normalize('NFC')
  const folded = fold(nfc)
  const m = folded.match(c.start)
  if (!m) return null
  const x = c.excl ? folded.match(c.excl) : null
  if (x && x[0].length >= m[0].length) return null
  return {
    label: nfc.slice(0, m[0].length).trim(),
    rest: nfc
      .slice(m[0].length)
      .replace(/^[\s:.#°º\-–=]+/, '')
      .trim(),
  }
}

const ranked = new Map<LabelField, { re: RegExp; rank: number }[]>()

/**
 * How specific the label printed at the start of `text` is, 0..1: each language lists its
 * labels from the most specific ("Total TTC", "Gross total amount") to the most generic
 * ("Total"); the longest lexicon label matching gives the rank. 0 when none matches.
 */
export function labelRank(field: LabelField, text: string): number {
  let list = ranked.get(field)
  if (!list) {
    list = Object.entries(labelsOf(field))
      .filter(([lang]) => lang !== 'excl')
      .flatMap(([, labels]) =>
        labels.map((l, i) => ({
          re: new RegExp(`${LEAD}(?:${labelPattern(l)})${END}`, 'u'),
          rank: 1 - i / labels.length,
        })),
      )
    ranked.set(field, list)
  }
  const folded = fold(text.normalize('NFC'))
  let best = { len: 0, rank: 0 }
  for (const { re, rank } of list) {
    const m = folded.match(re)
    if (m && (m[0].length > best.len || (m[0].length === best.len && rank > best.rank)))
      best = { len: m[0].length, rank }
  }
  return best.rank
}

export interface LabelHit extends LabelMatch {
  /** Where the label starts in `text` (NFC). */
  index: number
  /** How specific it is (see labelRank). */
  rank: number
}

/**
 * Every label of the field printed in `text`, at the start or after other words
 * ("Handelsrechnung (380) Nr. 471102"), except where a look-alike of the field's `excl` list
 * covers it ("Kunden-Nr.", "Order No").
 */
export function labelsIn(field: LabelField, text: string): LabelHit[] {
  const c = compiled.get(field)!
  const nfc = text.normalize('NFC')
  const folded = fold(nfc)
  c.global ??= new RegExp(c.anywhere.source, 'gu')
  if (c.excl) c.exclGlobal ??= new RegExp(c.excl.source.replace(LEAD, '(?<![\\p{L}\\d])'), 'gu')
  const exclSpans: [number, number][] = []
  if (c.exclGlobal)
    for (const m of folded.matchAll(c.exclGlobal)) exclSpans.push([m.index!, m.index! + m[0].length])
  const global = c.global
  const out: LabelHit[] = []
  for (const m of folded.matchAll(global)) {
    const start = m.index!
    const end = start + m[0].length
    if (exclSpans.some(([a, b]) => a <= start && b >= end - 1)) continue
    out.push({
      index: start,
      label: nfc.slice(start, end).trim(),
      rest: nfc
        .slice(end)
        .replace(/^[\s:.#°º\-–=]+/, '')
        .trim(),
      rank: labelRank(field, nfc.slice(start)),
    })
  }
  return out
}

/** Whether `text` prints one of the field's labels anywhere (word boundaries). */
export function hasLabel(field: LabelField, text: string): boolean {
  return compiled.get(field)!.anywhere.test(fold(text.normalize('NFC')))
}

/** Whether `text` is nothing but a label of the field (with punctuation). */
export function isLabel(field: LabelField, text: string): boolean {
  const m = labelAt(field, text)
  return m !== null && m.rest.replace(/[\s:.()]/g, '') === ''
}

/** Whether the last words before a label refer to another document ("zu", "regarding", "suite à"). */
export function refersTo(before: string): boolean {
  const words = before.trim().split(/\s+/).slice(-3).join(' ')
  return words !== '' && hasLabel('reference_to', words)
}

/**
 * Whether a label of the field in `text` is said to be another party's: a word of the lexicon's
 * `other_party` right before it or between it and its value ("USt-IdNr. Kunde:", "Your VAT No",
 * "N° TVA client :").
 */
export function othersLabel(field: LabelField, text: string): boolean {
  const nfc = text.normalize('NFC')
  return labelsIn(field, nfc).some((hit) => {
    const before = nfc.slice(0, hit.index).trim().split(/\s+/).pop() ?? ''
    const between = hit.rest.split(/[:\d]/)[0] ?? ''
    return hasLabel('other_party', `${before} ${between}`)
  })
}

const ownLabels = new Map<string, RegExp>()

/**
 * How many distinct labels only one language prints (not also a label in another language) a
 * text carries: what language a page is written in ("Summe", "Rückgeld", "MwSt" are German).
 */
export function languageLabels(text: string, lang: string): number {
  let re = ownLabels.get(lang)
  if (!re) {
    const own = new Set<string>()
    const others = new Set<string>()
    for (const [field, entry] of Object.entries(data)) {
      if (field === '$comment') continue
      for (const [l, list] of Object.entries(entry as Record<string, string[]>))
        for (const label of list) (l === lang ? own : others).add(labelPattern(label))
    }
    const alt = [...own].filter((p) => !others.has(p)).sort((a, b) => b.length - a.length)
    re = new RegExp(`(?<![\\p{L}\\d])(?:${alt.join('|')})${END}`, 'gu')
    ownLabels.set(lang, re)
  }
  return new Set([...fold(text.normalize('NFC')).matchAll(re)].map((m) => m[0])).size
}

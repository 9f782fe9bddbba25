/** Reading the parsed XML tree (fast-xml-parser's objects) by element names, tolerant of absent parts. */
import { isIsoDate } from '../../../contract/document-corrections.ts'

type XmlNode = unknown

const asList = (value: XmlNode): XmlNode[] =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]

/** Every element at the end of `path` (each step may repeat). */
export function all(node: XmlNode, ...path: string[]): XmlNode[] {
  let current = asList(node)
  for (const name of path)
    current = current.flatMap((n) =>
      n && typeof n === 'object' ? asList((n as Record<string, XmlNode>)[name]) : [],
    )
  return current
}

/** The first element at the end of `path`. */
export const one = (node: XmlNode, ...path: string[]): XmlNode => all(node, ...path)[0]

/**
 * An element's text, trimmed, with each line break or tab in it (and the blanks around it) read
 * as one space, as XML treats them (the Unicode line and paragraph separators too); null when
 * absent or empty. The text rule (text-rule.ts)
 * cleans what is left.
 */
export function text(node: XmlNode): string | null {
  const value =
    node && typeof node === 'object'
      ? (node as Record<string, XmlNode>)['#text']
      : (node as string | undefined)
  if (value === undefined || value === null || typeof value === 'object') return null
  const s = String(value)
    .replace(/[ ]*[\t\n\r\u0085\u2028\u2029]+[ \t\n\r\u0085\u2028\u2029]*/g, ' ')
    .trim()
  return s === '' ? null : s
}

/** The text at the end of `path`. */
export const textAt = (node: XmlNode, ...path: string[]): string | null => text(one(node, ...path))

export function attr(node: XmlNode, name: string): string | null {
  if (!node || typeof node !== 'object') return null
  const value = (node as Record<string, XmlNode>)[`@_${name}`]
  return value === undefined ? null : String(value)
}

/** A decimal as the XML writes it (`-7.67`, `1E2`); null when absent or not a number. */
export function amount(node: XmlNode): number | null {
  const s = text(node)
  if (s === null) return null
  const n = Number(s)
  return Number.isFinite(n) ? n : null
}

export const amountAt = (node: XmlNode, ...path: string[]): number | null => amount(one(node, ...path))

/**
 * `20180305` (CII format 102) or `2018-03-05` to `2018-03-05`; null for anything else, a day the
 * calendar does not have (`2024-02-30`, `2024-13-45`) or one before 1900 included, as corrections
 * take dates.
 */
export function isoDate(value: string | null): string | null {
  if (!value) return null
  const m = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(value.trim())
  const date = m && `${m[1]}-${m[2]}-${m[3]}`
  return date && isIsoDate(date) ? date : null
}

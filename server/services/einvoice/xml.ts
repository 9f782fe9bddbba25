/**
 * Safe XML reading for e-invoices: a size limit checked before decoding, any DOCTYPE or ENTITY
 * declaration refused before the parser sees the text (no DTD, so no external entity and no
 * entity expansion), and only the five predefined entities and character references decoded.
 */
import { XMLParser } from 'fast-xml-parser'

/** Larger than any real invoice XML (the biggest public samples are well under 1 MB). */
const MAX_XML_BYTES = 10 * 1024 * 1024

/** Why an e-invoice's XML is refused: the document ends FAILED with `einvoice_invalid`. */
export class EInvoiceError extends Error {
  readonly code = 'einvoice_invalid'
  constructor(message: string) {
    super(message)
    this.name = 'EInvoiceError'
  }
}

export type InvoiceRoot = 'ubl-invoice' | 'ubl-credit-note' | 'cii' | 'zugferd1'

const ROOT_NAMESPACES: Record<string, { local: string; root: InvoiceRoot }> = {
  'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2': { local: 'Invoice', root: 'ubl-invoice' },
  'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2': {
    local: 'CreditNote',
    root: 'ubl-credit-note',
  },
  'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100': {
    local: 'CrossIndustryInvoice',
    root: 'cii',
  },
  'urn:ferd:CrossIndustryDocument:invoice:1p0': { local: 'CrossIndustryDocument', root: 'zugferd1' },
}

/** Skips the prolog (BOM, declaration, comments, processing instructions, a DOCTYPE) to the root tag. */
function rootTag(text: string): string | null {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++
    if (text.startsWith('<?', i)) i = text.indexOf('?>', i) + 2
    else if (text.startsWith('<!--', i)) i = text.indexOf('-->', i) + 3
    else if (text.startsWith('<!DOCTYPE', i)) {
      // Its internal subset (between brackets) may hold `>`.
      const bracket = text.indexOf('[', i)
      const close = text.indexOf('>', i)
      i = bracket !== -1 && bracket < close ? text.indexOf(']', bracket) : i
      i = i < 0 ? -1 : text.indexOf('>', i) + 1
    } else break
    if (i <= 0) return null
  }
  if (text[i] !== '<') return null
  const end = text.indexOf('>', i)
  return end === -1 ? null : text.slice(i, end + 1)
}

/**
 * Which e-invoice an XML text is, by its root element and that element's namespace (never by the
 * file name); null for any other XML or non-XML. Reads only the start of the text.
 */
export function sniffInvoiceRoot(text: string): InvoiceRoot | null {
  const tag = rootTag(text)
  if (!tag) return null
  const name = /^<([\w.-]+:)?([\w.-]+)/.exec(tag)
  if (!name) return null
  const prefix = name[1] ? name[1].slice(0, -1) : null
  const attr = prefix ? `xmlns:${prefix}` : 'xmlns'
  const ns = new RegExp(`\\s${attr.replace('.', '\\.')}\\s*=\\s*["']([^"']*)["']`).exec(tag)?.[1]
  const known = ns ? ROOT_NAMESPACES[ns] : undefined
  return known && known.local === name[2] ? known.root : null
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** The five predefined entities and numeric character references; anything else stays as written. */
function decodeEntities(value: string): string {
  if (!value.includes('&')) return value
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return PREDEFINED[ref.toLowerCase()] ?? whole
    const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1))
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
  tagValueProcessor: (_name, value) => decodeEntities(value),
  attributeValueProcessor: (_name, value) => decodeEntities(value),
})

/** Bytes to text: UTF-8 (with or without BOM) unless the declaration names a Latin-1 family. */
function decode(data: Uint8Array): string {
  const head = Buffer.from(data.subarray(0, 200)).toString('latin1')
  const encoding = /encoding\s*=\s*["']([\w-]+)["']/i.exec(head)?.[1]?.toLowerCase()
  const latin = encoding && /^(iso-8859-1|latin1|windows-1252|us-ascii)$/.test(encoding)
  return new TextDecoder(latin ? 'windows-1252' : 'utf-8').decode(data)
}

export interface ParsedInvoiceXml {
  root: InvoiceRoot
  /** The root element's content (namespace prefixes removed). */
  doc: Record<string, unknown>
}

/**
 * Parses an e-invoice XML safely. Throws EInvoiceError for a file over MAX_XML_BYTES (before
 * decoding it), a DOCTYPE or ENTITY declaration, malformed XML or a root that is no e-invoice.
 */
export function parseInvoiceXml(data: Uint8Array): ParsedInvoiceXml {
  if (data.byteLength > MAX_XML_BYTES)
    throw new EInvoiceError(`The e-invoice XML is larger than ${MAX_XML_BYTES / 1024 / 1024} MB`)
  const text = decode(data)
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw new EInvoiceError('The e-invoice XML declares a DOCTYPE or entities, which are refused')
  const root = sniffInvoiceRoot(text)
  if (!root) throw new EInvoiceError('The XML is not a UBL or CII e-invoice')
  let parsed: Record<string, unknown>
  try {
    parsed = parser.parse(text, true) as Record<string, unknown>
  } catch (error) {
    throw new EInvoiceError(`The e-invoice XML is malformed: ${(error as Error).message}`.slice(0, 300))
  }
  const local = Object.values(ROOT_NAMESPACES).find((r) => r.root === root)!.local
  const doc = parsed[local]
  if (!doc || typeof doc !== 'object') throw new EInvoiceError('The e-invoice XML has no content')
  return { root, doc: doc as Record<string, unknown> }
}

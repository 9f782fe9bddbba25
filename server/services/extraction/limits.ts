/**
 * Limits checked BEFORE anything is decoded: the pixel count an image declares in its header
 * (PNG IHDR, JPEG SOFn) or a PDF in its image dictionaries, the page count of a PDF and the pages
 * that would need OCR. A few hundred bytes can declare gigapixels or thousands of pages; these
 * checks read only headers, so such a file is refused in microseconds with a code the user can
 * act on instead of exhausting memory and time.
 */

export type UnreadableCode =
  | 'unreadable_file'
  | 'no_text'
  | 'file_too_large_to_process'
  | 'too_many_pages'
  /** An e-invoice XML that is malformed, hostile (DOCTYPE, entities) or too large. */
  | 'einvoice_invalid'

/** A file the engine will not or cannot read: it ends FAILED with `code`, without a retry. */
export class UnreadableFileError extends Error {
  constructor(
    readonly code: UnreadableCode,
    message: string,
  ) {
    super(message)
    this.name = 'UnreadableFileError'
  }
}

export interface ExtractionLimits {
  /** Largest image (declared width × height) decoded for OCR. */
  maxPixels: number
  /** Largest PDF page count read. */
  maxPages: number
  /** Most pages OCR'd in one document (images and PDF pages without a text layer). */
  maxOcrPages: number
}

/**
 * 40 MP: an A4 page scanned at 600 dpi is 35 MP (4961 × 7016), Letter 34 MP; nothing an invoice
 * scanner produces is larger, and OCR of 40 MP takes ~40 s and ~600 MB here. 500 pages: long
 * itemised invoices (telecoms, utilities) reach tens of pages, the text layer reads at ~12 ms a
 * page. 20 OCR pages: a scanned invoice is one to a few pages; 20 pages is ~100 s of OCR.
 */
export const DEFAULT_LIMITS: ExtractionLimits = {
  maxPixels: 40_000_000,
  maxPages: 500,
  maxOcrPages: 20,
}

export interface ImageSize {
  width: number
  height: number
}

const unreadable = (what: string) =>
  new UnreadableFileError('unreadable_file', `The image cannot be read: ${what}`)

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/**
 * Width and height from a PNG's IHDR, after walking the chunks up to the first IDAT: a file cut
 * before its image data, or with chunk lengths running past its end, is refused here rather than
 * handed to a decoder.
 */
export function pngSize(data: Uint8Array): ImageSize {
  if (data.length < 8 + 25 || PNG_SIGNATURE.some((b, i) => data[i] !== b)) throw unreadable('not a PNG')
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const type = (at: number) => String.fromCharCode(data[at]!, data[at + 1]!, data[at + 2]!, data[at + 3]!)
  if (view.getUint32(8) !== 13 || type(12) !== 'IHDR') throw unreadable('no PNG header')
  const width = view.getUint32(16)
  const height = view.getUint32(20)
  const depth = data[24]!
  const colour = data[25]!
  const validDepths: Record<number, number[]> = {
    0: [1, 2, 4, 8, 16],
    2: [8, 16],
    3: [1, 2, 4, 8],
    4: [8, 16],
    6: [8, 16],
  }
  if (width === 0 || height === 0 || !validDepths[colour]?.includes(depth))
    throw unreadable('invalid PNG header')
  for (let at = 8; ; ) {
    if (at + 12 > data.length) throw unreadable('the PNG is truncated')
    const length = view.getUint32(at)
    if (at + 12 + length > data.length) throw unreadable('the PNG is truncated')
    if (type(at + 4) === 'IDAT' && length > 0) return { width, height }
    if (type(at + 4) === 'IEND') throw unreadable('the PNG has no image data')
    at += 12 + length
  }
}

/**
 * Width and height from a JPEG's frame header (SOF0–SOF15 but DHT, JPG, DAC), after walking the
 * marker segments up to the start of scan: no frame header, a zero dimension (height defined
 * later by DNL, which no scanner writes) or segments running past the end are refused.
 */
export function jpegSize(data: Uint8Array): ImageSize {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) throw unreadable('not a JPEG')
  let size: ImageSize | null = null
  let at = 2
  while (at < data.length) {
    if (data[at] !== 0xff) throw unreadable('corrupt JPEG markers')
    while (data[at] === 0xff) at++ // fill bytes
    if (at >= data.length) break
    const marker = data[at]!
    at++
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue // no length
    if (marker === 0xd9) break // end of image before any scan
    if (at + 2 > data.length) break
    const length = (data[at]! << 8) | data[at + 1]!
    if (length < 2 || at + length > data.length) break
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc
    if (isFrame) {
      if (length < 8) throw unreadable('corrupt JPEG frame header')
      const height = (data[at + 3]! << 8) | data[at + 4]!
      const width = (data[at + 5]! << 8) | data[at + 6]!
      if (width === 0 || height === 0) throw unreadable('the JPEG declares no size')
      size = { width, height }
    }
    if (marker === 0xda) {
      // Start of scan: the frame must have come first and entropy-coded data must follow.
      if (!size) throw unreadable('the JPEG has no frame header')
      if (at + length >= data.length) throw unreadable('the JPEG is truncated')
      return size
    }
    at += length
  }
  throw unreadable('the JPEG is truncated')
}

export function imageSize(data: Uint8Array, contentType: string): ImageSize {
  if (contentType === 'image/png') return pngSize(data)
  if (contentType === 'image/jpeg') return jpegSize(data)
  throw unreadable(`unsupported type ${contentType}`)
}

export function tooLarge(
  size: ImageSize,
  limits: ExtractionLimits,
  what = 'The image',
): UnreadableFileError | null {
  const pixels = size.width * size.height
  if (pixels <= limits.maxPixels) return null
  return new UnreadableFileError(
    'file_too_large_to_process',
    `${what} has ${size.width} × ${size.height} pixels (${(pixels / 1e6).toFixed(1)} MP), more than the ${(limits.maxPixels / 1e6).toFixed(0)} MP processed`,
  )
}

/** Refuses an image whose header is unreadable or declares more pixels than the limit. */
export function checkImage(data: Uint8Array, contentType: string, limits: ExtractionLimits): ImageSize {
  const size = imageSize(data, contentType)
  const error = tooLarge(size, limits)
  if (error) throw error
  return size
}

export function tooManyPages(pages: number, limit: number, ocr = false): UnreadableFileError {
  return new UnreadableFileError(
    'too_many_pages',
    ocr
      ? `${pages} pages have no text layer and need OCR, more than the ${limit} read per document`
      : `The PDF has ${pages} pages, more than the ${limit} read per document`,
  )
}

/**
 * The largest image a PDF declares, read from the image XObject dictionaries in the file's bytes:
 * streams may not live in object streams (ISO 32000-1 §7.5.7), so every image dictionary is
 * written in clear in the file body, whatever the compression of its data. Width or Height given
 * as an indirect reference are resolved when that object is in clear too; images whose size this
 * cannot tell (and inline images) are left to pdf.js's own `maxImageSize` guard, which skips them
 * before decoding.
 */
export function largestPdfImage(data: Uint8Array): ImageSize | null {
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1')
  const integerObject = (ref: string): number | null => {
    const [num, gen] = ref.trim().split(/\s+/)
    const m = new RegExp(`(?:^|[^0-9])${num}\\s+${gen}\\s+obj\\s*(\\d+)\\s*endobj`).exec(text)
    return m ? Number(m[1]) : null
  }
  const dimension = (dict: string, key: 'Width' | 'Height'): number | null => {
    const m = new RegExp(`/${key}\\s*(\\d+(?:\\s+\\d+\\s+R)?)`).exec(dict)
    if (!m) return null
    return m[1]!.endsWith('R') ? integerObject(m[1]!.slice(0, -1)) : Number(m[1])
  }
  let largest: ImageSize | null = null
  for (const match of text.matchAll(/\/Subtype\s*\/Image\b/g)) {
    // The enclosing dictionary: from its object header to its stream keyword, in a small window
    // (an image dictionary is a few hundred bytes).
    const from = text.lastIndexOf('obj', match.index)
    const to = text.indexOf('stream', match.index)
    if (from < 0 || to < 0 || match.index - from > 4096 || to - match.index > 4096) continue
    const dict = text.slice(from, to)
    const width = dimension(dict, 'Width')
    const height = dimension(dict, 'Height')
    if (width === null || height === null) continue
    if (!largest || width * height > largest.width * largest.height) largest = { width, height }
  }
  return largest
}

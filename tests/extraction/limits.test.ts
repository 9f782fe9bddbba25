/**
 * The header readers behind the limits checked before decoding: real files read at their real
 * size, cut or corrupt headers refused as unreadable, the PDF image dictionary read whether its
 * size is written directly or by reference, and the limits applied by extractDocument itself.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createOcrPool, extractDocument } from '../../server/services/extraction/index.ts'
import {
  DEFAULT_LIMITS,
  imageSize,
  jpegSize,
  largestPdfImage,
  pngSize,
  UnreadableFileError,
} from '../../server/services/extraction/limits.ts'
import { decodePng } from '../../server/services/extraction/png.ts'
import {
  blankScanPdf,
  buildPdf,
  hugeImagePdf,
  jpegLikeGarbage,
  manyPagesPdf,
  tinyJpegDeclaring,
  tinyPngDeclaring,
} from '../support/bomb-files.ts'

const CORPUS = join(import.meta.dirname, '../../../shared/corpus/files')
const ocr = createOcrPool(1)
afterAll(() => ocr.close())

const refusal = (fn: () => unknown) => {
  try {
    fn()
  } catch (error) {
    return error as UnreadableFileError
  }
  throw new Error('not refused')
}

describe('image headers', () => {
  it('reads the size of real scans: a PNG as its decoder does, a JPEG from its frame header', async () => {
    const png = await readFile(join(CORPUS, '0032-scan.png'))
    const decoded = decodePng(png)!
    expect(pngSize(png)).toEqual({ width: decoded.width, height: decoded.height })
    const jpeg = await readFile(join(CORPUS, '0018-scan.jpg'))
    const size = imageSize(jpeg, 'image/jpeg')
    expect(size.width).toBeGreaterThan(500)
    expect(size.height).toBeGreaterThan(size.width)
  })

  it('refuses cut or corrupt headers as unreadable', async () => {
    const png = await readFile(join(CORPUS, '0032-scan.png'))
    const jpeg = await readFile(join(CORPUS, '0018-scan.jpg'))
    for (const broken of [
      () => pngSize(png.subarray(0, 40)), // cut inside the first image data chunk
      () => pngSize(png.subarray(0, 20)), // cut inside the header
      () => jpegSize(jpeg.subarray(0, 100)), // cut before the start of scan
      () => jpegSize(jpegLikeGarbage()),
      () => jpegSize(Buffer.from([0xff, 0xd8, 0xff, 0xd9])), // no frame at all
    ]) {
      const error = refusal(broken)
      expect(error).toBeInstanceOf(UnreadableFileError)
      expect(error.code).toBe('unreadable_file')
    }
  })

  it('reads the gigapixels tiny files declare', () => {
    expect(jpegSize(tinyJpegDeclaring())).toEqual({ width: 65_500, height: 65_500 })
    expect(tinyJpegDeclaring()).toHaveLength(49)
    expect(pngSize(tinyPngDeclaring())).toEqual({ width: 65_500, height: 65_500 })
    expect(tinyPngDeclaring()).toHaveLength(74)
  })
})

describe('PDF image dictionaries', () => {
  it('finds the largest image, its size written directly or as a reference', () => {
    expect(largestPdfImage(hugeImagePdf())).toEqual({ width: 20_000, height: 20_000 })
    expect(largestPdfImage(blankScanPdf(2))).toEqual({ width: 1654, height: 2339 })
    const byReference = buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [] /Count 0 >>',
      '12000',
      '<< /Type /XObject /Subtype /Image /Width 3 0 R /Height 9000 /BitsPerComponent 1 /Length 0 >>\nstream\n\nendstream',
    ])
    expect(largestPdfImage(byReference)).toEqual({ width: 12_000, height: 9000 })
    expect(largestPdfImage(manyPagesPdf(3))).toBeNull()
  })
})

const codeOf = (data: Uint8Array, type: string, limits = {}) =>
  extractDocument(data, type, ocr, { limits }).then(
    () => 'accepted',
    (e: UnreadableFileError) => e.code,
  )

describe('extractDocument applies the limits before decoding', () => {
  it('refuses too many pages, too many pages to OCR and too many pixels, each with its code', async () => {
    expect(await codeOf(manyPagesPdf(DEFAULT_LIMITS.maxPages + 1), 'application/pdf')).toBe('too_many_pages')
    expect(await codeOf(blankScanPdf(3), 'application/pdf', { maxOcrPages: 2 })).toBe('too_many_pages')
    expect(await codeOf(hugeImagePdf(2000), 'application/pdf', { maxPixels: 3_000_000 })).toBe(
      'file_too_large_to_process',
    )
    const scan = await readFile(join(CORPUS, '0032-scan.png'))
    expect(await codeOf(scan, 'image/png', { maxPixels: 1_000_000 })).toBe('file_too_large_to_process')
    // The caller's bytes are left whole (pdf.js detaches the buffer it is given).
    const pdf = new Uint8Array(await readFile(join(CORPUS, '0002-facture.pdf')))
    const length = pdf.length
    await extractDocument(pdf, 'application/pdf', ocr)
    expect(pdf.length).toBe(length)
  })
})

describe('images whose header reads but whose data does not', () => {
  it('are unreadable, nothing is thrown where it cannot be caught, and the OCR worker reads the next scan', async () => {
    // tesseract.js used to rethrow a failed read from its message listener: an uncaught error
    // that ended the process (vitest reports it as an unhandled error).
    const jpeg = await readFile(join(CORPUS, '0018-scan.jpg'))
    expect(await codeOf(jpeg.subarray(0, jpeg.length >> 1), 'image/jpeg')).toBe('unreadable_file')
    expect(await codeOf(tinyJpegDeclaring(100), 'image/jpeg')).toBe('unreadable_file')
    const next = await extractDocument(await readFile(join(CORPUS, '0040-scan.jpg')), 'image/jpeg', ocr)
    expect(next.ocrPages).toBe(1)
    expect(next.fields.total_invoice_including_vat).not.toBeNull()
  })
})

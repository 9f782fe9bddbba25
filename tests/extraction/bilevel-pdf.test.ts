/**
 * Scanned PDFs from office scanners are often 1 bit per pixel (CCITT, JBIG2, Flate): such a
 * page, built here from a corpus scan, is read through OCR like an 8-bit one.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { createOcrPool, extractDocument } from '../../server/services/extraction/index.ts'
import { decodePng, toGrey } from '../../server/services/extraction/png.ts'
import { CORPUS_DIR, loadTruth } from './corpus.ts'

const FILE = '0046-scan.png'
// The corpus comes with the project's shared folder: without it the run must fail, not skip.
if (!existsSync(join(CORPUS_DIR, 'files', FILE)))
  throw new Error(`the corpus is missing: ${join(CORPUS_DIR, 'files', FILE)}`)
const ocr = createOcrPool(1)
afterAll(() => ocr.close())

/** A one-page PDF showing a 1-bit DeviceGray image over the whole A4 page. */
function bilevelPdf(width: number, height: number, grey: Uint8Array, mask = false): Buffer {
  const stride = Math.ceil(width / 8)
  const bits = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (grey[y * width + x]! >= 150) bits[y * stride + (x >> 3)]! |= 0x80 >> (x & 7)
  const image = deflateSync(bits)
  const content = Buffer.from(`q ${mask ? '0 g ' : ''}595 0 0 842 0 0 cm /Im0 Do Q\n`, 'latin1')
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>',
    ),
    Buffer.concat([
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} ${mask ? '/ImageMask true' : '/ColorSpace /DeviceGray'} /BitsPerComponent 1 /Filter /FlateDecode /Length ${image.length} >>\nstream\n`,
      ),
      image,
      Buffer.from('\nendstream'),
    ]),
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} >>\nstream\n`),
      content,
      Buffer.from('endstream'),
    ]),
  ]
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')]
  const offsets: number[] = []
  let at = parts[0]!.length
  objects.forEach((body, i) => {
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')])
    offsets.push(at)
    parts.push(obj)
    at += obj.length
  })
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    'startxref',
    String(at),
    '%%EOF',
  ].join('\n')
  parts.push(Buffer.from(xref))
  return Buffer.concat(parts)
}

describe('1-bit scanned PDF', () => {
  // Image: bit 1 = white. Stencil mask: bit 0 = painted (black ink), 1 = the page shows.
  for (const mask of [false, true]) {
    it(`reads a bilevel page ${mask ? 'stencil mask' : 'image'} through OCR`, async () => {
      const png = decodePng(readFileSync(join(CORPUS_DIR, 'files', FILE)))!
      const pdf = bilevelPdf(png.width, png.height, toGrey(png), mask)
      const result = await extractDocument(new Uint8Array(pdf), 'application/pdf', ocr)
      expect(result).toMatchObject({ pages: 1, ocrPages: 1, textPages: 0 })
      const truth = loadTruth().find((l) => l.file === FILE)!.fields
      expect(result.fields.invoice_number).toBe(truth.invoice_number)
      expect(result.fields.document_date).toBe(truth.invoice_date)
      expect(result.fields.total_invoice_including_vat).toBeCloseTo(
        Number(truth.total_invoice_including_vat),
        2,
      )
    })
  }
})

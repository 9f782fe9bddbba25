import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib'
import { afterEach, expect, it, vi } from 'vitest'
import { A4_WIDTH_PT, fitToPage, jpegToPdf } from '../../src/machines/uploads/photo-to-pdf'

/** The header of a baseline JPEG (SOI, SOF0 with its size and three components, EOI): what pdf-lib reads. */
function jpegHeader(width: number, height: number): Uint8Array {
  const sof = [0xff, 0xc0, 0x00, 0x11, 8, height >> 8, height & 255, width >> 8, width & 255, 3]
  const components = [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
  return new Uint8Array([0xff, 0xd8, ...sof, ...components, 0xff, 0xd9])
}

it('scales a photo to at most 300 dpi across an A4 page and A4’s pixels, and never enlarges one', () => {
  // A 12 MP phone photo, portrait: 2480 px across the page's 8.27 in.
  expect(fitToPage(3024, 4032)).toEqual({ width: 2480, height: 3307 })
  // Landscape: the same width limit.
  expect(fitToPage(4032, 3024)).toEqual({ width: 2480, height: 1860 })
  // A long narrow till receipt: held to A4's 8.7 MP at 300 dpi.
  const till = fitToPage(1500, 9000)
  expect(till.width * till.height).toBeLessThanOrEqual(2480 * 3508)
  expect(till.height / till.width).toBeCloseTo(6, 1)
  expect(fitToPage(300, 400)).toEqual({ width: 300, height: 400 })
})

it('wraps a JPEG in a one-page PDF, A4 wide and as tall as the image’s proportions, the image over the whole page', async () => {
  const bytes = await jpegToPdf(jpegHeader(300, 400), 'IMG_1234.pdf')
  const pdf = await PDFDocument.load(bytes)
  expect(pdf.getPageCount()).toBe(1)
  expect(pdf.getTitle()).toBe('IMG_1234.pdf')
  const page = pdf.getPage(0)
  expect(page.getWidth()).toBeCloseTo(A4_WIDTH_PT, 2)
  expect(page.getHeight()).toBeCloseTo((A4_WIDTH_PT * 400) / 300, 2)
  // One image on the page, the JPEG as it was given (no second encoding).
  const images = pdf.context
    .enumerateIndirectObjects()
    .map(([, object]) => object)
    .filter((o) => o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'))
  expect(images).toHaveLength(1)
  expect(String((images[0] as PDFRawStream).dict.get(PDFName.of('Filter')))).toBe('/DCTDecode')
  expect(String((images[0] as PDFRawStream).dict.get(PDFName.of('Height')))).toBe('400')
})

afterEach(() => vi.useRealTimers())

it('makes the same bytes from the same JPEG at another time (a photo converted again after a reload is the same file)', async () => {
  vi.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z'), toFake: ['Date'] })
  const first = await jpegToPdf(jpegHeader(300, 400), 'IMG_1234.pdf')
  vi.setSystemTime(new Date('2026-03-02T18:30:00Z'))
  const again = await jpegToPdf(jpegHeader(300, 400), 'IMG_1234.pdf')
  expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true)
  expect(Buffer.from(await jpegToPdf(jpegHeader(300, 401), 'IMG_1234.pdf')).equals(Buffer.from(first))).toBe(
    false,
  )
})

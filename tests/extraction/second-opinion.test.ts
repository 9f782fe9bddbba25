/**
 * The second recogniser (ocr-letters.ts): CTC decoding, the tight line cut, merging its letters
 * into tesseract's reading, and the extraction's use of it for the name, the total rows and the
 * date of an OCR'd page, with a scripted pool; then the real model on a real receipt's line.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createOcrPool, extractDocument, type OcrPool } from '../../server/services/extraction/index.ts'
import type { OcrRegion } from '../../server/services/extraction/ocr.ts'
import {
  decode,
  type LineReading,
  mergeLetters,
  tightLine,
} from '../../server/services/extraction/ocr-letters.ts'
import type { Line, PageText } from '../../server/services/extraction/pdf-text.ts'
import { encodePng } from '../../server/services/extraction/png.ts'
import { datesApart } from '../../server/services/extraction/second-opinion.ts'
import { CORPORA } from './corpus.ts'

const sure = (text: string, p = 0.95): LineReading => ({ text, probs: [...text].map(() => p) })

describe('mergeLetters', () => {
  it('takes the letters the second reading is sure of, keeping the first reading’s spacing', () => {
    expect(mergeLetters('MEL LET RESTAURANT', sure('MEILETRESTAURANT'), [66, 95, 95])).toBe(
      'MEI LET RESTAURANT',
    )
    // Lower case stays lower case; a character only one reading has changes nothing.
    expect(mergeLetters('Restoran Van Sheng', sure('RESTORANWANSHENGS'), [90, 55, 90])).toBe(
      'Restoran Wan Sheng',
    )
  })

  it('never changes a letter its alphabet cannot write (ß, ç), and still the others', () => {
    const latin = new Set([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789éèàü'])
    const reading = (text: string): LineReading => ({ ...sure(text), alphabet: latin })
    expect(mergeLetters('STRAßE MARKT', reading('STRABE MARKT'), [50, 50])).toBeNull()
    expect(mergeLetters('GARÇON PARIS', reading('GARCON PARIS'), [50, 50])).toBeNull()
    expect(mergeLetters('STRAßE MARKI', reading('STRABE MARKT'), [50, 50])).toBe('STRAßE MARKT')
  })

  it('changes no figure, no punctuation, and no letter it is unsure of', () => {
    expect(mergeLetters('ABC 123 TRADING', sure('ABC 128 TRADING'), [50, 50, 50])).toBeNull()
    expect(mergeLetters('ABC (M) TRADING', sure('ABC {M} TRADING'), [50, 50, 50])).toBeNull()
    expect(
      mergeLetters('MEL LET', { text: 'MEILET', probs: [0.9, 0.9, 0.5, 0.9, 0.9, 0.9] }, [60, 95]),
    ).toBeNull()
  })

  it('keeps a word tesseract was sure of, and a known word that would become no word', () => {
    expect(mergeLetters('SHELL PETRO TRADING', sure('SHELLPEIROTRADING'), [95, 91, 96])).toBeNull()
    expect(mergeLetters('VERBENA CONFECTIONERY', sure('VERBENACONFECTIUNERY'), [80, 80])).toBeNull()
  })

  it('is null for another text, or the same one', () => {
    expect(mergeLetters('MEL LET RESTAURANT', sure('TOTAL 12.50'), [60, 60, 60])).toBeNull()
    expect(mergeLetters('MEI LET RESTAURANT', sure('MEILETRESTAURANT'), [60, 60, 60])).toBeNull()
  })
})

describe('decode', () => {
  it('merges repeats, drops blanks, and writes full-width forms and a middle dot as ASCII', () => {
    const dictionary = ['A', 'B', '·', '（', '1']
    // Steps: A A blank A B ( · 1 — class 0 is blank, class k is dictionary[k - 1].
    const steps = [1, 1, 0, 1, 2, 4, 3, 5]
    const classes = dictionary.length + 1
    const data = new Float32Array(steps.length * classes)
    steps.forEach((c, t) => {
      data[t * classes + c] = 0.9
    })
    const read = decode(data, steps.length, classes, dictionary)
    expect(read.text).toBe('AAB(.1')
    expect(read.probs).toHaveLength(6)
  })
})

describe('tightLine', () => {
  it('cuts the band of ink nearest the middle, with a margin, leaving a neighbour line out', () => {
    const width = 100
    const height = 60
    const grey = new Uint8Array(width * height).fill(255)
    const ink = (y0: number, y1: number, x0: number, x1: number) => {
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) grey[y * width + x] = 0
    }
    ink(0, 6, 10, 90) // the line above, caught at the strip's top
    ink(25, 35, 30, 70) // the line itself
    const cut = tightLine(grey, width, height)!
    expect(cut.height).toBe(10 + 2 * 2)
    expect(cut.width).toBe(40 + 2 * 2)
    expect(tightLine(new Uint8Array(width * height).fill(255), width, height)).toBeNull()
  })
})

describe('datesApart', () => {
  it('puts back the space between a date and the time run into it, on either side', () => {
    expect(datesApart(sure('25/01/20181:22:56PM')).text).toBe('25/01/2018 1:22:56PM')
    expect(datesApart(sure('181524/05/18')).text).toBe('1815 24/05/18')
    const apart = datesApart({ text: '181524/05/18', probs: [...'181524/05/18'].map((_, i) => i / 100) })
    expect(apart.probs).toHaveLength(apart.text.length)
    expect(apart.probs[4]).toBe(1)
    expect(apart.probs[5]).toBe(0.04)
    expect(datesApart(sure('Date: 24/05/18 18:15')).text).toBe('Date: 24/05/18 18:15')
  })
})

/** An OCR'd till receipt: rows of [x, text, confidence] segments, 12 pt apart. */
function page(rows: [number, string, number][][]): PageText {
  const lines: Line[] = rows.map((row, i) => {
    const segments = row.map(([x, text, c]) => ({
      text,
      x0: x,
      x1: x + text.length * 4,
      size: 8,
      confidence: text.split(' ').map(() => c),
    }))
    return {
      page: 1,
      y: 20 + i * 12,
      x0: segments[0]!.x0,
      x1: segments.at(-1)!.x1,
      segments,
      text: segments.map((s) => s.text).join('  '),
    }
  })
  return { page: 1, width: 200, height: 400, lines, layout: 'column' }
}

/** A pool reading `first`, and `lines[row]` as the second recogniser's reading of each row. */
function scripted(first: PageText, second: Record<number, LineReading>) {
  const asked: OcrRegion[] = []
  const pool: OcrPool = {
    recognize: async () => first,
    async readLine(_image, hint) {
      asked.push(hint.region)
      const row = first.lines.findIndex((l) => l.y >= hint.region.y0 && l.y < hint.region.y1)
      return second[row] ?? null
    },
    close: async () => {},
  }
  return { pool, asked }
}

const png = encodePng(4, 4, 1, new Uint8Array(16).fill(255))

describe('the second opinion in extraction', () => {
  const rows: [number, string, number][][] = [
    [[30, 'MEL LET RESTAURANT', 66]],
    [[20, 'NO 2, JALAN BULAN 3, 40150 SHAH ALAM', 95]],
    [[20, 'DATE: 20/08/2018 18:07', 70]],
    [
      [20, 'TOTAL', 95],
      [150, '$3.14', 63],
    ],
    [[20, 'TOTAL PAYABLE', 95]],
  ]

  it('corrects the name’s letters, the date’s figures and a total the till’s sums confirm', async () => {
    const { pool } = scripted(page(rows), {
      0: sure('MEILETRESTAURANT'),
      2: sure('DATE:20/06/201818:07'),
      3: sure('TOTAL53.14'),
      4: sure('TOTALPAYABLE53.14'),
    })
    const { fields } = await extractDocument(png, 'image/png', pool)
    expect(fields.business_name).toBe('MEI LET RESTAURANT')
    expect(fields.document_date).toBe('2018-06-20')
    // 53.14 printed on two rows confirms it; nothing confirmed 3.14.
    expect(fields.total_invoice_including_vat).toBe(53.14)
  })

  it('keeps the first total when the till’s sums do not confirm the second, and a date of another era', async () => {
    const { pool } = scripted(page(rows), { 2: sure('DATE:20/06/201118:07'), 3: sure('TOTAL58.14') })
    const { fields } = await extractDocument(png, 'image/png', pool)
    expect(fields.total_invoice_including_vat).toBe(3.14)
    expect(fields.document_date).toBe('2018-08-20')
    expect(fields.business_name).toBe('MEL LET RESTAURANT')
  })

  it('keeps the date of a row printing two dates, whichever one the second reading holds', async () => {
    const twoDates = rows.map((row, i) =>
      i === 2
        ? ([
            [20, 'DATE: 20/08/2018', 70],
            [110, 'DUE: 20/09/2018', 70],
          ] as [number, string, number][])
        : row,
    )
    const { pool } = scripted(page(twoDates), { 2: sure('DUE:20/09/2018') })
    const { fields } = await extractDocument(png, 'image/png', pool)
    expect(fields.document_date).toBe('2018-08-20')
  })

  it('asks nothing of a pool without a second recogniser', async () => {
    const { pool } = scripted(page(rows), {})
    const { fields } = await extractDocument(png, 'image/png', { ...pool, readLine: undefined })
    expect(fields.business_name).toBe('MEL LET RESTAURANT')
  })
})

describe('a date OCR found none for', () => {
  const rows: [number, string, number][][] = [
    [[30, 'KEDAI MAJU ENTERPRISE', 95]],
    [[20, 'NO 5, JALAN MERDEKA 3, 81100 JOHOR BAHRU', 95]],
    [
      [20, 'TOTAL', 95],
      [150, '12.50', 95],
    ],
    [[20, 'THANK YOU', 95]],
    [[40, '18:15 2/0]', 40]],
  ]

  /** A pool whose second recogniser reads the time's row as `readings` in turn (one per strip). */
  function faded(readings: string[]) {
    let call = 0
    const first = page(rows)
    const pool: OcrPool = {
      recognize: async () => first,
      async readLine(_image, hint) {
        // Only the time's row is read for a date (the name's row agrees with tesseract).
        if (hint.region.y0 < first.lines[4]!.y - 12) return sure(first.lines[0]!.text)
        return sure(readings[call++] ?? '')
      },
      close: async () => {},
    }
    return pool
  }

  it('is taken from the line where it should be when two strips of it read it alike', async () => {
    const pool = faded(['18152405/18', '18:1524/05/18', '2181524/0518', '18:15 24/05/18'])
    const { fields } = await extractDocument(png, 'image/png', pool)
    expect(fields.document_date).toBe('2018-05-24')
  })

  it('is still missing when no two strips agree', async () => {
    const pool = faded(['18152405/18', '18:1524/05/18', '2181524/0518', '18:15 24/06/18', ''])
    const { fields } = await extractDocument(png, 'image/png', pool)
    expect(fields.document_date).toBeNull()
  })
})

describe('the second recogniser on a real receipt', () => {
  it('reads a till’s name line that tesseract misreads ("MEL LET" for "MEI LET")', async () => {
    const { readPdf } = await import('../../server/services/extraction/pdf-text.ts')
    const pdf = await readPdf(
      new Uint8Array(readFileSync(join(CORPORA.receipts, 'files', '0062-receipt.pdf'))),
    )
    const image = (await pdf.pageImage(1))!
    const pageWidthPt = pdf.pages[0]!.width
    await pdf.close()
    const pool = createOcrPool(1)
    try {
      const reading = await pool.readLine!(image, {
        pageWidthPt,
        region: { x0: 0, x1: pageWidthPt, y0: 67.9, y1: 84.2 },
      })
      expect(reading!.text.replace(/\s/g, '')).toContain('MEILETRESTAURANT')
    } finally {
      await pool.close()
    }
  })
})

/**
 * Doubtful top lines read again: which lines are read again (top lines of letters with an
 * unsure word), the strip around each, and when the strip's reading replaces the line.
 */
import { describe, expect, it } from 'vitest'
import {
  doubtfulLines,
  lineConfidence,
  rereadDoubtful,
  surerLine,
} from '../../server/services/extraction/ocr-lines.ts'
import type { Line, PageText } from '../../server/services/extraction/pdf-text.ts'

function line(y: number, text: string, confidence?: number[]): Line {
  return {
    page: 1,
    y,
    x0: 10,
    x1: 150,
    text,
    segments: [{ text, x0: 10, x1: 150, size: 13, ...(confidence ? { confidence } : {}) }],
  }
}

const page = (lines: Line[]): PageText => ({ page: 1, width: 200, height: 400, lines })

describe('doubtfulLines', () => {
  it('picks the top lines of letters holding an unsure word, with a strip around each', () => {
    const p = page([
      line(10, '12', [20]),
      line(20, 'SHH. HOTOR SDN BHD', [48, 60, 90, 92]),
      line(35, 'No. 343 Jalan Kurau', [96, 93, 91, 92]),
      line(50, 'TAX INVOICE', [95, 96]),
      line(65, 'Tel 07 8263', [40, 92, 92]),
      line(300, 'THANK YOU', [20, 20]),
    ])
    const found = doubtfulLines(p)
    expect(found.map((d) => d.line.text)).toEqual(['SHH. HOTOR SDN BHD', 'Tel 07 8263'])
    const { region } = found[0]!
    expect(region.x0).toBe(0)
    expect(region.x1).toBe(200)
    expect(region.y0).toBeLessThan(20)
    expect(region.y1).toBeGreaterThan(30)
  })

  it('finds none on a text layer (no confidences)', () => {
    expect(doubtfulLines(page([line(20, 'SHH. HOTOR SDN BHD')]))).toEqual([])
  })
})

describe('surerLine', () => {
  const first = line(20, 'RESTORAN VAN SHENG', [55, 77, 90])
  it('takes the strip line at the same height when the recogniser is surer of it', () => {
    const strip = page([line(12, 'partial', [30]), line(20.5, 'RESTORAN WAN SHENG', [96, 91, 95])])
    expect(surerLine(first, strip)?.text).toBe('RESTORAN WAN SHENG')
  })
  it('takes the surest of the strip lines read at the same height', () => {
    const strip = page([
      line(20, 'TKANO HANDEL SDN BHD', [86, 94, 94, 96]),
      line(20.4, 'IKANO HANDEL SDN BHD', [89, 96, 96, 96]),
      line(19.8, 'I', [99]),
    ])
    expect(surerLine(line(20, 'IKANO HANDEL SON BHD', [56, 90, 85, 96]), strip)?.text).toBe(
      'IKANO HANDEL SDN BHD',
    )
  })
  it('keeps the first reading when the strip is less sure, shorter or elsewhere', () => {
    expect(surerLine(first, page([line(20, 'RESTORAN VAN SHENG', [50, 60, 70])]))).toBeNull()
    expect(surerLine(first, page([line(20, 'RE', [99])]))).toBeNull()
    expect(surerLine(first, page([line(40, 'RESTORAN WAN SHENG', [96, 91, 95])]))).toBeNull()
  })
  it('keeps the first reading when the strip lost one of its columns', () => {
    const seg = (text: string, x0: number, x1: number, confidence: number[]) => ({
      text,
      x0,
      x1,
      size: 13,
      confidence,
    })
    const twoColumns = (a: ReturnType<typeof seg>, b: ReturnType<typeof seg>): Line => ({
      page: 1,
      y: 20,
      x0: a.x0,
      x1: b.x1,
      text: `${a.text}  ${b.text}`,
      segments: [a, b],
    })
    const first = twoColumns(
      seg('HauptstraBe 156', 10, 90, [60, 96]),
      seg('Am Markt 14', 140, 190, [70, 70, 70]),
    )
    const lost = twoColumns(seg('Hauptstraße 156', 10, 90, [96, 96]), seg('ra', 185, 190, [96]))
    const kept = twoColumns(
      seg('Hauptstraße 156', 10, 90, [96, 96]),
      seg('Am Markt 14', 140, 190, [96, 96, 96]),
    )
    expect(surerLine(first, page([lost]))).toBeNull()
    expect(surerLine(first, page([kept]))?.text).toBe('Hauptstraße 156  Am Markt 14')
  })
  it('weights word confidences by word length', () => {
    expect(lineConfidence(line(0, 'AB CDEFGH', [0, 100]))).toBeCloseTo(75)
    expect(lineConfidence(line(0, 'no confidences'))).toBeNull()
  })
})

describe('rereadDoubtful', () => {
  it('replaces only the lines whose strip reads surer, and survives a failed strip', async () => {
    const p = page([line(20, 'RESTORAN VAN SHENG', [55, 77, 90]), line(35, 'Ja» !emenggung', [21, 51])])
    let calls = 0
    const out = await rereadDoubtful(p, async (region) => {
      calls++
      if (region.y0 > 25) throw new Error('unreadable strip')
      return page([line(20, 'RESTORAN WAN SHENG', [96, 91, 95])])
    })
    expect(calls).toBe(2)
    expect(out.lines.map((l) => l.text)).toEqual(['RESTORAN WAN SHENG', 'Ja» !emenggung'])
  })
})

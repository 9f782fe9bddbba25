/**
 * OCR word correction: a doubtful word that is no word is replaced by the one vocabulary word
 * an OCR-typical confusion away; sure words, words of the vocabulary, short words, numbers and
 * ambiguous misreadings stay as read.
 */
import { describe, expect, it } from 'vitest'
import {
  confusionCost,
  correctPage,
  correctWord,
  splitBar,
  UNSURE_BELOW,
} from '../../server/services/extraction/ocr-words.ts'
import type { PageText } from '../../server/services/extraction/pdf-text.ts'

const unsure = UNSURE_BELOW - 10

describe('correctWord', () => {
  it('replaces a doubtful misreading by the vocabulary word it stands for, in its case', () => {
    expect(correctWord('OISTRIBUTION', unsure)).toBe('DISTRIBUTION')
    expect(correctWord('BAKERTES', unsure)).toBe('BAKERIES')
    expect(correctWord('HOTOR', unsure)).toBe('MOTOR')
    expect(correctWord('buardian', unsure)).toBe('guardian')
    expect(correctWord('Perindustrlan', unsure)).toBe('Perindustrian')
    expect(correctWord('Utarna', unsure)).toBe('Utama')
  })

  it('allows two confusions in a long word, one in a short one', () => {
    expect(correctWord('POPUILLAR', unsure)).toBe('POPULAR')
    expect(correctWord('H0T0R', unsure)).toBe('H0T0R')
  })

  it('keeps the punctuation around a word and corrects each part of a hyphenated word', () => {
    expect(correctWord('(OISTRIBUTION),', unsure)).toBe('(DISTRIBUTION),')
    expect(correctWord('HOTOR-SPARES', unsure)).toBe('MOTOR-SPARES')
  })

  it('gives a known word read without its accents its accents back, however sure, in small letters only', () => {
    expect(correctWord('(haftungsbeschrankt)', 96)).toBe('(haftungsbeschränkt)')
    expect(correctWord('Batiment', 96)).toBe('Bâtiment')
    expect(correctWord('Getranke', 96)).toBe('Getränke')
    // Capitals are often printed bare; a word without a reading's confidence stays as it is.
    expect(correctWord('BATIMENT', 96)).toBe('BATIMENT')
    expect(correctWord('Batiment', undefined)).toBe('Batiment')
  })

  it('leaves sure words, vocabulary words and words of no vocabulary as read', () => {
    expect(correctWord('OISTRIBUTION', UNSURE_BELOW + 1)).toBe('OISTRIBUTION')
    expect(correctWord('OISTRIBUTION', undefined)).toBe('OISTRIBUTION')
    expect(correctWord('MOTOR', unsure)).toBe('MOTOR')
    expect(correctWord('RENGIT', unsure)).toBe('RENGIT')
    expect(correctWord('SON', unsure)).toBe('SON')
  })

  it('never touches numbers: amounts, dates, identifiers', () => {
    for (const n of ['10.50', '2015', '24/05/18', '8O.OO', '601580-T', 'S000'])
      expect(correctWord(n, 10)).toBe(n)
  })

  it('reads a bracket or bar ending a word of letters as the letter it stands for', () => {
    expect(correctWord('BHPetro]', 99)).toBe('BHPetrol')
    expect(correctWord('JIAWE|', 99)).toBe('JIAWEI')
    expect(correctWord('|', 10)).toBe('|')
    expect(correctWord('12]', 10)).toBe('12]')
    expect(correctWord('(M}', 99)).toBe('(M)')
    expect(correctWord('(1206674-T]', 99)).toBe('(1206674-T)')
    expect(correctWord('M}', 99)).toBe('M}')
  })

  it('joins a bar split off a word of capitals, or reads it as the parenthesis the line closes', () => {
    expect(splitBar('RESTAURANT JIAWE |')).toBe('RESTAURANT JIAWEI')
    expect(splitBar('JIAWE | HOUSE')).toBe('JIAWEI HOUSE')
    expect(splitBar('SHH. MOTOR | SUNGAI RENGIT ) SDN. BHD.')).toBe('SHH. MOTOR ( SUNGAI RENGIT ) SDN. BHD.')
    // A table's rule after a label or a word, a line with figures, a short word: as read.
    for (const kept of [
      'TOTAL | 12.00',
      'RESTAURANT |',
      'ABC |',
      'Jiawe |',
      'DESCRIPTION | QTY',
      'MONTANT |',
    ])
      expect(splitBar(kept)).toBe(kept)
  })

  it('separates words of letters OCR joined by an underscore, and only those', () => {
    expect(correctWord('MARCO_POLO', 99)).toBe('MARCO POLO')
    expect(correctWord('Rue_de_Rivoli', 99)).toBe('Rue de Rivoli')
    for (const kept of ['jean_dupont@example.com', 'invoice_2026.pdf', 'REF_12', 'A_B', '_x'])
      expect(correctWord(kept, 99)).toBe(kept)
  })
})

describe('confusionCost', () => {
  it('counts confusions, dropped and extra thin strokes, and pairs read for one letter', () => {
    expect(confusionCost('TOTAL', 'TOTAL', 2)).toBe(0)
    expect(confusionCost('T0TAI', 'TOTAL', 2)).toBe(2)
    expect(confusionCost('CONFECTIUNERY', 'CONFECTIONERY', 2)).toBe(1)
    expect(confusionCost('UTARNA', 'UTAMA', 2)).toBe(1)
    expect(confusionCost('TOAL', 'TOTAL', 2)).toBe(Number.POSITIVE_INFINITY)
    expect(confusionCost('PHARMACY', 'PHARMACY', 2)).toBe(0)
    expect(confusionCost('TOTA', 'TOTAL', 2)).toBe(Number.POSITIVE_INFINITY)
    expect(confusionCost('MALAYSA', 'MALAYSIA', 2)).toBe(1)
    expect(confusionCost('XYZAB', 'TOTAL', 2)).toBe(Number.POSITIVE_INFINITY)
  })
})

describe('correctPage', () => {
  it('corrects doubtful words of a line and rebuilds its text; lines without confidences stay', () => {
    const page: PageText = {
      page: 1,
      width: 200,
      height: 300,
      lines: [
        {
          page: 1,
          y: 10,
          x0: 0,
          x1: 100,
          text: 'HERO OISTRIBUTION SDN BHD  RM',
          segments: [
            { text: 'HERO OISTRIBUTION SDN BHD', x0: 0, x1: 80, size: 10, confidence: [95, 80, 90, 94] },
            { text: 'RM', x0: 90, x1: 100, size: 10, confidence: [90] },
          ],
        },
        {
          page: 1,
          y: 30,
          x0: 0,
          x1: 100,
          text: 'OISTRIBUTION',
          segments: [{ text: 'OISTRIBUTION', x0: 0, x1: 100, size: 10 }],
        },
      ],
    }
    const out = correctPage(page)
    expect(out.lines[0]!.text).toBe('HERO DISTRIBUTION SDN BHD  RM')
    expect(out.lines[0]!.segments[0]!.confidence).toEqual([95, 80, 90, 94])
    expect(out.lines[1]).toBe(page.lines[1])
  })
})

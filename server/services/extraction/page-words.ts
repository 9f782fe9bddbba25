/**
 * The words of a document's page model, for the review screens' click-to-fill: each word of each
 * segment (text layer or OCR) with its box in fractions of the page, placed as `field_evidence`
 * places a value (`placeOf`: the segment's width shared out by characters), so a word and a
 * field read from it cover the same place.
 */
import type { PageText } from './pdf-text.ts'
import { placeOf } from './scoring/place.ts'

type Box = [number, number, number, number]

export interface PageWords {
  page: number
  /** The page's size: points for a PDF page, pixels for an image. */
  width: number
  height: number
  words: { text: string; box: Box }[]
}

/** Every page's words in reading order; `size` replaces the pages' own size (an image's pixels). */
export function pageWords(pages: PageText[], size?: { width: number; height: number }): PageWords[] {
  return pages.map((page) => {
    const words: PageWords['words'] = []
    for (const line of page.lines) {
      for (const seg of line.segments) {
        for (const match of seg.text.matchAll(/\S+/g)) {
          const start = match.index
          const { box } = placeOf([page], line, seg, start, start + match[0].length)
          words.push({ text: match[0], box })
        }
      }
    }
    return {
      page: page.page,
      width: size?.width ?? page.width,
      height: size?.height ?? page.height,
      words,
    }
  })
}

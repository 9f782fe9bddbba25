/**
 * The preview machine filled from its engines: a PDF is opened and its words read by the injected
 * PDF engine (pdf.js, its own chunk); an image's words, and a scanned PDF page's, come from the
 * server (none on a 404).
 */
import { fromPromise } from 'xstate'
import type { DetailsApi } from '../../api/details'
import { documentPreviewMachine, type PreviewSource, type PreviewWord } from './document-preview.machine'

/** What the preview asks of a PDF library: open a file, and the words of a page with their boxes. */
export type PdfEngine = {
  open: (original: Blob) => Promise<{ pageCount: number; handle: unknown }>
  words: (handle: unknown, page: number) => Promise<PreviewWord[]>
}

const isPdfBlob = (blob: Blob) => blob.type === 'application/pdf' || !blob.type.startsWith('image/')

export function createDocumentPreviewMachine({
  details,
  pdf,
}: {
  details: Pick<DetailsApi, 'words'>
  pdf: PdfEngine
}) {
  return documentPreviewMachine.provide({
    actors: {
      openSource: fromPromise(async ({ input }): Promise<PreviewSource> => {
        if (!isPdfBlob(input.original)) return { type: 'image', pageCount: 1 }
        const opened = await pdf.open(input.original)
        return { type: 'pdf', ...opened }
      }),
      loadWords: fromPromise(async ({ input }) => {
        if (input.source.type === 'pdf') {
          const words = await pdf.words(input.source.handle, input.page)
          if (words.length) return words
          // A scan in a PDF has no text layer: the words the server's OCR read, when it has them.
        }
        const answer = await details.words(input.id, input.page, input.companyId)
        return answer?.words ?? null
      }),
    },
  })
}

/** The correction and review machine filled from the corrections API and the notices (loaded with the detail dialog's chunk). */
import { fromPromise } from 'xstate'
import type { DetailsApi } from '../../api/details'
import { type Notice, type Notify, notice } from '../shared/notice'
import { type DocumentEditNoticeParams, documentEditMachine } from './document-edit.machine'

/** The toast of a save: the status the document now has, or why the save failed. */
function documentEditNotice(params: DocumentEditNoticeParams): Notice {
  if (params.notice === 'confirmed') return notice('detail.confirmed')
  if (params.notice === 'confirmFailed') {
    if (params.failure.reason === 'conflict') return notice('detail.correctionWhileProcessing')
    return notice('detail.confirmFailed', { values: { message: { message: params.failure.message } } })
  }
  if (params.notice === 'saved') {
    const status = params.status.toLowerCase()
    if (status === 'completed') return notice('detail.correctionCompleted')
    return notice(status === 'failed' ? 'detail.correctionHasErrors' : 'detail.correctionSaved')
  }
  const { reason, message } = params.failure
  if (reason === 'conflict') return notice('detail.correctionWhileProcessing')
  return notice(reason === 'invalid' ? 'detail.correctionRefused' : 'detail.correctionFailed', {
    values: { message: { message } },
  })
}

export function createDocumentEditMachine({
  corrections,
  notify,
}: {
  corrections: Pick<DetailsApi, 'correct' | 'confirm' | 'history' | 'quality'>
  notify: Notify
}) {
  return documentEditMachine.provide({
    actors: {
      saveCorrection: fromPromise(async ({ input }) => {
        const saved = await corrections.correct(input.kind, input.id, input.companyId, input.changes)
        // The quality call gives the findings' texts in both languages; the PATCH answer only their codes.
        const quality = await corrections
          .quality(input.kind, input.id, input.companyId)
          .catch(() => saved.quality)
        return { document: saved.document, quality }
      }),
      confirmDocument: fromPromise(({ input }) => corrections.confirm(input.kind, input.id, input.companyId)),
      loadHistory: fromPromise(({ input }) => corrections.history(input.kind, input.id, input.companyId)),
    },
    actions: { notify: (_, params) => notify(documentEditNotice(params)) },
  })
}

/**
 * The one owner of a document's status. Every write of `documents.status` goes through here: the
 * document's state is restored from its row, the lifecycle machine says where an event takes it
 * (or refuses it with an `IllegalTransitionError`, a 409), and the result is persisted with the
 * columns the caller changes in the same statement. A dashboard row of a document holds no status
 * of its own: `dashboardStatus` reads the document's, in the lower case the logs API has always
 * answered; only a row without a document (a refused file, a row a client created) keeps one.
 */
import { and, eq, getTableColumns, type SQL, sql } from 'drizzle-orm'
import { getInitialSnapshot, transition } from 'xstate'
import {
  type DocumentKind,
  type DocumentStatus,
  type LOG_STATUSES,
  REVIEW_CONFIDENCE,
} from '../../../../contract/index.ts'
import type { AppDatabase } from '../../../db/client.ts'
import { type DocumentRow, documents, type LogRow, logs } from '../../../db/schema.ts'
import { HttpError } from '../../../http/errors.ts'
import type { JobQueue } from '../../../jobs/queue.ts'
import { announceDocumentEvent } from '../../events/document-events.ts'
import {
  documentLifecycleMachine,
  type LifecycleEvent,
  type LifecycleState,
} from './document-lifecycle.machine.ts'

type Executor = Parameters<Parameters<AppDatabase['transaction']>[0]>[0]
type StoredState = Exclude<LifecycleState, 'received' | 'deleted'>

/** What each stored state persists as: the three statuses the API has always answered. */
export const STATUS_OF_STATE = {
  queued: 'PROCESSING',
  processing: 'PROCESSING',
  completed: 'COMPLETED',
  failed: 'FAILED',
} as const satisfies Record<StoredState, DocumentStatus>

/**
 * A row's state. A PROCESSING row does not say whether its job waits or runs; it is restored as
 * `processing`, which accepts what a job reports in either case (an attempt, an outcome, a failure).
 */
const STATE_OF_STATUS = {
  PROCESSING: 'processing',
  COMPLETED: 'completed',
  FAILED: 'failed',
} as const satisfies Record<DocumentStatus, StoredState>

/** A document's status as its dashboard row shows it. */
const ROW_STATUS = {
  PROCESSING: 'processing',
  COMPLETED: 'completed',
  FAILED: 'failed',
} as const satisfies Record<DocumentStatus, (typeof LOG_STATUSES)[number]>

const STILL_PROCESSING = 'The document is still being processed'

/** An event the document's state does not accept: answered 409 with the reason. */
export class IllegalTransitionError extends HttpError {
  constructor(
    readonly from: LifecycleState,
    readonly event: LifecycleEvent['type'],
  ) {
    super(
      409,
      from === 'queued' || from === 'processing'
        ? STILL_PROCESSING
        : `A ${from} document cannot take ${event}`,
    )
    this.name = 'IllegalTransitionError'
  }
}

type Current = Pick<DocumentRow, 'kind' | 'status'>

function snapshotOf(current: Current | null) {
  if (!current) return getInitialSnapshot(documentLifecycleMachine)
  return documentLifecycleMachine.resolveState({
    value: STATE_OF_STATUS[current.status],
    context: { kind: current.kind },
  })
}

/**
 * Where `event` takes a document in `current` (null: not stored yet), and the status to persist
 * (null once deleted). Pure; throws `IllegalTransitionError` when the state does not accept it.
 */
export function nextState(
  current: Current | null,
  event: LifecycleEvent,
): { from: LifecycleState; state: LifecycleState; status: DocumentStatus | null } {
  const snapshot = snapshotOf(current)
  const from = snapshot.value as LifecycleState
  if (!snapshot.can(event)) throw new IllegalTransitionError(from, event.type)
  const [next] = transition(documentLifecycleMachine, snapshot, event)
  const state = next.value as LifecycleState
  return {
    from,
    state,
    status: state === 'deleted' || state === 'received' ? null : STATUS_OF_STATE[state],
  }
}

/** Whether a document in `current` accepts `event` (a job checks before it starts an attempt). */
export function accepts(current: Current, event: LifecycleEvent): boolean {
  return snapshotOf(current).can(event)
}

type DocumentValues = Omit<typeof documents.$inferInsert, 'status' | 'id'>
type RowValues = Omit<typeof logs.$inferInsert, 'status' | 'documentId' | 'id' | 'companyId'>

/**
 * A stored file becomes a document (`document.store`): its row, its dashboard row, and its
 * processing job when the machine queues it; all in the caller's transaction.
 */
export async function storeDocument(
  tx: Executor,
  queue: JobQueue,
  values: { document: DocumentValues; row: RowValues },
): Promise<{ id: number; status: DocumentStatus }> {
  const { kind, companyId } = values.document
  const next = nextState(null, { type: 'document.store', kind: kind as DocumentKind })
  const status = next.status!
  const [created] = await tx
    .insert(documents)
    .values({ ...values.document, status })
    .returning({ id: documents.id })
  const id = created!.id
  await tx.insert(logs).values({ ...values.row, companyId, documentId: id })
  await announceDocumentEvent(tx, { company_id: companyId, document_id: id, type: 'document.added', status })
  if (next.state === 'queued') await queue.enqueue(tx, { documentId: id }, { companyId })
  return { id, status }
}

/** What the live events call a transition: a correction, a confirmation, a deletion, else a change of status. */
const LIVE_EVENT_OF = (event: LifecycleEvent['type']) =>
  event === 'document.correct'
    ? 'document.corrected'
    : event === 'document.confirm'
      ? 'document.confirmed'
      : event === 'document.delete'
        ? 'document.deleted'
        : 'document.status'

type ReviewInputs = Pick<DocumentRow, 'kind' | 'status' | 'warnings' | 'fieldEvidence' | 'reviewedAt'>

/**
 * Whether a document belongs in the review queue: a finished invoice or expense that is FAILED,
 * carries a warning or has a field read with a confidence under `REVIEW_CONFIDENCE`, and that
 * nobody confirmed or corrected since it was processed (`reviewed_at`, cleared by processing).
 */
function needsReview(row: ReviewInputs): boolean {
  if (row.kind !== 'invoice' && row.kind !== 'expense') return false
  if (row.status === 'PROCESSING' || row.reviewedAt !== null) return false
  return (
    row.status === 'FAILED' ||
    row.warnings.length > 0 ||
    Object.values(row.fieldEvidence).some((e) => e.confidence < REVIEW_CONFIDENCE)
  )
}

/** A processing outcome starts the review again: who reviewed the earlier reading no longer counts. */
const PROCESSED = new Set<LifecycleEvent['type']>(['processing.finish', 'processing.fail'])

/** The review columns a transition leaves: `needs_review` follows the row it writes. */
function reviewColumns(
  row: DocumentRow,
  event: LifecycleEvent,
  status: DocumentStatus,
  changes: Partial<DocumentValues>,
): Pick<DocumentValues, 'needsReview' | 'reviewedAt' | 'reviewedBy'> {
  const reviewed = PROCESSED.has(event.type)
    ? { reviewedAt: null, reviewedBy: null }
    : { reviewedAt: changes.reviewedAt ?? row.reviewedAt, reviewedBy: changes.reviewedBy ?? row.reviewedBy }
  return { ...reviewed, needsReview: needsReview({ ...row, ...changes, ...reviewed, status }) }
}

/**
 * Persists `event` on a row the caller has read in `tx` (locked `for update` when others may
 * write it): the status the machine gives and `changes`, or the rows' removal on `document.delete`;
 * the company's live event goes out when `tx` commits.
 */
export async function applyTransition(
  tx: Executor,
  row: DocumentRow,
  event: LifecycleEvent,
  changes: Partial<DocumentValues> = {},
): Promise<{ row: DocumentRow | null; state: LifecycleState; from: LifecycleState }> {
  const next = nextState(row, event)
  await announceDocumentEvent(tx, {
    company_id: row.companyId,
    document_id: row.id,
    type: LIVE_EVENT_OF(event.type),
    status: next.status,
  })
  if (next.status === null) {
    await tx.delete(logs).where(eq(logs.documentId, row.id))
    await tx.delete(documents).where(eq(documents.id, row.id))
    return { row: null, state: next.state, from: next.from }
  }
  const [updated] = await tx
    .update(documents)
    .set({ ...changes, ...reviewColumns(row, event, next.status, changes), status: next.status })
    .where(eq(documents.id, row.id))
    .returning()
  return { row: updated!, state: next.state, from: next.from }
}

/** Locks the document (of this company, when given) and applies `event`; 404 when there is none. */
export async function transitionDocument(
  tx: Executor,
  target: { id: number; companyId?: number },
  event: LifecycleEvent,
  changes: Partial<DocumentValues> = {},
) {
  const [row] = await tx
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.id, target.id),
        target.companyId === undefined ? undefined : eq(documents.companyId, target.companyId),
      ),
    )
    .for('update')
  if (!row) throw new HttpError(404, 'Document not found')
  return applyTransition(tx, row, event, changes)
}

/** Removes a document and its dashboard row (`document.delete`); the caller deletes the file after. */
export async function deleteDocument(db: AppDatabase, target: { id: number; companyId: number }) {
  await db.transaction((tx) => transitionDocument(tx, target, { type: 'document.delete' }))
}

/**
 * Reads an invoice or expense again (`document.reprocess`): back to PROCESSING with the last
 * outcome's codes cleared, and a new job. The extracted values stay until the new outcome.
 */
export async function reprocessDocument(
  db: AppDatabase,
  queue: JobQueue,
  target: { id: number; companyId: number; now: Date },
): Promise<DocumentRow> {
  return db.transaction(async (tx) => {
    const { row } = await transitionDocument(
      tx,
      target,
      { type: 'document.reprocess' },
      {
        errors: [],
        warnings: [],
        qualityDetails: {},
        failureReason: null,
        processedAt: null,
        updatedAt: target.now,
      },
    )
    await queue.enqueue(tx, { documentId: target.id }, { companyId: target.companyId })
    return row!
  })
}

type RowStatus = (typeof LOG_STATUSES)[number]
const rowStatusOf = (documentStatus: SQL) =>
  sql`case ${documentStatus} ${sql.raw(
    Object.entries(ROW_STATUS)
      .map(([from, to]) => `when '${from}' then '${to}'`)
      .join(' '),
  )} end`

/**
 * The status a dashboard row shows: its document's, else (no document) its own. Looked up per row
 * by the document's key, so a page in an indexed order (the dashboard's newest first) reads only
 * the rows it shows, whatever the company's size.
 */
export const dashboardStatus: SQL<RowStatus> = sql`coalesce((select ${rowStatusOf(
  sql`"row_document"."status"`,
)} from ${documents} "row_document" where "row_document"."id" = "logs"."document_id"), "logs"."status")`

/** The same status in a query that joins each row's document (counts over every row). */
export const joinedDashboardStatus: SQL<RowStatus> = sql`coalesce(${rowStatusOf(sql`${documents.status}`)}, ${logs.status})`

/** A dashboard row as the API answers it: the status always filled, from one place. */
export type DashboardRow = Omit<LogRow, 'status'> & { status: RowStatus }

/** The select of dashboard rows, each with its document's status. */
export const dashboardRows = (db: AppDatabase) =>
  db.select({ ...getTableColumns(logs), status: dashboardStatus }).from(logs)

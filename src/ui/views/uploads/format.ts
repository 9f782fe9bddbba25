/** Display helpers of the upload panel. */
import type { UploadStatus } from '../../../machines/uploads/upload-item.machine'
import type { QueueEntry } from '../../../machines/uploads/upload-queue.machine'

/** Bytes below 1 KB, KB with one decimal below 1 MB, else MB with one decimal (1024 steps). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

export type UploadBatch = {
  /** Start of the minute (ms). */
  minute: number
  uploads: QueueEntry[]
  counts: Partial<Record<UploadStatus, number>>
}

/** Uploads grouped by the minute they were queued in, newest batch first. */
export function batchByMinute(uploads: readonly QueueEntry[]): UploadBatch[] {
  const batches = new Map<number, UploadBatch>()
  for (const u of uploads) {
    const minute = Math.floor(u.createdAt / 60_000) * 60_000
    const batch = batches.get(minute) ?? { minute, uploads: [], counts: {} }
    batch.uploads.push(u)
    batch.counts[u.status] = (batch.counts[u.status] ?? 0) + 1
    batches.set(minute, batch)
  }
  return [...batches.values()].sort((a, b) => b.minute - a.minute)
}

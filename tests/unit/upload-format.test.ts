import { expect, it } from 'vitest'
import type { QueueEntry } from '../../src/machines/uploads/upload-queue.machine'
import { batchByMinute, formatFileSize } from '../../src/ui/views/uploads/format'

it('shows bytes below 1 KB, KB with one decimal below 1 MB, then MB, in 1024 steps', () => {
  expect(formatFileSize(0)).toBe('0 B')
  expect(formatFileSize(1023)).toBe('1023 B')
  expect(formatFileSize(1024)).toBe('1.0 KB')
  expect(formatFileSize(1536)).toBe('1.5 KB')
  expect(formatFileSize(1024 * 1024 - 1)).toBe('1024.0 KB')
  expect(formatFileSize(1024 * 1024)).toBe('1.0 MB')
  expect(formatFileSize(5.25 * 1024 * 1024)).toBe('5.3 MB')
})

it('groups uploads by the minute they were queued in, newest first, with counts per status', () => {
  const entry = (id: string, createdAt: number, status: QueueEntry['status']) =>
    ({ id, createdAt, status }) as QueueEntry
  const batches = batchByMinute([
    entry('a', 60_000, 'success'),
    entry('b', 60_000 + 59_999, 'error'),
    entry('c', 120_000, 'processing'),
    entry('d', 60_500, 'success'),
  ])
  expect(batches.map((b) => b.minute)).toEqual([120_000, 60_000])
  expect(batches[1]!.uploads.map((u) => u.id)).toEqual(['a', 'b', 'd'])
  expect(batches[1]!.counts).toEqual({ success: 2, error: 1 })
  expect(batches[0]!.counts).toEqual({ processing: 1 })
})

/**
 * The bench's status scoring on the real sets: a status decided only by quality rules about
 * fields the truth leaves out is not scored; every other status is.
 */
import { describe, expect, it } from 'vitest'
import { type DocResult, statusScore, type TruthLine } from './corpus.ts'

const doc = (
  status: DocResult['status'],
  errors: string[],
  expected: TruthLine['expected_status'],
  excluded?: Record<string, string>,
): DocResult => ({
  truth: {
    file: 'x.pdf',
    kind: 'invoice',
    template: 'T',
    variant: 'clean',
    render: 'pdf_text',
    pages: 1,
    upload_order: 1,
    fields: {},
    expected_status: expected,
    expected_error_codes: expected === 'FAILED' ? ['iban_checksum'] : [],
    expected_warning_codes: [],
    excluded,
    dir: '.',
  },
  fields: null,
  status,
  errors,
  warnings: [],
  textMs: 0,
  ocrMs: 0,
  textPages: 1,
  ocrPages: 0,
  scored: [],
  mismatches: [],
})

describe('status scoring', () => {
  it('leaves out a FAILED that only an unscored field’s rule decided', () => {
    const s = statusScore([
      doc('FAILED', ['iban_checksum'], 'COMPLETED', { iban: 'not in the XML' }),
      doc('FAILED', ['iban_checksum'], 'FAILED'),
    ])
    expect(s).toMatchObject({ total: 1, unscored: 1, ok: 1, precision: 1 })
  })

  it('scores a FAILED with a rule on a scored field, and any document without exclusions', () => {
    const s = statusScore([
      doc('FAILED', ['iban_checksum', 'missing_total'], 'COMPLETED', { iban: 'not in the XML' }),
      doc('FAILED', ['iban_checksum'], 'COMPLETED'),
      doc('COMPLETED', [], 'FAILED', { iban: 'not in the XML' }),
    ])
    expect(s).toMatchObject({ total: 3, unscored: 0, ok: 0, failed: 2, both: 0, shouldFail: 1 })
  })
})

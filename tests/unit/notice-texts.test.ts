/**
 * Every notice code and every contract message code has an English and a French text, and the
 * French shown for them is the catalogue's: a notice without a translation would show English in
 * the French interface.
 */
import { readFileSync } from 'node:fs'
import { i18n } from '@lingui/core'
import { generateMessageId } from '@lingui/message-utils/generateMessageId'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contractMessages, type MessageCode } from '../../contract'
import { reasonOf, toFailure } from '../../src/machines/shared/failure'
import { codeText, failureText, messageText } from '../../src/ui/message-texts'
import { noticeTexts } from '../../src/ui/notice-texts'

/** The French catalogue as `msgid → msgstr` (one-line entries, which all of these are). */
function frenchCatalogue(): Map<string, string> {
  const po = readFileSync('locales/fr/common.po', 'utf8')
  const entries = new Map<string, string>()
  for (const [, id, str] of po.matchAll(/^msgid "(.*)"\nmsgstr "(.*)"$/gm)) {
    if (id) entries.set(JSON.parse(`"${id}"`), JSON.parse(`"${str}"`))
  }
  return entries
}

const french = frenchCatalogue()

beforeAll(() => {
  i18n.load('fr', Object.fromEntries([...french].map(([id, str]) => [generateMessageId(id), str])))
  i18n.activate('fr')
})
afterAll(() => i18n.activate('en'))

describe('notice and message texts', () => {
  it('every notice code has a non-empty French text in the catalogue', () => {
    const missing = Object.entries(noticeTexts)
      .filter(([, descriptor]) => !french.get(descriptor.message ?? ''))
      .map(([code]) => code)
    expect(missing).toEqual([])
    expect(Object.keys(noticeTexts).length).toBeGreaterThan(80)
  })

  it('every contract message code shows its French text, also when matched by its English text', () => {
    const untranslated = (Object.keys(contractMessages) as MessageCode[]).filter(
      (code) =>
        codeText(code) === contractMessages[code] || messageText(contractMessages[code]) !== codeText(code),
    )
    expect(untranslated).toEqual([])
    expect(messageText('Passwords do not match')).toBe(french.get('Passwords do not match'))
  })

  it('a message the contract does not know is shown as it came', () => {
    expect(messageText('Quota exceeded for tenant 42')).toBe('Quota exceeded for tenant 42')
  })
})

describe('failures', () => {
  const apiError = (status: number, message: string, detail?: unknown) =>
    Object.assign(new Error(message), { status, detail })

  it("a failed call carries the code of the server's message and is shown by that code, in French", () => {
    const failure = toFailure(apiError(409, 'A user with this e-mail already exists'))
    expect(failure).toMatchObject({ status: 409, code: 'emailInUse' })
    expect(failureText(failure)).toBe(french.get('A user with this e-mail already exists'))
    expect(failureText(failure)).not.toBe(failure.message)
  })

  it('a detail in words names the code; a thrown value without a message is an unknown error', () => {
    expect(toFailure(apiError(400, 'Invalid input', 'company already added')).code).toBe(
      'companyAlreadyAdded',
    )
    expect(toFailure(apiError(400, 'Invalid input', [{ field: 'email', message: 'x' }])).code).toBe(
      'invalidInput',
    )
    const unknown = toFailure(null)
    expect(unknown).toMatchObject({ status: 500, code: 'unknownError' })
    expect(failureText(unknown)).toBe(french.get('Unknown error occurred'))
  })

  it("a message the contract does not know is an unexpected failure, shown as the server's text", () => {
    const failure = toFailure(apiError(413, 'File too large (limit 50 MB)'))
    expect(failure.code).toBe('unexpected')
    expect(failureText(failure)).toBe('File too large (limit 50 MB)')
  })

  it("an upload's reason is shown by its code too: the contract's in French, the server's texts as they came", () => {
    expect(failureText(reasonOf('Upload failed'))).toBe(french.get('Upload failed'))
    expect(french.get('Upload failed')).not.toBe('Upload failed')
    expect(failureText(reasonOf('Aucun texte lisible dans le fichier'))).toBe(
      'Aucun texte lisible dans le fichier',
    )
  })
})

/**
 * The browser's texts for the contract's messages, keyed by their code: a missing or misspelt code
 * fails the type check. `failureText` is what views show for a failed call (by its code);
 * `messageText`, for a schema's message that arrives as English text (matched by the contract).
 */
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { type MessageCode, messageCode, readMessage } from '../../contract'
import type { CallFailure, Reason } from '../machines/shared/failure'
import { i18n } from './i18n'

const texts: Record<MessageCode, MessageDescriptor> = {
  codeTooShort: msg`Code must be at least 6 characters`,
  tokenTooShort: msg`Token must be at least 6 characters`,
  passwordsDoNotMatch: msg`Passwords do not match`,
  currentPasswordRequired: msg`Current password is required`,
  passwordConfirmationRequired: msg`Password confirmation is required`,
  emailInvalid: msg`Please enter a valid email address`,
  passwordRequired: msg`Password is required`,
  passwordTooLong: msg`Password is too long`,
  passwordTooShort: msg`Password must be at least 8 characters`,
  passwordOver128: msg`Password must be at most 128 characters`,
  passwordNeedsUppercase: msg`Password must contain at least one uppercase letter`,
  passwordNeedsLowercase: msg`Password must contain at least one lowercase letter`,
  passwordNeedsNumber: msg`Password must contain at least one number`,
  passwordsDontMatch: msg`Passwords don't match`,
  nameTooShort: msg`Name must be at least 2 characters`,
  surnameTooShort: msg`Surname must be at least 2 characters`,
  controlCharacters: msg`Must not contain control characters`,
  tooManyAttempts: msg`Too many attempts. Try again later.`,
  requestTimeout: msg`Request timeout`,
  requestFailed: msg`Request failed`,
  unknownError: msg`Unknown error occurred`,
  internalError: msg`Internal server error`,
  networkFailed: msg`Cannot reach the server. Check your connection.`,
  adminExists: msg`A platform administrator already exists`,
  invalidVerificationCode: msg`Invalid verification code`,
  invalidValidationLink: msg`Invalid or expired validation link`,
  invalidResetLink: msg`Invalid or expired password reset link`,
  currentPasswordIncorrect: msg`Current password is incorrect`,
  invalidPasswordOrCode: msg`Invalid password or code`,
  invalidCredentials: msg`Invalid email, password or code`,
  twoFactorAlreadyEnabled: msg`Two-factor authentication is already enabled; disable it first`,
  twoFactorDisableNeedsProof: msg`Enter your password or a code to disable two-factor authentication`,
  emailInUse: msg`A user with this e-mail already exists`,
  notAuthenticated: msg`Your session has ended. Please sign in again.`,
  invalidInput: msg`Some fields are not valid. Check them and try again.`,
  emailAddressInvalid: msg`Invalid email address`,
  roleRequired: msg`Role is required`,
  selectUser: msg`Please select a user`,
  selectCompany: msg`Please select a company`,
  companyAlreadyAdded: msg`company already added`,
  alreadyMember: msg`This user is already a member of the company`,
  logoTypeInvalid: msg`Only JPG, PNG and GIF files are allowed`,
  logoFileTypeInvalid: msg`Only JPG, PNG and GIF files are allowed`,
  linkNotHttp: msg`Must be an http:// or https:// address`,
  nameTooLong: msg`Name must be at most 200 characters`,
  linkTooLong: msg`Link is too long`,
  uploadFailed: msg`Upload failed`,
  uploadTimedOut: msg`Upload timed out. The file may still be processing.`,
  companyIdRequired: msg`Company ID is required for this upload`,
  processingFailed: msg`Processing failed`,
  expenseNotPdf: msg`Only PDF files are supported for expenses`,
  photoNotConverted: msg`The photo could not be made into a PDF. Try another photo or a PDF.`,
  invoiceTypeInvalid: msg`Only PDF, JPEG, PNG or XML e-invoice files are supported for invoices`,
  noFilesSelected: msg`Please select at least one file to upload`,
  fileEmpty: msg`The file is empty`,
  uploadKeyReused: msg`This upload was sent before with another file`,
  scannerAddressInUse: msg`A scanner address is already in use`,
  scannerAddressTaken: msg`This address is already the invoice or expense scanner of a company`,
  allowedSenderInvalid: msg`Enter an e-mail address or an @domain`,
  tooManyAllowedSenders: msg`Too many allowed senders`,
  messageWithoutAttachment: msg`The message has no attachment`,
  tooManyAttachments: msg({ message: 'Too many attachments in one message: {count} not filed' }),
  attachmentTooLarge: msg`The file is larger than the size limit`,
}

/** The code of a contract message (undefined for a text the contract does not know). */
export const codeOfMessage = messageCode

/** The text of a message code in the active language. */
export const codeText = (code: MessageCode): string => i18n._(texts[code])

/**
 * A schema's or the server's message in the active language when it is a contract message (with
 * the values it carries, as in "… 3 not filed"), else as it came.
 */
export function messageText(message: string): string {
  const read = readMessage(message)
  if (!read) return message
  if (!read.values) return codeText(read.code)
  // Built apart from the call, as in failureText below.
  const descriptor: MessageDescriptor = Object.assign({}, texts[read.code], { values: read.values })
  return i18n._(descriptor)
}

/**
 * A failed call's text in the active language, from its code (and values); the message as it came
 * only for an `unexpected` failure, whose code the browser has no text for.
 */
export function failureText(failure: Reason & Pick<CallFailure, 'detail'>): string {
  if (failure.code === 'unexpected') return failure.detail ?? failure.message
  // Built apart from the call: Lingui's extractor reads an object literal given to i18n._ as a
  // message to extract, and fails on spread properties.
  const descriptor: MessageDescriptor = failure.values
    ? Object.assign({}, texts[failure.code], { values: failure.values })
    : texts[failure.code]
  return i18n._(descriptor)
}

/**
 * The English messages that travel as text: the server's error `message`/`detail`, the shared
 * schemas' validation messages, and the messages the client's calls and machines put in a failure.
 * The contract keeps them in English (the API answers in English); each has a stable code here,
 * and the browser app shows them through a catalogue keyed by that code (`src/ui/message-texts.ts`),
 * so this table is the only place an English text is matched. A message may hold values
 * (`{count}`): the server fills them in (`fillMessage`), the browser reads them back
 * (`readMessage`) and shows its own text with them.
 */
export const contractMessages = {
  codeTooShort: 'Code must be at least 6 characters',
  tokenTooShort: 'Token must be at least 6 characters',
  passwordsDoNotMatch: 'Passwords do not match',
  currentPasswordRequired: 'Current password is required',
  passwordConfirmationRequired: 'Password confirmation is required',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordTooLong: 'Password is too long',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordOver128: 'Password must be at most 128 characters',
  passwordNeedsUppercase: 'Password must contain at least one uppercase letter',
  passwordNeedsLowercase: 'Password must contain at least one lowercase letter',
  passwordNeedsNumber: 'Password must contain at least one number',
  passwordsDontMatch: "Passwords don't match",
  nameTooShort: 'Name must be at least 2 characters',
  surnameTooShort: 'Surname must be at least 2 characters',
  controlCharacters: 'Must not contain control characters',
  tooManyAttempts: 'Too many attempts. Try again later.',
  requestTimeout: 'Request timeout',
  requestFailed: 'Request failed',
  unknownError: 'Unknown error occurred',
  internalError: 'Internal server error',
  networkFailed: 'Failed to fetch',
  adminExists: 'A platform administrator already exists',
  invalidVerificationCode: 'Invalid verification code',
  invalidValidationLink: 'Invalid or expired validation link',
  invalidResetLink: 'Invalid or expired password reset link',
  currentPasswordIncorrect: 'Current password is incorrect',
  invalidPasswordOrCode: 'Invalid password or code',
  invalidCredentials: 'Invalid email, password or code',
  twoFactorAlreadyEnabled: 'Two-factor authentication is already enabled; disable it first',
  twoFactorDisableNeedsProof: 'Enter your password or a code to disable two-factor authentication',
  emailInUse: 'A user with this e-mail already exists',
  notAuthenticated: 'Not authenticated',
  invalidInput: 'Invalid input',
  emailAddressInvalid: 'Invalid email address',
  roleRequired: 'Role is required',
  selectUser: 'Please select a user',
  selectCompany: 'Please select a company',
  companyAlreadyAdded: 'company already added',
  alreadyMember: 'This user is already a member of the company',
  logoTypeInvalid: 'Only JPG, PNG and GIF files are allowed',
  logoFileTypeInvalid: 'Invalid file type. Only JPG, PNG and GIF are allowed.',
  linkNotHttp: 'Must be an http:// or https:// address',
  nameTooLong: 'Name must be at most 200 characters',
  linkTooLong: 'Link is too long',
  uploadFailed: 'Upload failed',
  uploadTimedOut: 'Upload timed out. The file may still be processing.',
  companyIdRequired: 'Company ID is required for this upload',
  processingFailed: 'Processing failed',
  expenseNotPdf: 'Only PDF files are supported for expenses',
  photoNotConverted: 'The photo could not be made into a PDF. Try another photo or a PDF.',
  invoiceTypeInvalid: 'Only PDF, JPEG, PNG or XML e-invoice files are supported for invoices',
  noFilesSelected: 'Please select at least one file to upload',
  fileEmpty: 'The file is empty',
  uploadKeyReused: 'This Idempotency-Key was sent before with another file',
  scannerAddressInUse: 'A scanner address is already in use',
  scannerAddressTaken: 'This address is already the invoice or expense scanner of a company',
  allowedSenderInvalid: 'Enter an e-mail address or an @domain',
  tooManyAllowedSenders: 'Too many allowed senders',
  messageWithoutAttachment: 'The message has no attachment',
  tooManyAttachments: 'Too many attachments in one message: {count} not filed',
  attachmentTooLarge: 'The file is larger than the size limit',
} as const

export type MessageCode = keyof typeof contractMessages

type MessageValues = Record<string, string | number>

const codeOfMessage = new Map<string, MessageCode>(
  Object.entries(contractMessages).map(([code, english]) => [english, code as MessageCode]),
)

const PLACEHOLDER = /\{(\w+)\}/g
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The messages with values, each as a pattern that finds the values in a filled-in text. */
const templates = Object.entries(contractMessages)
  .filter(([, english]) => english.includes('{'))
  .map(([code, english]) => ({
    code: code as MessageCode,
    names: [...english.matchAll(PLACEHOLDER)].map((m) => m[1]!),
    pattern: new RegExp(
      `^${english
        .split(PLACEHOLDER)
        .map((part, i) => (i % 2 ? '(.+?)' : escapeRegExp(part)))
        .join('')}$`,
    ),
  }))

/** A message with its values filled in (`{count}` → 3), as the server sends it. */
export const fillMessage = (code: MessageCode, values: MessageValues): string =>
  contractMessages[code].replace(PLACEHOLDER, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  )

/**
 * The code (and values) of a message that arrives as text (the error body's `message`, which the
 * contract keeps in English, a schema's issue, a dashboard row's reason); undefined for a text
 * the contract does not know. The one place such a text is read: past it, failures and forms
 * carry the code.
 */
export function readMessage(message: string): { code: MessageCode; values?: MessageValues } | undefined {
  const code = codeOfMessage.get(message)
  if (code) return { code }
  for (const template of templates) {
    const found = template.pattern.exec(message)
    if (found)
      return {
        code: template.code,
        values: Object.fromEntries(template.names.map((n, i) => [n, found[i + 1]!])),
      }
  }
  return undefined
}

export const messageCode = (message: string): MessageCode | undefined => readMessage(message)?.code

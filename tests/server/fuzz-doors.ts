/**
 * The hostile inputs of the fuzz test's other doors: XML e-invoices (control, bidirectional and
 * invisible characters raw or as character references, lone surrogates, over-long values, amounts
 * and dates no column holds, deep nesting, a flood of lines) and mail (nested parts, huge headers,
 * many attachments, bidi senders, hostile subjects, Message-IDs and file names), and the check
 * that what they left stored keeps the text rule.
 */
import type Mail from 'nodemailer/lib/mailer'
import { FIELD_LIMITS, hasUnsafeCharacter, MAX_AMOUNT, TEXT_LIMITS } from '../../contract/index.ts'
import { generateInvoiceXml, ublWith } from '../support/einvoices.ts'

interface Random {
  next(): number
  int(n: number): number
  pick<T>(items: readonly T[]): T
}

/** Values written into an XML text as they are: raw characters and character references. */
const XML_VALUES = [
  '\u0000',
  '&#xD800;',
  '&#xDC00;x',
  '&#55357;&#56832;',
  '&#x202E;',
  '\u202E',
  '&#1;',
  '&#x7F;',
  '&#x85;',
  '\u200B',
  '&#x200F;',
  '&#x61C;',
  '\u2028',
  '&#x2029;',
  '\uFEFF',
  '&#x2066;',
  '&#x10FFFF;',
  '&#xFFFE;',
  '&#0;',
  '&amp;lt;script&amp;gt;',
  '😀',
  'e&#x301;',
  ' ',
  '',
  'x'.repeat(600),
  'x'.repeat(8192),
]
const FIELDS = ['seller', 'number', 'street', 'terms', 'item'] as const
const AMOUNTS = ['1E15', '-1e300', '1e-9', 'NaN', 'Infinity', '0x10', '99999999999999.999']
const DATES = ['2024-02-30', '2024-13-45', '0000-01-01', '99999-01-01', '20241301', '']

/** One hostile e-invoice made from the sample UBL invoice. */
export interface HostileInvoice {
  what: string
  xml: string
}

async function structural(): Promise<HostileInvoice[]> {
  const base = await generateInvoiceXml('UBL')
  return [
    {
      what: 'nested 20 000 deep',
      xml: base.replace('</Invoice>', `${'<a>'.repeat(20_000)}${'</a>'.repeat(20_000)}</Invoice>`),
    },
    {
      what: '150 000 empty lines',
      xml: base.replace(
        '</Invoice>',
        `${'<cac:InvoiceLine><cbc:ID>1</cbc:ID></cac:InvoiceLine>'.repeat(150_000)}</Invoice>`,
      ),
    },
    {
      what: 'NUL in an attribute',
      xml: base.replace('currencyID="EUR"', `currencyID="${'E\u0000'.repeat(50_000)}"`),
    },
    {
      what: 'CDATA with controls',
      xml: base.replace('>Atelier Exemple SARL<', '><![CDATA[Ev\u0000il\u202E\u0007]]><'),
    },
    { what: 'unclosed', xml: base.slice(0, base.length / 2) },
    {
      what: 'entity declaration',
      xml: base.replace('<Invoice ', '<!DOCTYPE Invoice [<!ENTITY e "x">]><Invoice '),
    },
  ]
}

/** The directed hostile e-invoices, then `count` random ones (two values in one field, or in two). */
export async function hostileInvoices(random: Random, count: number): Promise<HostileInvoice[]> {
  const cases: HostileInvoice[] = await structural()
  cases.push({
    what: 'every value at once',
    xml: await ublWith({ seller: `Evil${XML_VALUES.slice(0, 20).join('')}fdp.exe` }),
  })
  cases.push({ what: 'amount 1E15', xml: await ublWith({ total: '1E15' }) })
  cases.push({ what: 'date 2024-02-30', xml: await ublWith({ issueDate: '2024-02-30' }) })
  for (let n = 0; n < count; n++) {
    const field = random.pick(FIELDS)
    const choice = random.int(4)
    if (choice === 0) cases.push({ what: `total ${n}`, xml: await ublWith({ total: random.pick(AMOUNTS) }) })
    else if (choice === 1)
      cases.push({ what: `date ${n}`, xml: await ublWith({ issueDate: random.pick(DATES) }) })
    else {
      const [a, b] = [random.pick(XML_VALUES), random.pick(XML_VALUES)]
      const other = random.pick(FIELDS)
      const values = choice === 2 ? { [field]: `A${a}B${b}C` } : { [field]: `A${a}B`, [other]: `C${b}D` }
      cases.push({
        what: `${Object.keys(values).join('+')} ${JSON.stringify([a, b]).slice(0, 40)}`,
        xml: await ublWith(values),
      })
    }
  }
  return cases
}

/** A raw message to one address (headers then body), for the parser's limits. */
const raw = (to: string, subject: string, type: string, body: string) =>
  `From: fuzz@office.test\r\nTo: ${to}\r\nSubject: ${subject}\r\nMIME-Version: 1.0\r\nContent-Type: ${type}\r\n\r\n${body}`

function nestedParts(depth: number): string {
  let body = ''
  for (let i = 1; i < depth; i++)
    body += `--b${i - 1}\r\nContent-Type: multipart/mixed; boundary="b${i}"\r\n\r\n`
  return `${body}--b${depth - 1}\r\nContent-Type: text/plain\r\n\r\nhi\r\n`
}

const TEXTS = [
  'inv\u202Efdp.exe',
  'a\u0000b',
  '\u200B\u200F\u061C',
  'x'.repeat(5000),
  'line\r\nBcc: x@y.test',
  '\uD800',
  '😀',
  '',
]

/** One hostile message, with the envelope it is sent with. */
export interface HostileMail {
  what: string
  message: Mail.Options
}

/**
 * The directed hostile messages to `invoices` (and `expenses`, the same company's other address),
 * then `count` random ones. Attachments are small: the inbox's limits, not its storage, are tried.
 */
export function hostileMails(
  random: Random,
  count: number,
  invoices: string,
  expenses: string,
): HostileMail[] {
  const envelope = { from: 'fuzz@office.test', to: [invoices] }
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')
  const cases: HostileMail[] = [
    {
      what: '5000 nested parts',
      message: { envelope, raw: raw(invoices, 'n', 'multipart/mixed; boundary="b0"', nestedParts(5000)) },
    },
    {
      what: '1 MB part header',
      message: {
        envelope,
        raw: raw(
          invoices,
          'p',
          'multipart/mixed; boundary="b"',
          `--b\r\nContent-Type: application/pdf\r\nX-F: ${'a'.repeat(1024 * 1024)}\r\n\r\n%PDF\r\n--b--\r\n`,
        ),
      },
    },
    {
      what: '2 MB header line',
      message: { envelope, raw: raw(invoices, 'h'.repeat(2 * 1024 * 1024), 'text/plain', 'hi\r\n') },
    },
    {
      what: '300 attachments to both addresses',
      message: {
        from: 'fuzz@office.test',
        to: [invoices, expenses],
        subject: 'flood',
        attachments: Array.from({ length: 300 }, (_, i) => ({ filename: `f${i}.pdf`, content: pdf })),
      },
    },
    {
      what: 'bidi sender, hostile headers and names',
      message: {
        envelope: { from: 'inv\u202Efdp.exe@office.test', to: [invoices] },
        from: 'inv\u202Efdp.exe@office.test',
        to: invoices,
        subject: `Pay\u202E\u0000 me ${'\u200B'.repeat(10)}`,
        messageId: `<${'m\u202E'.repeat(3000)}@office.test>`,
        attachments: [{ filename: `in\u202Ev\u0000.pdf${'x'.repeat(3000)}`, content: pdf }],
      },
    },
  ]
  for (let n = 0; n < count; n++) {
    const [subject, name, local] = [random.pick(TEXTS), random.pick(TEXTS), random.pick(TEXTS)]
    const sender = `${local.replace(/[\s@<>]/g, '').slice(0, 60) || 'x'}@office.test`
    cases.push({
      what: `random ${n} ${JSON.stringify([subject, name, local]).slice(0, 60)}`,
      message: {
        envelope: { from: sender, to: random.next() < 0.5 ? [invoices] : [invoices, expenses] },
        from: sender,
        to: invoices,
        subject,
        messageId: `<${random.pick(TEXTS).slice(0, 1000)}@office.test>`,
        attachments: Array.from({ length: random.int(4) }, () => ({
          filename: random.pick(TEXTS),
          content: pdf,
        })),
      },
    })
  }
  return cases
}

/** The texts of a value (a row, the e-invoice data), one line at a time (addresses and terms have several). */
function linesOf(value: unknown): string[] {
  if (typeof value === 'string') return value.split('\n')
  if (Array.isArray(value)) return value.flatMap(linesOf)
  if (value && typeof value === 'object') return Object.values(value).flatMap(linesOf)
  return []
}

const LIMITS: Record<string, number> = {
  ...FIELD_LIMITS,
  name: TEXT_LIMITS.fileName,
  original_name: TEXT_LIMITS.fileName,
  subject: TEXT_LIMITS.subject,
  sender: TEXT_LIMITS.sender,
  message_id: TEXT_LIMITS.messageId,
  supplier: FIELD_LIMITS.business_name,
}

/**
 * What in a stored row (as the API answers it) breaks the text rule: a character it forbids, a
 * text over its field's limit, an amount beyond the column.
 */
export function ruleBreaks(row: Record<string, unknown>): string[] {
  const found: string[] = []
  for (const [key, value] of Object.entries(row)) {
    for (const line of linesOf(value))
      if (hasUnsafeCharacter(line)) found.push(`${key} holds ${JSON.stringify(line.slice(0, 40))}`)
    const limit = LIMITS[key]
    if (typeof value === 'string' && limit !== undefined && value.length > limit)
      found.push(`${key} is ${value.length} characters`)
    if (typeof value === 'number' && key.startsWith('total') && !(Math.abs(value) < MAX_AMOUNT))
      found.push(`${key} is ${value}`)
  }
  return found
}

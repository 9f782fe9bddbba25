/**
 * An e-invoice in the detail dialog: where its fields came from, its type (credit note or
 * invoice), format and due date, its lines; and, for a bare XML file that has no page to show,
 * a readable rendering of the invoice (parties, lines, totals, payment terms) in place of the frame.
 */
import { useLingui } from '@lingui/react/macro'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { text as textRecipe } from 'styled-system/recipes'
import type { EInvoiceData } from '../../../../contract'
import { Definitions } from '../../components/definitions'
import { i18n } from '../../i18n'
import { formatAmount, formatDate } from './format'

type Party = EInvoiceData['seller']

const dash = (value: string | null | undefined) => (value ? value : '—')

function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—'
  return new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 4 }).format(value)
}

const formatRate = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : `${formatNumber(value)} %`

function Lines({ einvoice }: { einvoice: EInvoiceData }) {
  const { t } = useLingui()
  const cell = css({ px: '2', py: '1.5', borderBottomWidth: '1px', borderColor: 'border.default' })
  const number = css({ textAlign: 'right', whiteSpace: 'nowrap' })
  return (
    <div className={css({ overflowX: 'auto' })}>
      <table className={css({ w: 'full', fontSize: 'sm', borderCollapse: 'collapse' })}>
        <caption
          className={css({ textAlign: 'left', fontWeight: 'semibold', mb: '2' })}
        >{t`Invoice lines`}</caption>
        <thead>
          <tr className={textRecipe({ tone: 'muted' })}>
            <th scope="col" className={cell}>{t`Description`}</th>
            <th scope="col" className={`${cell} ${number}`}>{t`Quantity`}</th>
            <th scope="col" className={`${cell} ${number}`}>{t`Unit price`}</th>
            <th scope="col" className={`${cell} ${number}`}>{t`Net amount`}</th>
            <th scope="col" className={`${cell} ${number}`}>{t`VAT rate`}</th>
          </tr>
        </thead>
        <tbody>
          {einvoice.lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, never reordered; line ids may be absent or repeat
            <tr key={i}>
              <td className={cell}>{dash(line.description)}</td>
              <td className={`${cell} ${number}`}>{formatNumber(line.quantity)}</td>
              <td className={`${cell} ${number}`}>{formatAmount(line.unit_price, einvoice.currency)}</td>
              <td className={`${cell} ${number}`}>{formatAmount(line.net_amount, einvoice.currency)}</td>
              <td className={`${cell} ${number}`}>{formatRate(line.vat_rate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function useDocumentType(einvoice: EInvoiceData): string {
  const { t } = useLingui()
  return einvoice.credit_note ? t`Credit note` : t`Invoice`
}

/** Beside the fields: the e-invoice's source line, type, format, due date and lines. */
export function EInvoicePanel({ einvoice }: { einvoice: EInvoiceData }) {
  const { t } = useLingui()
  const type = useDocumentType(einvoice)
  return (
    <section aria-labelledby="detail-einvoice-title" className={stack({ gap: '3' })}>
      <h3 id="detail-einvoice-title" className={css({ fontWeight: 'semibold' })}>
        {t`E-invoice`}
      </h3>
      <p className={textRecipe({ tone: 'muted', size: 'sm' })}>{t`From the e-invoice data`}</p>
      <Definitions
        rows={[
          [t`Document type`, type],
          [t`Format`, einvoice.profile ? `${einvoice.syntax} · ${einvoice.profile}` : einvoice.syntax],
          [t`Due date`, formatDate(einvoice.due_date)],
        ]}
      />
      {einvoice.lines.length > 0 ? <Lines einvoice={einvoice} /> : null}
    </section>
  )
}

function PartyBlock({ title, party }: { title: string; party: Party }) {
  const { t } = useLingui()
  const a = party.address
  const town = a ? [a.postcode, a.city].filter(Boolean).join(' ') : ''
  return (
    <section aria-label={title} className={stack({ gap: '1', fontSize: 'sm' })}>
      <h4 className={textRecipe({ tone: 'muted', size: 'sm' })}>{title}</h4>
      <p className={css({ fontWeight: 'semibold' })}>{dash(party.name)}</p>
      {a?.lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      {town || a?.country ? <p>{[town, a?.country].filter(Boolean).join(', ')}</p> : null}
      {party.vat_id ? <p>{t`VAT number: ${party.vat_id}`}</p> : null}
    </section>
  )
}

/** A bare XML e-invoice, rendered as a readable invoice where a PDF would be shown. */
export function EInvoiceDocument({ einvoice }: { einvoice: EInvoiceData }) {
  const { t } = useLingui()
  const type = useDocumentType(einvoice)
  const c = einvoice.currency
  const totals = einvoice.totals
  return (
    <section
      aria-label={t`E-invoice rendering`}
      className={css({
        bg: 'bg.muted',
        p: { base: '4', md: '6' },
        overflowY: { md: 'auto' },
        borderRightWidth: { md: '1px' },
        borderBottomWidth: { base: '1px', md: '0' },
        borderColor: 'border.default',
      })}
    >
      <article
        className={stack({ gap: '5', bg: 'bg.default', p: '5', borderRadius: 'md', borderWidth: '1px' })}
      >
        <header className={stack({ gap: '1' })}>
          <h3 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
            {type} {einvoice.number ?? ''}
          </h3>
          <p className={textRecipe({ tone: 'muted', size: 'sm' })}>
            {t`Issued ${formatDate(einvoice.issue_date)}`}
            {einvoice.due_date ? ` · ${t`Due ${formatDate(einvoice.due_date)}`}` : ''}
          </p>
        </header>
        <div
          className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' })}
        >
          <PartyBlock title={t`Seller`} party={einvoice.seller} />
          <PartyBlock title={t`Buyer`} party={einvoice.buyer} />
        </div>
        {einvoice.lines.length > 0 ? <Lines einvoice={einvoice} /> : null}
        <section aria-label={t`Totals`}>
          <Definitions
            rows={[
              [t`Total excluding VAT`, formatAmount(totals.tax_exclusive, c)],
              [t`VAT amount`, formatAmount(totals.vat, c)],
              [t`Total including VAT`, formatAmount(totals.tax_inclusive, c)],
              [t`Amount due`, formatAmount(totals.payable, c)],
            ]}
          />
        </section>
        <section aria-label={t`Payment terms`}>
          <Definitions
            rows={[
              [t`Payment terms`, dash(einvoice.payment_terms)],
              [t`IBAN`, dash(einvoice.ibans[0])],
            ]}
          />
        </section>
      </article>
    </section>
  )
}

/** The company edit side sheet: a thin view of the company edit machine (actor passed in). */
import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { type ChangeEvent, type FormEvent, type InputHTMLAttributes, type ReactNode, useRef } from 'react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { text } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import { COMPANY_ROLES, type Company, LOGO_TYPES } from '../../../../contract'
import type { CompanyEditMachine, CompanyFields } from '../../../machines/admin/company-edit.machine'
import { FailureAlert, RetryAlert } from '../../components/alert'
import { Badge } from '../../components/badge'
import { BusyButton, Button } from '../../components/button'
import { TextField } from '../../components/field'
import { SelectField } from '../../components/select'
import { Sheet } from '../../components/sheet'
import { Spinner } from '../../components/spinner'
import { formValues } from '../../forms'
import { messageText } from '../../message-texts'
import { roleLabel } from './labels'

export type CompanyEditActor = ActorRefFrom<CompanyEditMachine>

const FORM_ID = 'company-edit-form'
const sectionTitle = css({ fontSize: 'sm', fontWeight: 'semibold', color: 'fg.default' })

export function CompanyEditSheet({ actor }: { actor: CompanyEditActor }) {
  const { t } = useLingui()
  const open = useSelector(actor, (s) => !s.hasTag('closed'))
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const saving = useSelector(actor, (s) => s.hasTag('saving'))
  const phase = useSelector(actor, (s) =>
    s.hasTag('loading') ? 'loading' : s.matches('failed') ? 'failed' : 'ready',
  )
  const name = useSelector(actor, (s) => s.context.company?.name ?? '')

  return (
    <Sheet
      open={open}
      busy={busy && phase !== 'loading'}
      onClose={() => actor.send({ type: 'company.cancel' })}
      title={<Trans>Edit company</Trans>}
      description={name || undefined}
      closeLabel={t`Close`}
      footer={
        <>
          <Button
            variant="outline"
            onClick={() => actor.send({ type: 'company.cancel' })}
            disabled={busy && phase === 'ready'}
          >
            <Trans>Cancel</Trans>
          </Button>
          {phase === 'ready' ? (
            <BusyButton type="submit" form={FORM_ID} busy={saving} disabled={busy}>
              <Trans>Save changes</Trans>
            </BusyButton>
          ) : null}
        </>
      }
    >
      {phase === 'loading' ? <SheetSkeleton /> : null}
      {phase === 'failed' ? (
        <RetryAlert align="start" onRetry={() => actor.send({ type: 'company.retry' })}>
          <Trans>Failed to fetch company</Trans>
        </RetryAlert>
      ) : null}
      {phase === 'ready' ? (
        <div className={stack({ gap: '8' })}>
          <LogoSection actor={actor} />
          <FieldsSection actor={actor} />
          <MembersSection actor={actor} />
        </div>
      ) : null}
    </Sheet>
  )
}

/** A part of the sheet under its heading (`id` names the heading). */
function TitledSection({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={stack({ gap: '3' })}>
      <h3 id={id} className={sectionTitle}>
        {title}
      </h3>
      {children}
    </section>
  )
}

function SheetSkeleton() {
  const { t } = useLingui()
  const bone = css({ bg: 'bg.subtle', borderRadius: 'md', animation: 'pulse 1.5s ease-in-out infinite' })
  return (
    <div role="status" aria-label={t`Loading company`} className={stack({ gap: '4' })}>
      <div className={bone} style={{ width: 64, height: 64 }} />
      {[1, 2, 3, 4, 5].map((i) => (
        <div key={i} className={bone} style={{ height: 40 }} />
      ))}
    </div>
  )
}

function LogoSection({ actor }: { actor: CompanyEditActor }) {
  const { t } = useLingui()
  const logoUrl = useSelector(actor, (s) => s.context.logoUrl)
  const logoError = useSelector(actor, (s) => s.context.logoError)
  const uploading = useSelector(actor, (s) => s.hasTag('uploading'))
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const name = useSelector(actor, (s) => s.context.company?.name ?? '')
  const input = useRef<HTMLInputElement>(null)
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.currentTarget.files?.[0]
    if (file) actor.send({ type: 'logo.select', file })
    e.currentTarget.value = ''
  }
  return (
    <TitledSection id="company-logo-title" title={<Trans>Logo</Trans>}>
      <div className={css({ display: 'flex', alignItems: 'center', gap: '4' })}>
        <div
          className={css({
            w: '16',
            h: '16',
            borderRadius: 'lg',
            borderWidth: '1px',
            borderColor: 'border.default',
            bg: 'bg.muted',
            display: 'grid',
            placeItems: 'center',
            overflow: 'hidden',
            flexShrink: 0,
            fontWeight: 'semibold',
            color: 'fg.muted',
          })}
        >
          {uploading ? (
            <Spinner />
          ) : logoUrl ? (
            <img
              src={logoUrl}
              alt={t`Logo of ${name}`}
              className={css({ w: 'full', h: 'full', objectFit: 'contain' })}
            />
          ) : (
            <span aria-hidden="true">{name.slice(0, 2).toUpperCase()}</span>
          )}
        </div>
        <div className={stack({ gap: '1' })}>
          <input
            ref={input}
            id="company-logo-file"
            type="file"
            accept={LOGO_TYPES.join(',')}
            onChange={onChange}
            disabled={busy}
            className={css({ srOnly: true })}
            aria-describedby="company-logo-hint"
          />
          <Button
            variant="outline"
            size="sm"
            onClick={() => input.current?.click()}
            disabled={busy}
            aria-busy={uploading}
          >
            {uploading ? <Trans>Uploading…</Trans> : <Trans>Upload logo</Trans>}
          </Button>
          <label htmlFor="company-logo-file" className={css({ srOnly: true })}>
            <Trans>Logo file</Trans>
          </label>
          <p id="company-logo-hint" className={text({ tone: 'muted', size: 'xs' })}>
            <Trans>JPG, PNG or GIF</Trans>
          </p>
        </div>
      </div>
      {logoError ? (
        <p role="alert" className={text({ tone: 'danger', size: 'sm' })}>
          {messageText(logoError)}
        </p>
      ) : null}
    </TitledSection>
  )
}

function FieldsSection({ actor }: { actor: CompanyEditActor }) {
  const { t } = useLingui()
  const company = useSelector(actor, (s) => s.context.company)
  const errors = useSelector(actor, (s) => s.context.fieldErrors)
  const failure = useSelector(actor, (s) => s.context.failure)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    actor.send({ type: 'company.save', fields: formValues(e.currentTarget) as CompanyFields })
  }
  if (!company) return null
  /** A field of the company, showing its saved value and its error. */
  const saved = { ...company, allowed_senders: (company.allowed_senders ?? []).join(', ') }
  const field = (
    name: keyof CompanyFields,
    label: string,
    props: InputHTMLAttributes<HTMLInputElement> & { hint?: string },
  ) => (
    <TextField
      label={label}
      name={name}
      defaultValue={saved[name] ?? ''}
      error={errors[name] ? messageText(errors[name]) : undefined}
      {...props}
    />
  )
  return (
    <form id={FORM_ID} onSubmit={onSubmit} noValidate aria-labelledby="company-fields-title">
      <fieldset disabled={busy} className={stack({ gap: '4' })}>
        <h3 id="company-fields-title" className={sectionTitle}>
          <Trans>Company details</Trans>
        </h3>
        <FailureAlert failure={failure} fallback={t`Failed to update company`} />
        {field('name', t`Company name`, { required: true })}
        <div
          className={css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' } })}
        >
          {field('invoice_scanner', t`Invoice scanner e-mail`, { type: 'email' })}
          {field('expense_scanner', t`Expense scanner e-mail`, { type: 'email' })}
        </div>
        {field('allowed_senders', t`Allowed senders`, {
          hint: t`Addresses or @domains that may send documents to the scanner addresses, separated by commas. Empty: anyone.`,
          placeholder: 'billing@supplier.com, @scanner.example.com',
        })}
        {field('monday_link', t`Monday link`, { type: 'url', placeholder: 'https://' })}
        {field('powerbi_link', t`Power BI link`, { type: 'url', placeholder: 'https://' })}
      </fieldset>
    </form>
  )
}

function MembersSection({ actor }: { actor: CompanyEditActor }) {
  const { t, i18n } = useLingui()
  const members = useSelector(actor, (s) => s.context.company?.users ?? [])
  const users = useSelector(actor, (s) => s.context.users)
  const pending = useSelector(actor, (s) => s.context.pendingRemovals)
  const me = useSelector(actor, (s) => s.context.currentUserEmail.toLowerCase())
  const addError = useSelector(actor, (s) => s.context.addError)
  const adding = useSelector(actor, (s) => s.hasTag('adding'))
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  // The machine decides which members can be marked (never yourself).
  const removable = useSelector(actor, (s) =>
    (s.context.company?.users ?? [])
      .filter((u) => s.can({ type: 'removal.mark', email: u.email }))
      .map((u) => u.email)
      .join('\n'),
  )
  const memberEmails = new Set(members.map((m) => m.email.toLowerCase()))
  const onAdd = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const values = formValues(e.currentTarget)
    actor.send({ type: 'member.add', email: values.email ?? '', role: values.role ?? '' })
  }

  return (
    <TitledSection id="company-members-title" title={<Trans>Users</Trans>}>
      {members.length === 0 ? (
        <p className={text({ tone: 'muted', size: 'sm' })}>
          <Trans>No users in this company yet.</Trans>
        </p>
      ) : (
        <ul
          aria-label={t`Company users`}
          className={css({
            display: 'flex',
            flexDirection: 'column',
            borderWidth: '1px',
            borderColor: 'border.default',
            borderRadius: 'lg',
            divideY: '1px',
            divideColor: 'border.default',
          })}
        >
          {members.map((m) => (
            <MemberRow
              key={m.email}
              actor={actor}
              member={m}
              isPending={pending.includes(m.email.toLowerCase())}
              isMe={m.email.toLowerCase() === me}
              busy={busy}
              canRemove={removable.split('\n').includes(m.email)}
            />
          ))}
        </ul>
      )}
      {pending.length > 0 ? (
        <p className={text({ tone: 'muted', size: 'xs' })}>
          <Trans>Removals are applied when you save.</Trans>
        </p>
      ) : null}
      <form
        onSubmit={onAdd}
        noValidate
        aria-label={t`Add a user`}
        className={css({
          display: 'grid',
          gap: '3',
          gridTemplateColumns: { base: '1fr', sm: '2fr 1fr auto' },
          alignItems: 'end',
          bg: 'bg.canvas',
          p: '3',
          borderRadius: 'lg',
        })}
      >
        <SelectField
          label={t`User`}
          name="email"
          placeholder={t`Select a user…`}
          disabled={busy}
          options={users.map((u) => ({
            value: u.email,
            label: memberEmails.has(u.email.toLowerCase())
              ? t`${u.name} ${u.surname} (already a member)`
              : `${u.name} ${u.surname} — ${u.email}`,
          }))}
        />
        <SelectField
          label={t`Role`}
          name="role"
          placeholder={t`Select a role…`}
          disabled={busy}
          options={COMPANY_ROLES.map((r) => ({ value: r, label: roleLabel(i18n, r) }))}
        />
        <BusyButton type="submit" busy={adding} disabled={busy}>
          <Trans>Add</Trans>
        </BusyButton>
        {addError ? (
          <p role="alert" className={css({ fontSize: 'sm', color: 'danger.fg', gridColumn: '1 / -1' })}>
            {messageText(addError)}
          </p>
        ) : null}
      </form>
    </TitledSection>
  )
}

/** A member: name (and "you"), e-mail, role or pending removal, and the remove / undo action. */
function MemberRow({
  actor,
  member: m,
  isPending,
  isMe,
  busy,
  canRemove,
}: {
  actor: CompanyEditActor
  member: Company['users'][number]
  isPending: boolean
  isMe: boolean
  busy: boolean
  canRemove: boolean
}) {
  const { t, i18n } = useLingui()
  const fullName = `${m.name} ${m.surname}`
  return (
    <li
      aria-label={fullName}
      className={css({
        display: 'flex',
        alignItems: 'center',
        gap: '3',
        px: '3',
        py: '2.5',
        flexWrap: 'wrap',
      })}
    >
      <div
        className={css({ flex: '1', minW: '40', display: 'flex', flexDirection: 'column' })}
        style={isPending ? { opacity: 0.5, textDecoration: 'line-through' } : undefined}
      >
        <span className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
          {fullName}
          {isMe ? (
            <span className={css({ color: 'fg.muted', fontWeight: 'normal' })}>
              {' '}
              <Trans>(you)</Trans>
            </span>
          ) : null}
        </span>
        <span className={text({ tone: 'muted', size: 'xs' })}>{m.email}</span>
      </div>
      {isPending ? (
        <Badge tone="warning">
          <Trans>Pending removal</Trans>
        </Badge>
      ) : (
        <Badge tone={m.company_role === 'COMPANY_ADMIN' ? 'accent' : 'neutral'}>
          {roleLabel(i18n, m.company_role)}
        </Badge>
      )}
      {/* A member marked for removal can be kept again (Undo) until the sheet is saved. */}
      <Button
        variant="ghost"
        size="sm"
        disabled={busy || (!isPending && !canRemove)}
        title={!isPending && isMe ? t`You cannot remove yourself from a company` : undefined}
        aria-label={isPending ? t`Undo removal of ${fullName}` : t`Remove ${fullName}`}
        onClick={() => actor.send({ type: isPending ? 'removal.undo' : 'removal.mark', email: m.email })}
      >
        {isPending ? <Trans>Undo</Trans> : <Trans>Remove</Trans>}
      </Button>
    </li>
  )
}

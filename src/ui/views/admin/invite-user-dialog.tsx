/** The invite dialog: identity, global role and companies; a thin view of the invite machine. */
import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { text } from 'styled-system/recipes'
import type { ActorRefFrom, SnapshotFrom } from 'xstate'
import { COMPANY_ROLES, GLOBAL_ROLES } from '../../../../contract'
import type { InviteUserMachine } from '../../../machines/admin/invite-user.machine'
import { FailureAlert } from '../../components/alert'
import { Badge } from '../../components/badge'
import { Button } from '../../components/button'
import { EmailField, NameFields } from '../../components/field'
import { FormDialog } from '../../components/form-dialog'
import { SelectField } from '../../components/select'
import { translateErrors } from '../../forms'
import { messageText } from '../../message-texts'
import { roleLabel } from './labels'

export function InviteUserDialog({
  actor,
  companies,
}: {
  actor: ActorRefFrom<InviteUserMachine>
  companies: { id: number; name: string }[]
}) {
  const { t, i18n } = useLingui()
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const open = useSelector(actor, (s) => s.status === 'active')
  const memberships = useSelector(actor, (s) => s.context.memberships)
  const companyError = useSelector(actor, (s) => s.context.companyError)
  const failure = useSelector(actor, (s) => s.context.failure)
  const errors = translateErrors(useSelector(actor, (s) => s.context.fieldErrors))
  const nameOf = (id: number) => companies.find((c) => c.id === id)?.name ?? `#${id}`

  const onAddCompany = () => {
    const company = document.getElementById('invite-company') as HTMLSelectElement | null
    const role = document.getElementById('invite-company-role') as HTMLSelectElement | null
    actor.send({
      type: 'company.add',
      companyId: company?.value ? Number(company.value) : null,
      role: role?.value ?? '',
    })
  }

  return (
    <FormDialog
      open={open}
      busy={busy}
      onClose={() => actor.send({ type: 'invite.close' })}
      onSubmit={(values) => actor.send({ type: 'invite.submit', values })}
      title={<Trans>Invite user</Trans>}
      description={<Trans>The user receives an e-mail with a link to activate the account.</Trans>}
      formId="invite-user-form"
      submitLabel={<Trans>Send invitation</Trans>}
    >
      <FailureAlert failure={failure} fallback={t`Failed to invite user`} />
      <EmailField errors={errors} autoComplete="off" />
      <NameFields errors={errors} labels={[t`Name`, t`Surname`]} />
      <SelectField
        label={t`Role`}
        name="role"
        placeholder={t`Select a role…`}
        error={errors.role}
        options={GLOBAL_ROLES.map((r) => ({ value: r, label: roleLabel(i18n, r) }))}
      />
      <fieldset className={stack({ gap: '3' })}>
        <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '2' })}>
          <Trans>Companies</Trans>
        </legend>
        <MembershipList actor={actor} memberships={memberships} nameOf={nameOf} />
        <CompanyPicker companies={companies} onAdd={onAddCompany} />
        {companyError ? (
          <p role="alert" className={text({ tone: 'danger', size: 'sm' })}>
            {messageText(companyError)}
          </p>
        ) : null}
      </fieldset>
    </FormDialog>
  )
}

/** The companies the invitation adds the user to, each with its role and a Remove button. */
function MembershipList({
  actor,
  memberships,
  nameOf,
}: {
  actor: ActorRefFrom<InviteUserMachine>
  memberships: SnapshotFrom<InviteUserMachine>['context']['memberships']
  nameOf: (id: number) => string
}) {
  const { t, i18n } = useLingui()
  return memberships.length > 0 ? (
    <ul className={stack({ gap: '2' })}>
      {memberships.map((m) => (
        <li
          key={m.companyId}
          className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm' })}
        >
          <span className={css({ flex: '1' })}>{nameOf(m.companyId)}</span>
          <Badge tone={m.role === 'COMPANY_ADMIN' ? 'accent' : 'neutral'}>{roleLabel(i18n, m.role)}</Badge>
          <Button
            variant="ghost"
            size="sm"
            aria-label={t`Remove ${nameOf(m.companyId)}`}
            onClick={() => actor.send({ type: 'company.remove', companyId: m.companyId })}
          >
            <Trans>Remove</Trans>
          </Button>
        </li>
      ))}
    </ul>
  ) : (
    <p className={text({ tone: 'muted', size: 'sm' })}>
      <Trans>No company yet: the user can be added to companies later.</Trans>
    </p>
  )
}

/** The company and company-role choices, and the button that adds them to the invitation. */
function CompanyPicker({
  companies,
  onAdd,
}: {
  companies: { id: number; name: string }[]
  onAdd: () => void
}) {
  const { t, i18n } = useLingui()
  return (
    <div
      className={css({
        display: 'grid',
        gap: '3',
        gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' },
        alignItems: 'end',
      })}
    >
      <SelectField
        id="invite-company"
        label={t`Company`}
        placeholder={t`Select a company…`}
        options={companies.map((c) => ({ value: String(c.id), label: c.name }))}
      />
      <SelectField
        id="invite-company-role"
        label={t`Company role`}
        placeholder={t`Select a role…`}
        options={COMPANY_ROLES.map((r) => ({ value: r, label: roleLabel(i18n, r) }))}
      />
      <Button variant="outline" onClick={onAdd} className={css({ justifySelf: 'start' })}>
        <Trans>Add company</Trans>
      </Button>
    </div>
  )
}

/**
 * Settings → API tokens: the new-token form, the token shown once (with a copy button) and the
 * list with its revoke confirmation. Loaded lazily by the settings page with its machine
 * (`AppActors.loadApiTokens`); it only reads the `apiTokens` actor and sends it events.
 */
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { type FormEvent, use } from 'react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { text } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import { API_TOKEN_NAME_MAX, type ApiTokenSummary, apiTokenMessages } from '../../../../contract/api-tokens'
import type { ApiTokensMachines } from '../../../machines/api-tokens/api-tokens.implementations'
import {
  type ApiTokensMachine,
  selectedToken,
  TOKEN_LIFETIMES,
} from '../../../machines/api-tokens/api-tokens.machine'
import { useScreenActor } from '../../app-context'
import { Alert } from '../../components/alert'
import { Badge } from '../../components/badge'
import { Button } from '../../components/button'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { TextField } from '../../components/field'
import { SelectField } from '../../components/select'
import { Spinner } from '../../components/spinner'
import { DataTable, MessageRow, SkeletonRows, Td, Th, Tr } from '../../components/table'
import { formValues } from '../../forms'
import { i18n } from '../../i18n'
import { failureText, messageText } from '../../message-texts'

type ApiTokensActor = ActorRefFrom<ApiTokensMachine>

/** The tokens' own messages (kept out of the first chunk's contract table), by their English text. */
const tokenMessageTexts: Record<string, MessageDescriptor> = {
  [apiTokenMessages.nameRequired]: msg`Token name is required`,
  [apiTokenMessages.nameTooLong]: msg`Token name must be at most 100 characters`,
  [apiTokenMessages.expiryInvalid]: msg`Expiry must be an ISO date`,
  [apiTokenMessages.limit]: msg`Too many API tokens: revoke one first`,
  [apiTokenMessages.notFound]: msg`API token not found`,
}
const tokenMessage = (message: string | undefined) => {
  if (message === undefined) return undefined
  const descriptor = tokenMessageTexts[message]
  return descriptor ? i18n._(descriptor) : messageText(message)
}

function ApiTokensSection({ load }: { load: () => Promise<ApiTokensMachines> }) {
  // Suspends (the settings page shows a spinner) until the tokens API and machine are loaded.
  const machines = use(load())
  return <ApiTokensPanel actor={useScreenActor(machines.apiTokens)} />
}

export default ApiTokensSection

/** The section's content for a running `apiTokens` actor. */
export function ApiTokensPanel({ actor }: { actor: ApiTokensActor }) {
  const shown = useSelector(actor, (s) => s.matches('shown'))
  return (
    <div className={stack({ gap: '5' })}>
      <p className={text({ tone: 'muted' })}>
        <Trans>
          Scripts can call the API with a token in the header <code>Authorization: Bearer …</code>. A token
          acts as you in your companies; it cannot manage tokens, change your password or two-factor
          authentication, or administer users.
        </Trans>
      </p>
      {shown ? <CreatedToken actor={actor} /> : <NewTokenForm actor={actor} />}
      <TokenList actor={actor} />
      <RevokeDialog actor={actor} />
    </div>
  )
}

function NewTokenForm({ actor }: { actor: ApiTokensActor }) {
  const { t } = useLingui()
  const creating = useSelector(actor, (s) => s.hasTag('creating'))
  const canCreate = useSelector(actor, (s) => s.can({ type: 'token.create', values: {} }))
  const errors = useSelector(actor, (s) => s.context.formErrors)
  const failure = useSelector(actor, (s) => s.context.failure)
  const lifetimes: Record<(typeof TOKEN_LIFETIMES)[number], string> = {
    '7': t`7 days`,
    '30': t`30 days`,
    '90': t`90 days`,
    '365': t`1 year`,
  }
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    actor.send({ type: 'token.create', values: formValues(e.currentTarget) })
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t`New API token`}>
      <fieldset disabled={creating} className={stack({ gap: '3' })}>
        {failure ? (
          <Alert status="error">
            {failure.code === 'unexpected' ? tokenMessage(failure.message) : failureText(failure)}
          </Alert>
        ) : null}
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'flex-start' })}>
          <TextField
            label={t`Token name`}
            name="name"
            maxLength={API_TOKEN_NAME_MAX}
            error={tokenMessage(errors.name)}
            autoComplete="off"
            className={css({ flex: '1 1 16rem' })}
          />
          <SelectField
            label={t`Expires in`}
            name="lifetime"
            defaultValue="365"
            error={tokenMessage(errors.lifetime)}
            options={TOKEN_LIFETIMES.map((days) => ({ value: days, label: lifetimes[days] }))}
            className={css({ flex: '0 1 12rem' })}
          />
        </div>
        <div>
          <Button type="submit" disabled={!canCreate || creating} aria-busy={creating}>
            {creating ? <Spinner size={4} /> : null}
            <Trans>Create token</Trans>
          </Button>
        </div>
      </fieldset>
    </form>
  )
}

/** The new token, shown this once: copy it, then put it away. */
function CreatedToken({ actor }: { actor: ApiTokensActor }) {
  const { t } = useLingui()
  const created = useSelector(actor, (s) => s.context.created)
  const copying = useSelector(actor, (s) => s.matches({ shown: 'copying' }))
  if (!created) return null
  return (
    <section aria-labelledby="api-token-created" className={stack({ gap: '3' })}>
      <Alert status="success">
        <span id="api-token-created">
          <Trans>Token “{created.name}” created. Copy it now: it will not be shown again.</Trans>
        </span>
      </Alert>
      <TextField
        label={t`New token`}
        value={created.token}
        readOnly
        autoFocus
        onFocus={(e) => e.currentTarget.select()}
        className={css({ fontFamily: 'mono' })}
      />
      <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
        <Button onClick={() => actor.send({ type: 'token.copy' })} disabled={copying} aria-busy={copying}>
          <Trans>Copy token</Trans>
        </Button>
        <Button variant="outline" onClick={() => actor.send({ type: 'token.dismiss' })}>
          <Trans>Done</Trans>
        </Button>
      </div>
    </section>
  )
}

function TokenList({ actor }: { actor: ApiTokensActor }) {
  const { t, i18n } = useLingui()
  const tokens = useSelector(actor, (s) => s.context.tokens)
  const loading = useSelector(actor, (s) => s.hasTag('loading'))
  const failed = useSelector(actor, (s) => s.matches('failed'))
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const canRevoke = useSelector(actor, (s) => s.matches('list'))
  const date = (iso: string) => i18n.date(new Date(iso), { dateStyle: 'medium' })
  const columns = 5
  return (
    <DataTable
      label={t`Your API tokens`}
      busy={busy}
      head={
        <>
          <Th>{t`Name`}</Th>
          <Th>{t`Created`}</Th>
          <Th>{t`Expires`}</Th>
          <Th>{t`Last used`}</Th>
          <Th className={css({ textAlign: 'right' })}>{t`Actions`}</Th>
        </>
      }
    >
      {loading && tokens.length === 0 ? <SkeletonRows columns={columns} /> : null}
      {failed ? (
        <MessageRow columns={columns}>
          <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3' })}>
            <Alert status="error">
              <Trans>Failed to load API tokens</Trans>
            </Alert>
            <Button variant="outline" onClick={() => actor.send({ type: 'list.retry' })}>
              <Trans>Retry</Trans>
            </Button>
          </div>
        </MessageRow>
      ) : null}
      {!loading && !failed && tokens.length === 0 ? (
        <MessageRow columns={columns}>
          <Trans>No API tokens yet.</Trans>
        </MessageRow>
      ) : null}
      {failed
        ? null
        : tokens.map((token) => (
            <TokenRow
              key={token.id}
              token={token}
              date={date}
              disabled={!canRevoke}
              onRevoke={() => actor.send({ type: 'token.revoke', id: token.id })}
            />
          ))}
    </DataTable>
  )
}

function TokenRow({
  token,
  date,
  disabled,
  onRevoke,
}: {
  token: ApiTokenSummary
  date: (iso: string) => string
  disabled: boolean
  onRevoke: () => void
}) {
  const { t } = useLingui()
  const expired = Date.parse(token.expires_at) <= Date.now()
  return (
    <Tr muted={expired}>
      <Td className={css({ fontWeight: 'medium', wordBreak: 'break-word' })}>{token.name}</Td>
      <Td className={css({ whiteSpace: 'nowrap' })}>{date(token.created_at)}</Td>
      <Td className={css({ whiteSpace: 'nowrap' })}>
        {expired ? (
          <Badge tone="neutral">
            <Trans>Expired</Trans>
          </Badge>
        ) : (
          date(token.expires_at)
        )}
      </Td>
      <Td className={css({ whiteSpace: 'nowrap' })}>
        {token.last_used_at ? date(token.last_used_at) : t`Never`}
      </Td>
      <Td className={css({ textAlign: 'right' })}>
        <Button
          variant="ghost"
          size="sm"
          disabled={disabled}
          aria-label={t`Revoke ${token.name}`}
          onClick={onRevoke}
        >
          <Trans>Revoke</Trans>
        </Button>
      </Td>
    </Tr>
  )
}

/** Open while the revocation is confirmed or sent. */
function RevokeDialog({ actor }: { actor: ApiTokensActor }) {
  const { t } = useLingui()
  const open = useSelector(actor, (s) => s.matches('confirmingRevoke') || s.matches('revoking'))
  const target = useSelector(actor, (s) => selectedToken(s.context))
  return (
    <ConfirmDialog
      open={open}
      danger
      closeOnInteractOutside={false}
      title={<Trans>Revoke API token?</Trans>}
      description={t`Scripts using “${target?.name ?? ''}” will stop working at once. This cannot be undone.`}
      confirmLabel={<Trans>Revoke</Trans>}
      cancelLabel={<Trans>Cancel</Trans>}
      onConfirm={() => actor.send({ type: 'revoke.confirm' })}
      onCancel={() => actor.send({ type: 'revoke.cancel' })}
    />
  )
}

/**
 * A form driven by a submission actor (which checks the values and sends them): its busy flag,
 * failure, success, translated field errors and submit handler. With `resetOnSuccess`, a form that
 * succeeded is emptied and its actor reset, ready for the next entry, then `onReset` runs.
 */
import { useSelector } from '@xstate/react'
import { type FormEvent, useEffect, useRef } from 'react'
import type { SubmissionMachine } from '../machines/shared/submission.machine'
import { useScreenActor } from './app-context'
import { formValues, translateErrors } from './forms'

export function useSubmissionForm(
  machine: SubmissionMachine,
  options: {
    /** Sent with the form's values (e.g. what an e-mailed link carries). */
    extra?: Record<string, string>
    resetOnSuccess?: boolean
    onReset?: () => void
  } = {},
) {
  const actor = useScreenActor(machine)
  const busy = useSelector(actor, (s) => s.hasTag('busy'))
  const failure = useSelector(actor, (s) => s.context.failure)
  const succeeded = useSelector(actor, (s) => s.matches('succeeded'))
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors)
  const form = useRef<HTMLFormElement>(null)
  const { resetOnSuccess, onReset } = options

  useEffect(() => {
    if (!succeeded || !resetOnSuccess) return
    form.current?.reset()
    actor.send({ type: 'form.reset' })
    onReset?.()
  }, [succeeded, resetOnSuccess, onReset, actor])

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    actor.send({ type: 'form.submit', values: { ...formValues(e.currentTarget), ...options.extra } })
  }
  return { form, busy, failure, succeeded, fieldErrors, errors: translateErrors(fieldErrors), onSubmit }
}

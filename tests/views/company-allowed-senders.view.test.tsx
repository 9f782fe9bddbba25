/**
 * The company edit sheet's allowed senders: typed in one box, sent as a list; a wrong entry is
 * shown by that box and nothing is sent.
 */
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import type { CompanyEditLoaded, CompanyUpdate } from '../../src/machines/admin/company-edit.machine'
import { companyEditMachine } from '../../src/machines/admin/company-edit.machine'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { CompanyEditSheet } from '../../src/ui/views/admin/company-edit-sheet'
import { acme, ME, users } from '../machines/admin-fixtures'
import { inApp, testActors } from '../support/render'

function renderSheet(allowed: string[]) {
  const sent: CompanyUpdate[] = []
  const machine = companyEditMachine.provide({
    actors: {
      load: fromPromise<CompanyEditLoaded, { companyId: number }>(async () => ({
        company: { ...acme, allowed_senders: allowed },
        users,
        logoUrl: null,
      })),
      updateCompany: fromPromise<void, { companyId: number; update: CompanyUpdate }>(async ({ input }) => {
        sent.push(input.update)
      }),
    },
  })
  const actor = createActor(machine, { input: { companyId: 1, currentUserEmail: ME } }).start()
  render(inApp(<CompanyEditSheet actor={actor} />, testActors({ session: createActor(sessionMachine) })))
  return { sent }
}

describe('allowed senders in the company edit sheet', () => {
  it('shows the saved list and sends what is typed as a list, lower-cased, each once', async () => {
    const user = userEvent.setup()
    const { sent } = renderSheet(['billing@supplier.test'])
    const box = (await screen.findByLabelText('Allowed senders')) as HTMLInputElement
    expect(box.value).toBe('billing@supplier.test')
    await user.clear(box)
    await user.type(box, 'Billing@Supplier.test; @scanner.example.com  billing@supplier.test')
    await user.click(screen.getByRole('button', { name: 'Save changes' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0]?.allowed_senders).toEqual(['billing@supplier.test', '@scanner.example.com'])
  })

  it('shows a wrong entry by the box and sends nothing', async () => {
    const user = userEvent.setup()
    const { sent } = renderSheet([])
    const box = await screen.findByLabelText('Allowed senders')
    await user.type(box, 'billing@supplier.test, not an address')
    await user.click(screen.getByRole('button', { name: 'Save changes' }))
    await waitFor(() => expect(box.getAttribute('aria-invalid')).toBe('true'))
    const errorId = box
      .getAttribute('aria-describedby')
      ?.split(' ')
      .find((id) => id.endsWith('-error'))
    expect(document.getElementById(errorId ?? '')?.textContent).toBe('Enter an e-mail address or an @domain')
    expect(sent).toEqual([])
  })
})

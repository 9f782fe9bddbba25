/**
 * The administration area's machines (platform administrators) filled from the admin API and the
 * notices: a chunk of its own, loaded when a platform administrator opens the settings.
 */
import * as v from 'valibot'
import { fromPromise } from 'xstate'
import { CreateCompanyInput } from '../../../contract'
import type { AdminApi } from '../../api/admin'
import { type Notify, notice } from '../shared/notice'
import { createSubmissionMachine } from '../shared/submission.machine'
import { adminCompaniesMachine } from './admin-companies.machine'
import { adminUsersMachine } from './admin-users.machine'
import { companyEditMachine } from './company-edit.machine'
import { inviteUserMachine } from './invite-user.machine'

export type AdminDeps = { admin: AdminApi; notify: Notify }

/** The new-company form: a name (≥ 2 characters), the only field asked at creation. */
const NewCompanyForm = v.object({ name: CreateCompanyInput.entries.name })

export function createAdminImplementations({ admin, notify }: AdminDeps) {
  const companyEdit = companyEditMachine.provide({
    actors: {
      load: fromPromise(async ({ input }) => {
        const [company, users] = await Promise.all([admin.getCompany(input.companyId), admin.listUsers()])
        return { company, users, logoUrl: company.logo_path ? admin.logoUrl(company.id) : null }
      }),
      uploadLogo: fromPromise(async ({ input }) => {
        await admin.uploadLogo(input.companyId, input.file, input.file.name)
        return { logoUrl: admin.logoUrl(input.companyId) }
      }),
      addMember: fromPromise(({ input }) => admin.addUserToCompany(input)),
      updateCompany: fromPromise(({ input }) => admin.updateCompany(input.companyId, input.update)),
      removeMember: fromPromise(({ input }) => admin.removeUserFromCompany(input)),
    },
    actions: { notify: (_, { notice: code, message }) => notify(notice(`admin.${code}`, { message })) },
  })
  const inviteUser = inviteUserMachine.provide({
    actors: {
      invite: fromPromise(({ input }) =>
        admin.inviteUser({
          email: input.email,
          name: input.name,
          surname: input.surname,
          role: input.role,
          companies: input.memberships.map((m) => ({ company_id: m.companyId, role: m.role })),
        }),
      ),
    },
    actions: { notify: (_, { notice: code, message }) => notify(notice(`admin.${code}`, { message })) },
  })
  return {
    adminCompanies: adminCompaniesMachine.provide({
      actors: {
        loadCompanies: fromPromise(() => admin.listCompanies()),
        setCompanyStatus: fromPromise(({ input }) => admin.setCompanyStatus(input.companyId, input.enabled)),
        companyEdit,
      },
      actions: { notify: (_, { notice: code, message }) => notify(notice(`admin.${code}`, { message })) },
    }),
    adminUsers: adminUsersMachine.provide({
      actors: {
        loadUsers: fromPromise(() => admin.listUsers()),
        setUserStatus: fromPromise(({ input }) => admin.setUserStatus(input.email, input.enabled)),
        updateUser: fromPromise(({ input }) => admin.updateUser(input.userId, input.update)),
        inviteUser,
      },
      actions: { notify: (_, { notice: code, message }) => notify(notice(`admin.${code}`, { message })) },
    }),
    createCompany: createSubmissionMachine(NewCompanyForm).provide({
      actors: { submit: fromPromise(({ input }) => admin.createCompany(input as { name: string })) },
      actions: {
        succeeded: () => notify(notice('admin.companyCreated')),
        failed: (_, { failure }) =>
          notify(
            notice('admin.companyCreateFailed', {
              message: failure.status >= 500 ? undefined : failure.message,
            }),
          ),
      },
    }),
  }
}

export type AdminMachines = ReturnType<typeof createAdminImplementations>

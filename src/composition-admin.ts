/**
 * The administration area's machines, provided with the admin API: a chunk of its own, loaded
 * when a platform administrator opens the settings (see `loadAdmin` in composition.ts).
 */
import { fromPromise } from 'xstate'
import type { AdminApi } from './api/admin'
import { notifyAdmin } from './composition'
import { adminCompaniesMachine } from './machines/admin/admin-companies.machine'
import { adminUsersMachine } from './machines/admin/admin-users.machine'
import { companyEditMachine } from './machines/admin/company-edit.machine'
import { inviteUserMachine } from './machines/admin/invite-user.machine'
import { submissionMachine } from './machines/shared/submission.machine'

/** The administration area's machines (platform administrators), provided with the admin API. */
export function createAdminMachines(api: { admin: AdminApi }) {
  const companyEdit = companyEditMachine.provide({
    actors: {
      load: fromPromise(async ({ input }) => {
        const [company, users] = await Promise.all([
          api.admin.getCompany(input.companyId),
          api.admin.listUsers(),
        ])
        return { company, users, logoUrl: company.logo_path ? api.admin.logoUrl(company.id) : null }
      }),
      uploadLogo: fromPromise(async ({ input }) => {
        await api.admin.uploadLogo(input.companyId, input.file, input.file.name)
        return { logoUrl: api.admin.logoUrl(input.companyId) }
      }),
      addMember: fromPromise(({ input }) => api.admin.addUserToCompany(input)),
      updateCompany: fromPromise(({ input }) => api.admin.updateCompany(input.companyId, input.update)),
      removeMember: fromPromise(({ input }) => api.admin.removeUserFromCompany(input)),
    },
    actions: { notify: (_, { notice, message }) => notifyAdmin(notice, message) },
  })
  const inviteUser = inviteUserMachine.provide({
    actors: {
      invite: fromPromise(({ input }) =>
        api.admin.inviteUser({
          email: input.email,
          name: input.name,
          surname: input.surname,
          role: input.role,
          companies: input.memberships.map((m) => ({ company_id: m.companyId, role: m.role })),
        }),
      ),
    },
    actions: { notify: (_, { notice, message }) => notifyAdmin(notice, message) },
  })
  return {
    adminCompanies: adminCompaniesMachine.provide({
      actors: {
        loadCompanies: fromPromise(() => api.admin.listCompanies()),
        setCompanyStatus: fromPromise(({ input }) =>
          api.admin.setCompanyStatus(input.companyId, input.enabled),
        ),
        companyEdit,
      },
      actions: { notify: (_, { notice, message }) => notifyAdmin(notice, message) },
    }),
    adminUsers: adminUsersMachine.provide({
      actors: {
        loadUsers: fromPromise(() => api.admin.listUsers()),
        setUserStatus: fromPromise(({ input }) => api.admin.setUserStatus(input.email, input.enabled)),
        updateUser: fromPromise(({ input }) => api.admin.updateUser(input.userId, input.update)),
        inviteUser,
      },
      actions: { notify: (_, { notice, message }) => notifyAdmin(notice, message) },
    }),
    createCompany: submissionMachine.provide({
      actors: { submit: fromPromise(({ input }) => api.admin.createCompany(input as { name: string })) },
      actions: {
        succeeded: () => notifyAdmin('companyCreated'),
        failed: (_, { failure }) =>
          notifyAdmin('companyCreateFailed', failure.status >= 500 ? undefined : failure.message),
      },
    }),
  }
}

export type AdminMachines = ReturnType<typeof createAdminMachines>

/**
 * The administration calls' path values and the answers `administration.ts` does not cover. Only
 * the server imports this module: it validates with these schemas and describes its API from them.
 */
import * as v from 'valibot'
import { AdminUser } from './administration.ts'
import { COMPANY_ROLES, IdParam, Text } from './common.ts'

/** `GET /admin/company/search/{name}`. */
export const CompanySearchTerm = v.pipe(
  Text(200, 'Search term is too long'),
  v.minLength(1, 'Search term is required'),
)

/** `PUT /admin/user/{id}`: the numeric id, or the e-mail (one source updates by e-mail). */
export const UserKey = v.union(
  [
    v.pipe(
      IdParam,
      v.transform((id) => ({ id: id as number })),
    ),
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.email(),
      v.maxLength(254),
      v.transform((email) => ({ email })),
    ),
  ],
  'Invalid user id',
)

/** `POST /admin/invite-user`: the invited user as the administration lists them. */
export const InviteAnswer = v.object({ message: v.string(), user: AdminUser })

/** `POST /admin/user-company`: the membership as stored. */
export const MembershipAnswer = v.object({
  user_email: v.string(),
  company_id: v.number(),
  role: v.picklist(COMPANY_ROLES),
})

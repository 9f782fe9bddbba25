/** Form schemas of the administration dialogs: the shared payload rules with the messages the dialogs show. */
import * as v from 'valibot'
import { AdminEmail, contractMessages, GlobalRoleInput } from '../../../contract'

const Name = (message: string) =>
  v.pipe(v.string(), v.trim(), v.minLength(2, message), v.maxLength(100, message))

export const EditUserForm = v.object({
  name: Name(contractMessages.nameTooShort),
  surname: Name(contractMessages.surnameTooShort),
  role: GlobalRoleInput,
})

export const InviteUserForm = v.object({
  email: AdminEmail,
  name: Name(contractMessages.nameTooShort),
  surname: Name(contractMessages.surnameTooShort),
  role: GlobalRoleInput,
})
